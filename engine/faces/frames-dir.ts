import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { ZLivenessFrameMeta, type TLivenessFrameMeta } from '../../domain/liveness.js';

/**
 * On-disk layout of a liveness capture, for the CLI and for fixtures:
 *   <dir>/frames.json  { "frames": [ { "file": "0001.jpg", "nonce": "…", "timestamp_ms": 0, "colour": "red" }, … ] }
 *   <dir>/0001.jpg …   the frames as the page uploaded them (unmirrored camera images)
 */
export const ZFramesManifest = z.object({
  frames: z.array(ZLivenessFrameMeta.extend({ file: z.string().min(1).refine((f) => !f.includes('..') && !path.isAbsolute(f), 'file must stay inside the frames directory') })),
});
export type TFramesManifest = z.infer<typeof ZFramesManifest>;

export async function readFramesDir(dir: string): Promise<{ image: Buffer; meta: TLivenessFrameMeta }[]> {
  const manifest = ZFramesManifest.parse(JSON.parse(await readFile(path.join(dir, 'frames.json'), 'utf8')));
  return Promise.all(
    manifest.frames.map(async ({ file, ...meta }) => ({ image: await readFile(path.join(dir, file)), meta })),
  );
}

/** Writes a capture in the layout above, plus the challenge as `challenge.json`. */
export async function writeFramesDir(dir: string, frames: { image: Buffer; meta: TLivenessFrameMeta }[], challenge: unknown): Promise<void> {
  await mkdir(dir, { recursive: true });
  const manifest: TFramesManifest = { frames: [] };
  for (const [i, f] of frames.entries()) {
    const file = `${String(i + 1).padStart(4, '0')}.jpg`;
    await writeFile(path.join(dir, file), f.image);
    manifest.frames.push({ file, ...f.meta });
  }
  await writeFile(path.join(dir, 'frames.json'), `${JSON.stringify(manifest, null, 1)}\n`);
  await writeFile(path.join(dir, 'challenge.json'), `${JSON.stringify(challenge, null, 1)}\n`);
}
