import type { DecodedImage } from '../image/decode.js';
import type { LumaCoefficients } from '../image/jpeg-coefficients.js';
import { ZIGZAG } from '../metadata/jpeg-structure.js';
import { fdctIslow, jpegLuma, quantizeIslow } from './islow-dct.js';

/**
 * Was this JPEG saved more than once? Every tampering path (decode, edit, save again) leaves a
 * second compression on top of the camera's; a genuine capture has one. Two views, both on the
 * exact quantised luma coefficients of the file:
 *
 * 1. Aligned double quantisation: after two saves on the same 8×8 grid, each AC coefficient's
 *    histogram carries the first table's lattice (periodic gaps or peaks); a single save of a
 *    camera signal gives a smooth histogram. Measured per frequency as the excess of the squared
 *    fourth difference of the log histogram over its Poisson noise (zero on any cubic, so the
 *    smooth curvature of a genuine histogram cancels).
 * 2. Recompression stability: re-encoding the decoded image with the file's own table
 *    (libjpeg's islow DCT and quantiser, bit-exact) changes fewer coefficients in an image that
 *    has already been through a decode/encode cycle (the same-table case, where 1 is blind).
 *
 * Not covered (measured, no separation on the training corpus): a crop between the saves moves
 * the first grid; a DC-lattice search over the 63 shifted grids and a high-frequency phase
 * asymmetry both stayed at noise level for second saves at quality ≥ 85. Nor did the
 * odd/even chroma-step parity that 4:2:0 upsampling should leave in a later 4:4:4 save.
 */
export interface CompressionHistory {
  available: boolean;
  /** Mean, top-5 mean and max excess roughness of the first AC histograms (≈0 single save). */
  histRoughMean: number;
  histRoughTop: number;
  histRoughMax: number;
  /** Share of analysed frequencies whose roughness exceeds 3. */
  histRoughShare: number;
  /** Share of coefficients that a same-table re-encode changes, and of blocks it leaves identical. */
  recompressChanged: number;
  recompressIdentical: number;
}

const UNAVAILABLE: CompressionHistory = {
  available: false,
  histRoughMean: 0,
  histRoughTop: 0,
  histRoughMax: 0,
  histRoughShare: 0,
  recompressChanged: 0,
  recompressIdentical: 0,
};

/** Zig-zag positions analysed for double quantisation: the populated low and middle frequencies. */
const HIST_FREQS = 35;
const HIST_MAX = 80;

/** The decoder's native-resolution crop (its offset in the stored image is a multiple of 8). */
type NativeCrop = DecodedImage['native'];

export function analyzeCompressionHistory(coef: LumaCoefficients | null, native: NativeCrop): CompressionHistory {
  if (!coef) return UNAVAILABLE;
  return { available: true, ...histogramRoughness(coef), ...recompressionStability(coef, native) };
}

function histogramRoughness(coef: LumaCoefficients): Pick<CompressionHistory, 'histRoughMean' | 'histRoughTop' | 'histRoughMax' | 'histRoughShare'> {
  const n = coef.blocksWide * coef.blocksHigh;
  const c = coef.coefficients;
  const rough: number[] = [];
  // All frequencies' histograms in one pass over the blocks (one per frequency read one value per
  // 128-byte block each time); the counts are whole numbers, identical in any order.
  const H = HIST_MAX + 2;
  const all = new Float64Array(HIST_FREQS * H);
  const zz = new Int32Array(HIST_FREQS);
  for (let k = 1; k <= HIST_FREQS; k++) zz[k - 1] = ZIGZAG[k]!;
  for (let b = 0; b < n; b++) {
    const base = b * 64;
    for (let k = 0; k < HIST_FREQS; k++) {
      const v = Math.abs(c[base + zz[k]!]!);
      if (v > 0 && v <= HIST_MAX + 1) all[k * H + v]!++;
    }
  }
  for (let k = 1; k <= HIST_FREQS; k++) {
    const h = all.subarray((k - 1) * H, k * H);
    // Fourth difference of the log histogram: zero on any cubic, so the smooth curvature of a
    // camera signal's histogram cancels while lattice patterns of period 2–4 do not.
    const terms: number[] = [];
    for (let v = 3; v <= HIST_MAX - 1; v++) {
      const a = h[v - 2]!;
      const b = h[v - 1]!;
      const m = h[v]!;
      const d = h[v + 1]!;
      const e = h[v + 2]!;
      if (a < 8 || b < 8 || d < 8 || e < 8 || m < 1) continue;
      const d4 = (-Math.log(a) + 4 * Math.log(b) - 6 * Math.log(m) + 4 * Math.log(d) - Math.log(e)) / 6;
      const variance = (1 / a + 16 / b + 36 / m + 16 / d + 1 / e) / 36;
      terms.push((d4 * d4) / variance);
    }
    // The median over bins: a double-quantisation lattice disturbs every bin, while document
    // content (repeated glyphs and lines give identical blocks) spikes only a few. Minus the
    // median of χ²(1), the value without any structure.
    if (terms.length >= 3) rough.push(median(terms) - 0.455);
  }
  if (rough.length === 0) return { histRoughMean: 0, histRoughTop: 0, histRoughMax: 0, histRoughShare: 0 };
  const top = [...rough].sort((a, b) => b - a).slice(0, 5);
  return {
    histRoughMean: rough.reduce((s, v) => s + v, 0) / rough.length,
    histRoughTop: top.reduce((s, v) => s + v, 0) / top.length,
    histRoughMax: Math.max(...rough),
    histRoughShare: rough.filter((v) => v > 3).length / rough.length,
  };
}

function recompressionStability(coef: LumaCoefficients, native: NativeCrop): Pick<CompressionHistory, 'recompressChanged' | 'recompressIdentical'> {
  const block = new Int32Array(64);
  const bx0 = native.left >> 3;
  const by0 = native.top >> 3;
  const bw = native.width >> 3;
  const bh = native.height >> 3;
  const q = coef.table;
  let changed = 0;
  let total = 0;
  let identical = 0;
  let blocks = 0;
  for (let by = 0; by < bh; by++) {
    const gy = by0 + by;
    if (gy >= coef.blocksHigh) break;
    for (let bx = 0; bx < bw; bx++) {
      const gx = bx0 + bx;
      if (gx >= coef.blocksWide) break;
      for (let y = 0; y < 8; y++) {
        let p = ((by * 8 + y) * native.width + bx * 8) * 3;
        for (let x = 0; x < 8; x++, p += 3) block[y * 8 + x] = jpegLuma(native.rgb[p]!, native.rgb[p + 1]!, native.rgb[p + 2]!) - 128;
      }
      fdctIslow(block);
      const base = (gy * coef.blocksWide + gx) * 64;
      let diff = 0;
      for (let i = 0; i < 64; i++) if (quantizeIslow(block[i]!, q[i]!) !== coef.coefficients[base + i]) diff++;
      changed += diff;
      total += 64;
      blocks++;
      if (diff === 0) identical++;
    }
  }
  return { recompressChanged: total ? changed / total : 0, recompressIdentical: blocks ? identical / blocks : 0 };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}
