import type { RgbImage } from '../image/decode.js';
import { powerSpectrum2d } from './fft.js';

/**
 * Frequency-domain recapture cues on native-resolution patches. A photographed screen shows
 * its pixel grid and moiré as isolated peaks far above the smooth 1/f fall-off of a natural
 * image; a photographed print shows its halftone screen the same way, mostly in the chroma
 * channel (cyan, magenta and yellow dots sit at different angles). We measure how far the
 * spectrum rises above its own radial average, in luma and in a red-minus-blue chroma channel.
 */
export interface SpectralFeatures {
  lumaPeakMax: number;
  lumaPeakTop: number;
  lumaPeakCount: number;
  chromaPeakMax: number;
  chromaPeakTop: number;
  chromaPeakCount: number;
  highFreqShare: number;
}

const N = 256;
const PEAK = 2.5;
/** Residuals averaged for the "top" statistic. */
const TOP = 20;

const hann = new Float64Array(N);
for (let i = 0; i < N; i++) hann[i] = 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / (N - 1));

// Radius of every frequency bin (DC at index 0, unshifted), computed once for N.
const RADIUS = new Int32Array(N * N);
const BINS = Math.ceil(N * Math.SQRT1_2) + 1;
const BIN_COUNT = new Float64Array(BINS);
for (let v = 0; v < N; v++) {
  const fv = v < N / 2 ? v : v - N;
  for (let u = 0; u < N; u++) {
    const fu = u < N / 2 ? u : u - N;
    const r = Math.round(Math.sqrt(fu * fu + fv * fv));
    RADIUS[v * N + u] = r;
    BIN_COUNT[r] = BIN_COUNT[r]! + 1;
  }
}
const R_LOW = Math.round(0.08 * N);
const R_HIGH = Math.round(0.5 * N);

function patchStats(values: Float64Array): { max: number; top: number; count: number; hf: number } {
  let mean = 0;
  for (const v of values) mean += v;
  mean /= values.length;
  const w = new Float64Array(N * N);
  for (let y = 0; y < N; y++) for (let x = 0; x < N; x++) w[y * N + x] = (values[y * N + x]! - mean) * hann[x]! * hann[y]!;
  const p = powerSpectrum2d(w, N);
  const sum = new Float64Array(BINS);
  const logp = new Float64Array(N * N);
  let hi = 0;
  let all = 0;
  for (let i = 0; i < N * N; i++) {
    const l = Math.log(p[i]! + 1e-6);
    logp[i] = l;
    const r = RADIUS[i]!;
    sum[r] = sum[r]! + l;
    if (r > 0.02 * N) {
      all += p[i]!;
      if (r > 0.3 * N) hi += p[i]!;
    }
  }
  for (let r = 0; r < BINS; r++) sum[r] = sum[r]! / Math.max(1, BIN_COUNT[r]!);
  // The 20 largest residuals above 1.5, kept sorted (descending) as they arrive: the same values
  // in the same order as sorting them all, without sorting thousands.
  const top = new Float64Array(TOP);
  let kept = 0;
  let max = -Infinity;
  let count = 0;
  for (let i = 0; i < N * N; i++) {
    const r = RADIUS[i]!;
    if (r < R_LOW || r > R_HIGH) continue;
    const res = logp[i]! - sum[r]!;
    if (res > max) max = res;
    if (res > PEAK) count++;
    if (res > 1.5 && (kept < TOP || res > top[TOP - 1]!)) {
      let k = kept < TOP ? kept++ : TOP - 1;
      while (k > 0 && top[k - 1]! < res) {
        top[k] = top[k - 1]!;
        k--;
      }
      top[k] = res;
    }
  }
  let topSum = 0;
  for (let k = 0; k < TOP; k++) topSum += top[k]!;
  return { max, top: topSum / TOP, count: count / 2, hf: all > 0 ? hi / all : 0 };
}

export function spectralFeatures(img: RgbImage): SpectralFeatures {
  const n = Math.min(N, img.width, img.height);
  const out: SpectralFeatures = {
    lumaPeakMax: 0,
    lumaPeakTop: 0,
    lumaPeakCount: 0,
    chromaPeakMax: 0,
    chromaPeakTop: 0,
    chromaPeakCount: 0,
    highFreqShare: 0,
  };
  if (n < N) return out;
  const centres = [0.5, 0.3, 0.7].map((f) => Math.round(f * img.width - N / 2));
  const y0 = Math.round(img.height / 2 - N / 2);
  const lumaPatch = new Float64Array(N * N);
  const chromaPatch = new Float64Array(N * N);
  let patches = 0;
  for (const cx of centres) {
    const x0 = Math.max(0, Math.min(img.width - N, cx));
    for (let y = 0; y < N; y++) {
      for (let x = 0; x < N; x++) {
        const j = ((y0 + y) * img.width + x0 + x) * 3;
        const r = img.rgb[j]!;
        const g = img.rgb[j + 1]!;
        const b = img.rgb[j + 2]!;
        lumaPatch[y * N + x] = 0.299 * r + 0.587 * g + 0.114 * b;
        chromaPatch[y * N + x] = r - b;
      }
    }
    const l = patchStats(lumaPatch);
    const c = patchStats(chromaPatch);
    out.lumaPeakMax = Math.max(out.lumaPeakMax, l.max);
    out.lumaPeakTop += l.top;
    out.lumaPeakCount = Math.max(out.lumaPeakCount, l.count);
    out.chromaPeakMax = Math.max(out.chromaPeakMax, c.max);
    out.chromaPeakTop += c.top;
    out.chromaPeakCount = Math.max(out.chromaPeakCount, c.count);
    out.highFreqShare += l.hf;
    patches++;
  }
  out.lumaPeakTop /= patches;
  out.chromaPeakTop /= patches;
  out.highFreqShare /= patches;
  return out;
}
