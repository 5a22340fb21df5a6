import { ZIGZAG } from '../metadata/jpeg-structure.js';
import { dct8x8 } from './dct8.js';

/**
 * Double JPEG compression (Popescu & Farid): when a JPEG saved with table Q1 is decoded and saved
 * again with Q2 ≠ Q1, the histogram of each DCT coefficient divided by Q2 shows periodic gaps or
 * peaks. We recompute the DCT from the decoded luma on the file's own 8×8 grid, divide by the
 * last table (from the DQT segment), and measure how far each histogram bin departs from the
 * mean of its neighbours. A once-compressed histogram is smooth; a twice-compressed one is not.
 */
export interface DoubleCompressionResult {
  available: boolean;
  /** Mean over the analysed coefficients of the mean absolute log-ratio of bins to neighbours. */
  score: number;
  /** Highest per-coefficient score (one coefficient can carry the periodicity alone). */
  maxScore: number;
  /** Share of empty bins between populated neighbours (the Q1 > Q2 signature). */
  gapRate: number;
  /**
   * Best evidence, over candidate earlier steps Q1 > Q2, that the bins a Q1-then-Q2 quantiser
   * cannot produce are empty: 1 − (mass in those bins / their smoothed expectation), median
   * over coefficients. ≈0 for one save, → 1 when an earlier, coarser save left its gaps.
   */
  primaryGap: number;
  blocks: number;
}

const POSITIONS = ZIGZAG.slice(1, 10);
const K = 30;
const MAX_BLOCKS = 6000;

export function analyzeDoubleCompression(
  luma: Float32Array,
  width: number,
  height: number,
  lumaTable: Uint16Array | null,
  /** Restrict to blocks inside this box (pixel units of `luma`), e.g. the portrait zone. */
  box?: { x: number; y: number; width: number; height: number },
): DoubleCompressionResult {
  const none = { available: false, score: 0, maxScore: 0, gapRate: 0, primaryGap: 0, blocks: 0 };
  if (!lumaTable) return none;
  const usable = POSITIONS.filter((p) => lumaTable[p]! >= 2);
  if (usable.length < 3) return none;
  const bw = Math.floor(width / 8);
  const bh = Math.floor(height / 8);
  const total = bw * bh;
  const step = box ? 1 : Math.max(1, Math.floor(total / MAX_BLOCKS));
  const hist = usable.map(() => new Float64Array(K + 2));
  const coef = new Float32Array(64);
  let blocks = 0;
  for (let b = 0; b < total; b += step) {
    const bx = (b % bw) * 8;
    const by = Math.floor(b / bw) * 8;
    if (box && (bx < box.x || by < box.y || bx + 8 > box.x + box.width || by + 8 > box.y + box.height)) continue;
    // Blocks that touch the clipping limits were rounded by the decoder's clamp, not only by the
    // quantiser: their coefficients are not multiples of Q2 and would fake periodicity.
    let clipped = false;
    for (let y = 0; y < 8 && !clipped; y++) {
      const row = (by + y) * width + bx;
      for (let x = 0; x < 8; x++) {
        const v = luma[row + x]!;
        if (v >= 252.5 || v <= 2.5) {
          clipped = true;
          break;
        }
      }
    }
    if (clipped) continue;
    dct8x8(luma, width, bx, by, coef);
    blocks++;
    for (let i = 0; i < usable.length; i++) {
      const p = usable[i]!;
      const k = Math.abs(Math.round(coef[p]! / lumaTable[p]!));
      if (k >= 1 && k <= K + 1) hist[i]![k]!++;
    }
  }
  // Per coefficient: chi-square-like departure of each bin from its neighbours' geometric mean,
  // normalised so that a smooth (Poisson-noisy) histogram scores about 1.
  let sum = 0;
  let maxScore = 0;
  let gaps = 0;
  let gapSlots = 0;
  let counted = 0;
  for (const h of hist) {
    let chi = 0;
    let n = 0;
    // Bins below 5 sit where sensor noise hands over to edge content; that kink is not periodic.
    for (let k = 5; k <= K; k++) {
      // Geometric mean: exact for the exponential (Laplacian) fall-off of a once-quantised histogram.
      const nb = Math.sqrt((h[k - 1]! + 0.5) * (h[k + 1]! + 0.5));
      if (nb < 20) continue;
      const d = h[k]! - nb;
      chi += (d * d) / (1.5 * nb);
      n++;
      gapSlots++;
      if (h[k]! < 0.3 * nb) gaps++;
    }
    if (n >= 3) {
      const s = Math.log(chi / n);
      sum += s;
      counted++;
      if (s > maxScore) maxScore = s;
    }
  }
  const gapsPerCoef: number[] = [];
  hist.forEach((h, i) => {
    const g = primaryGapOf(h, lumaTable[usable[i]!]!);
    if (g !== null) gapsPerCoef.push(g);
  });
  gapsPerCoef.sort((a, b) => a - b);
  const primaryGap = gapsPerCoef.length ? gapsPerCoef[gapsPerCoef.length >> 1]! : 0;
  if (counted === 0) return { ...none, available: true, primaryGap, blocks };
  return { available: true, score: sum / counted, maxScore, gapRate: gapSlots ? gaps / gapSlots : 0, primaryGap, blocks };
}

function primaryGapOf(h: Float64Array, q2: number): number | null {
  // Smoothed expectation per bin: mean over a ±2 window, which gaps lower but never empty.
  const smooth = new Float64Array(K + 2);
  for (let k = 1; k <= K; k++) {
    let a = 0;
    let n = 0;
    for (let j = Math.max(1, k - 2); j <= Math.min(K + 1, k + 2); j++, n++) a += h[j]!;
    smooth[k] = a / n;
  }
  let best = 0;
  let tested = false;
  for (let q1 = q2 + 1; q1 <= Math.min(3 * q2 + 2, 80); q1++) {
    let mass = 0;
    let expected = 0;
    let bins = 0;
    for (let k = 1; k <= K; k++) {
      const v = k * q2;
      const dist = Math.abs(v - Math.round(v / q1) * q1);
      if (dist <= q2 / 2 + 0.5) continue;
      mass += h[k]!;
      expected += smooth[k]!;
      bins++;
    }
    if (bins < 2 || expected < 30) continue;
    tested = true;
    best = Math.max(best, 1 - mass / expected);
  }
  return tested ? best : null;
}
