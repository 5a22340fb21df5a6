import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface DecodedFrame {
  /** JPEG bytes. */
  image: Buffer;
  /** Milliseconds since the start of the decoded segment. */
  timestampMs: number;
}

/** ffmpeg on PATH, else Debian's; tests and the bench need it, the engine does not. */
export function ffmpegPath(): string {
  return process.env.FFMPEG_PATH ?? 'ffmpeg';
}

/**
 * Decodes `[startS, startS + durationS)` of a clip at `fps`, shrunk to `maxSide`, into JPEG
 * frames in a temporary directory that is removed before returning. ffmpeg sniffs the container,
 * which matters: several shared clips are WebM behind an `.mp4` name.
 */
function cropFilter(crop: 'left' | 'right' | 'centre' | undefined): string {
  if (!crop) return '';
  if (crop === 'centre') return 'crop=ih:ih:(iw-ih)/2:0,';
  return `crop=iw/2:ih:${crop === 'left' ? 0 : 'iw/2'}:0,`;
}

export async function decodeClip(file: string, opts: { startS: number; durationS: number; fps: number; maxSide: number; crop?: 'left' | 'right' | 'centre' }): Promise<DecodedFrame[]> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'faces-clip-'));
  try {
    const scale = `scale=${opts.maxSide}:${opts.maxSide}:force_original_aspect_ratio=decrease`;
    await run(ffmpegPath(), [
      '-v', 'error', '-ss', String(opts.startS), '-t', String(opts.durationS), '-i', file,
      // `crop`: one half of a side-by-side clip (the attack set's face-swap demos: original | swapped);
      // `centre`: the middle square of a wide frame (a square picture inside a white 16:9 frame).
      '-vf', `${cropFilter(opts.crop)}fps=${opts.fps},${scale}`, '-q:v', '3', path.join(dir, '%05d.jpg'),
    ]);
    const names = (await readdir(dir)).filter((n) => n.endsWith('.jpg')).sort();
    // Awaited here: a bare `return` of the promise runs `finally` (removing the frames) while the
    // reads are still pending, and a read then fails with ENOENT (a CI run of 2026-12-01).
    return await Promise.all(
      names.map(async (name, i) => ({ image: await readFile(path.join(dir, name)), timestampMs: Math.round((i * 1000) / opts.fps) })),
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
