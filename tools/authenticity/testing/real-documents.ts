import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AuthenticityEngine } from '../../../engine/authenticity/index.js';
import { decodeRgb } from '../attacks/raw.js';
import { splicePortrait } from '../attacks/splice-portrait.js';
import { createRng, type Rng } from '../training/rng.js';

/**
 * The real specimen document images of `../shared/documents-real` for the authenticity settings'
 * tests: one place for the folder, the file lookup and the splice probe that every settings
 * version is held to (v5, v6, v7 run the same probe, each with its editor's save).
 */
const HERE = path.dirname(fileURLToPath(import.meta.url));
export const REAL_DOCUMENTS_DIR = path.resolve(HERE, '../../../../shared/documents-real');

export const isJpeg = (b: Buffer): boolean => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff;

/** The file whose name starts with `prefix` (the folder's names are `<owner>__<repo>__<path>`). */
export const realDocument = (prefix: string): string => path.join(REAL_DOCUMENTS_DIR, readdirSync(REAL_DOCUMENTS_DIR).find((f) => f.startsWith(prefix))!);

/** Every JPEG of the folder, in name order. */
export function realJpegs(): string[] {
  return readdirSync(REAL_DOCUMENTS_DIR)
    .sort()
    .map((f) => path.join(REAL_DOCUMENTS_DIR, f))
    .filter((f) => isJpeg(readFileSync(f)));
}

type EditorSave = (img: { width: number; height: number; rgb: Uint8Array }, rng: Rng, capturedAt: Date) => Promise<Buffer>;

/**
 * Six real genuine images, each with a portrait-sized region pasted from another real image and
 * saved by `save`: how many of the six the engine scores above their untouched original.
 */
export async function splicedAboveOriginal(engine: AuthenticityEngine, save: EditorSave, seed: number): Promise<{ higher: number; n: number }> {
  const genuine = realJpegs();
  const rng = createRng(seed);
  let higher = 0, n = 0;
  for (let i = 0; i < 6; i++) {
    const file = genuine[(i * 5) % genuine.length]!;
    const donor = genuine[(i * 5 + 3) % genuine.length]!;
    const bytes = readFileSync(file);
    const img = await decodeRgb(bytes);
    const zone = { name: 'portrait', x: Math.round(img.width * 0.1), y: Math.round(img.height * 0.2), width: Math.round(img.width * 0.25), height: Math.round(img.height * 0.35) };
    const forged = await splicePortrait({ ...img, zones: [zone] }, donor, rng.fork(`s${i}`));
    const saved = await save(forged, rng.fork(`e${i}`), new Date('2026-11-20T10:00:00Z'));
    const a = await engine.analyze({ bytes, kind: 'document_front' });
    const b = await engine.analyze({ bytes: saved, kind: 'document_front' });
    n++;
    if ((b.score ?? 0) > (a.score ?? 0)) higher++;
  }
  return { higher, n };
}
