/**
 * Inputs of the forensic maps for the same-output tests (issue 18): a seeded random image as
 * features.ts feeds it, or a real photograph's maps built as features.ts builds them. Shared by
 * engine/authenticity/forensics/tile-maps.test.ts and region-scan-same.test.ts.
 */
import { decodeForForensics, lumaOf } from '../../../engine/authenticity/image/decode.js';
import { readAllCoefficients, type LumaCoefficients } from '../../../engine/authenticity/image/jpeg-coefficients.js';
import { AUTHENTICITY_SETTINGS_V9 } from '../../../engine/authenticity/settings.js';
import type { BlockMap } from '../../../engine/authenticity/forensics/block-maps.js';
import { dqLikelihood, type DqLikelihood } from '../../../engine/authenticity/forensics/dq-likelihood.js';
import { BLOCK, errorLevelMaps } from '../../../engine/authenticity/forensics/error-level.js';
import { noiseResidualMap } from '../../../engine/authenticity/forensics/noise-residual.js';
import { mulberry32 } from '../../corpus/random.js';
import { realJpegs } from './real-documents.js';

/** A seeded generator (mulberry32), so a failure names an input that can be rebuilt. */
export const seededRandom = (seed: number): (() => number) => mulberry32(seed).next;

export interface ForensicsInputs {
  luma: Float32Array;
  width: number;
  height: number;
  noise: BlockMap;
  ela: BlockMap;
  grad: BlockMap;
  coef: LumaCoefficients | null;
  origin: { left: number; top: number };
}

/**
 * A random image as features.ts feeds it: luma from random RGB (lumaOf's float32 values) in
 * smooth, noisy, blocky, clipped or flat patterns, or arbitrary float32 values of one or of many
 * magnitudes; 16-px maps with
 * ties; coefficients with peaks and valleys; sizes that are and are not multiples of the tiles.
 */
export function randomForensicsInputs(r: () => number): ForensicsInputs {
  const side = () => (r() < 0.35 ? 32 * (2 + Math.floor(r() * 10)) : 16 * (2 + Math.floor(r() * 20)) + Math.floor(r() * 16));
  const width = side(), height = side();
  const kind = Math.floor(r() * 5);
  const rgb = new Uint8Array(width * height * 3);
  const base = r() * 255, amp = r() * 80, noiseAmp = r() * 20;
  for (let y = 0, j = 0; y < height; y++) for (let x = 0; x < width; x++) {
    let v = base + amp * Math.sin(x / 17 + y / 29);
    if (kind === 1) v += (r() - 0.5) * noiseAmp;
    if (kind === 2) v += ((x >> 3) + (y >> 3)) % 2 ? 9 : -9;
    if (kind === 3) v = r() < 0.5 ? 0 : 255;
    for (let k = 0; k < 3; k++, j++) rgb[j] = Math.max(0, Math.min(255, Math.round(v + (kind === 4 ? 0 : (r() - 0.5) * 6))));
  }
  // lumaOf's values are multiples of 2^-27 below 256, so these sums are exact in any order; values
  // of mixed magnitudes (1e-9 … 1e3) are not, so those cases also pin the order of the additions.
  const f = r();
  const luma = f < 0.15 ? new Float32Array(width * height).map(() => (r() - 0.2) * 300) : f < 0.35 ? new Float32Array(width * height).map(() => r() * 10 ** (-9 + 12 * r())) : lumaOf({ width, height, rgb });
  const map = (scale: number): BlockMap => {
    const cols = Math.floor(width / 16), rows = Math.floor(height / 16);
    const ties = r() < 0.3;
    return { cols, rows, size: 16, values: new Float32Array(cols * rows).map(() => (ties ? Math.floor(r() * 4) : r() * scale)) };
  };
  let coef: LumaCoefficients | null = null;
  if (r() < 0.8) {
    const blocksWide = Math.ceil(width / 8) + Math.floor(r() * 3), blocksHigh = Math.ceil(height / 8) + Math.floor(r() * 3);
    const q = new Int16Array(blocksWide * blocksHigh * 64);
    const step = 1 + Math.floor(r() * 4);
    for (let i = 0; i < q.length; i++) q[i] = r() < 0.4 ? 0 : step * Math.round((r() - 0.5) * 30) + (r() < 0.1 ? 1 : 0);
    coef = { blocksWide, blocksHigh, coefficients: q, table: new Uint16Array(64).fill(2) };
  }
  return { luma, width, height, noise: map(8), ela: map(3), grad: map(40), coef, origin: { left: 8 * Math.floor(r() * 3), top: 8 * Math.floor(r() * 3) } };
}

/** The same inputs from a real photograph, built as features.ts builds them. */
export async function realForensicsInputs(bytes: Buffer): Promise<(ForensicsInputs & { dql: NonNullable<DqLikelihood['map']> | null }) | null> {
  // Photographs the engine refuses (too small) have no maps to compare.
  const image = await decodeForForensics(bytes, AUTHENTICITY_SETTINGS_V9).catch(() => null);
  if (!image) return null;
  const native = image.native;
  const luma = lumaOf(native);
  const e = await errorLevelMaps(native, luma);
  const coef = readAllCoefficients(bytes)?.[0] ?? null;
  return {
    luma, width: native.width, height: native.height,
    noise: noiseResidualMap(luma, native.width, native.height, BLOCK),
    ela: e.elaPerTexture, grad: e.gradient, coef, origin: native,
    dql: dqLikelihood(coef, native).map ?? null,
  };
}

/** Real photographs read in place (../shared/documents-real), spread over the set. */
export const REAL_SAMPLE = realJpegs().filter((_, i) => i % 2 === 0).slice(0, 10);
