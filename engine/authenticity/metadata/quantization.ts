import { lumaTableOf, type QuantTable } from './jpeg-structure.js';

/**
 * Quantisation-table fingerprint. Most editors and libraries (libjpeg, libjpeg-turbo, mozjpeg
 * default, GIMP, PIL, browsers) write the ITU-T T.81 Annex K tables scaled by the IJG quality
 * formula; many camera pipelines write their own tables. A camera-branded file whose tables are
 * exactly IJG-scaled at a low quality points to a re-save; the estimated quality also feeds the
 * classifier. This is a weak cue on its own: some phones use IJG tables too.
 */
export const ANNEX_K_LUMA: readonly number[] = [
  16, 11, 10, 16, 24, 40, 51, 61, 12, 12, 14, 19, 26, 58, 60, 55, 14, 13, 16, 24, 40, 57, 69, 56, 14, 17, 22, 29, 51, 87,
  80, 62, 18, 22, 37, 56, 68, 109, 103, 77, 24, 35, 55, 64, 81, 104, 113, 92, 49, 64, 78, 87, 103, 121, 120, 101, 72, 92,
  95, 98, 112, 100, 103, 99,
];
const ANNEX_K_CHROMA = [
  17, 18, 24, 47, 99, 99, 99, 99, 18, 21, 26, 66, 99, 99, 99, 99, 24, 26, 56, 99, 99, 99, 99, 99, 47, 66, 99, 99, 99, 99,
  99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99,
  99, 99, 99, 99,
];

export function ijgTable(base: readonly number[], quality: number): number[] {
  const q = Math.min(100, Math.max(1, Math.round(quality)));
  const scale = q < 50 ? 5000 / q : 200 - 2 * q;
  return base.map((v) => Math.min(255, Math.max(1, Math.floor((v * scale + 50) / 100))));
}

export interface QuantizationFingerprint {
  /** Estimated IJG-equivalent quality of the luminance table, 1..100. */
  lumaQuality: number;
  chromaQuality: number | null;
  /** True when the luminance (and chroma, if present) tables equal IJG Annex K scaling exactly. */
  standardIjg: boolean;
  /** Mean luminance quantiser: larger = coarser. */
  lumaMean: number;
  tableCount: number;
}

/** Per base table: every IJG-scaled version (values joined) → the lowest quality that writes it. Built once per base. */
const scaledIndex = new WeakMap<readonly number[], Map<string, number>>();

/** The lowest IJG quality at which `base` scales to exactly `values`, or null when no quality does. */
export function exactIjgQuality(values: ArrayLike<number>, base: readonly number[]): number | null {
  let index = scaledIndex.get(base);
  if (!index) {
    index = new Map();
    // Descending, so that where neighbouring qualities give the same table the lowest one stays.
    for (let q = 100; q >= 1; q--) index.set(ijgTable(base, q).join(','), q);
    scaledIndex.set(base, index);
  }
  return index.get(Array.prototype.join.call(values, ',')) ?? null;
}

function estimateQuality(values: Uint16Array, base: readonly number[]): { quality: number; exact: boolean } {
  const exact = exactIjgQuality(values, base);
  if (exact !== null) return { quality: exact, exact: true };
  // Non-IJG table: the IJG quality whose scale best explains the table in the least-squares sense of ratios.
  let ratio = 0;
  for (let i = 0; i < 64; i++) ratio += values[i]! / base[i]!;
  const scale = (ratio / 64) * 100;
  const quality = scale <= 100 ? (200 - scale) / 2 : 5000 / scale;
  return { quality: Math.max(1, Math.min(100, Math.round(quality))), exact: false };
}

export function fingerprintQuantization(tables: QuantTable[]): QuantizationFingerprint | null {
  const luma = lumaTableOf(tables);
  if (!luma) return null;
  const chroma = tables.find((t) => t !== luma);
  const l = estimateQuality(luma.values, ANNEX_K_LUMA);
  const c = chroma ? estimateQuality(chroma.values, ANNEX_K_CHROMA) : null;
  let sum = 0;
  for (const v of luma.values) sum += v;
  return {
    lumaQuality: l.quality,
    chromaQuality: c ? c.quality : null,
    standardIjg: l.exact && (c ? c.exact : true),
    lumaMean: sum / 64,
    tableCount: tables.length,
  };
}
