import type { LumaCoefficients } from '../image/jpeg-coefficients.js';
import type { BlockMap } from './block-maps.js';
import { dqPeakTiles } from './tile-maps.js';

/**
 * Region scan statistics (feature set v8, settings v9): is there ONE rectangle of the image whose
 * local traces differ, as a whole, from the rest of the same image?
 *
 * Why: the tile maps of feature sets v3/v4 (tile-maps.ts) flag single tiles far from the image's
 * median (z > 2.5–3) and measure the largest cluster of them. A pasted portrait is a large region
 * (a tenth to a third of the frame per side) whose every tile is only a little off — a blurred,
 * resampled donor is a bit smoother, a bit less noisy and settles a bit differently under a
 * re-save — so few of its tiles pass a per-tile outlier test, while the mean over its 30–200
 * tiles differs clearly. A scan statistic asks the region question directly: for every window of
 * a few sizes, the difference between the mean inside and outside, in units of its standard
 * error, and the maximum over windows (the classic scan statistic of spatial epidemiology, here
 * on forensic maps; cf. Bianchi & Piva's block-grained localisation, IEEE TIFS 2012, which sums
 * per-block evidence the same way).
 *
 * Channels, per 32-px tile of the native crop, each residualised against the tile's brightness and
 * texture (least squares on 1, b, b², g, g²; content explains most of a tile's level, an edit does
 * not) and standardised with the image's own median and MAD:
 *  - `noise`: log sensor-noise level (median |Laplacian residual| of the 16-px blocks);
 *  - `ela`: log error level per texture after one re-save at q90;
 *  - `sharp`: share of fine detail, Σ|1-px differences| / Σ|2-px differences| (about 0.5 where the
 *    region was blurred or upsampled, near 1 for sensor noise);
 *  - `dq`: double-quantisation peak-ness of the block's exact coefficients in the file's own
 *    histograms (as tile-maps.ts' `dq` channel: low = out of step with the rest), JPEG only;
 *  - `dql`: the aligned double-compression likelihood map (dq-likelihood.ts; positive = looks
 *    compressed once), only where that analysis selected frequencies.
 * Per channel: the largest positive and negative window statistic (t) and the effect size (mean
 * difference in robust units) at the larger |t|; across channels: the largest Σ t² over windows
 * (one region that differs on several channels at once is a splice's signature; a natural region
 * such as a sky usually differs on one) and how many channels exceed |t| > 4 in that window. The
 * window is the evidence box.
 */
export const SCAN_TILE = 32;
export const SCAN_CHANNELS = ['noise', 'ela', 'sharp', 'dq', 'dql'] as const;
export type ScanChannel = (typeof SCAN_CHANNELS)[number];

export const REGION_SCAN_FEATURE_NAMES = [
  ...SCAN_CHANNELS.flatMap((c) => [`rs_${c}_tmax`, `rs_${c}_tmin`, `rs_${c}_effect`] as const),
  'rs_comb_q',
  'rs_comb_channels',
  'rs_comb_lead',
] as const;

export interface RegionScan {
  features: number[];
  /** The window with the largest combined statistic, in the native crop's frame (null if none). */
  box: { x: number; y: number; width: number; height: number; q: number; t: Partial<Record<ScanChannel, number>> } | null;
}

/** Window sides as fractions of the map (a portrait or photo is 10–35 % of the frame per side). */
const WIDTHS = [0.1, 0.17, 0.25];
const HEIGHTS = [0.12, 0.2, 0.3];
/** Standardised values are clipped: one blown tile must not make a region. */
const CLIP = 6;
const MIN_TILES = 24;

function median(xs: number[]): number {
  if (!xs.length) return 0;
  const s = Float64Array.from(xs).sort();
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** Solves the normal equations of a small least-squares fit (Gaussian elimination, ridge 1e-6). */
function leastSquares(rows: number[][], y: number[]): number[] {
  const p = rows[0]?.length ?? 0;
  const a = Array.from({ length: p }, () => new Float64Array(p + 1));
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i]!;
    for (let j = 0; j < p; j++) {
      for (let k = 0; k < p; k++) a[j]![k]! += r[j]! * r[k]!;
      a[j]![p]! += r[j]! * y[i]!;
    }
  }
  for (let j = 0; j < p; j++) a[j]![j]! += 1e-6;
  for (let j = 0; j < p; j++) {
    let piv = j;
    for (let k = j + 1; k < p; k++) if (Math.abs(a[k]![j]!) > Math.abs(a[piv]![j]!)) piv = k;
    [a[j], a[piv]] = [a[piv]!, a[j]!];
    const d = a[j]![j]!;
    if (Math.abs(d) < 1e-12) continue;
    for (let k = j; k <= p; k++) a[j]![k]! /= d;
    for (let i = 0; i < p; i++) {
      if (i === j) continue;
      const f = a[i]![j]!;
      if (f) for (let k = j; k <= p; k++) a[i]![k]! -= f * a[j]![k]!;
    }
  }
  return a.map((r) => (Number.isFinite(r[p]!) ? r[p]! : 0));
}

/**
 * The value minus what brightness and texture predict, as a robust z over usable tiles (NaN where
 * the tile is not usable or the value missing).
 */
function residualZ(values: Float64Array, usable: Uint8Array, bright: Float64Array, texture: Float64Array, adjust: boolean): Float64Array {
  const idx: number[] = [];
  for (let i = 0; i < values.length; i++) if (usable[i] && Number.isFinite(values[i]!)) idx.push(i);
  const out = new Float64Array(values.length).fill(Number.NaN);
  if (idx.length < MIN_TILES) return out;
  const res = new Float64Array(values.length);
  if (adjust) {
    const design = idx.map((i) => {
      const b = bright[i]! / 255, g = texture[i]!;
      return [1, b, b * b, g, g * g];
    });
    const beta = leastSquares(design, idx.map((i) => values[i]!));
    idx.forEach((i, k) => (res[i] = values[i]! - design[k]!.reduce((a, v, j) => a + v * beta[j]!, 0)));
  } else for (const i of idx) res[i] = values[i]!;
  const m = median(idx.map((i) => res[i]!));
  const mad = median(idx.map((i) => Math.abs(res[i]! - m)));
  const s = Math.max(1e-3, 1.4826 * mad);
  for (const i of idx) out[i] = Math.max(-CLIP, Math.min(CLIP, (res[i]! - m) / s));
  return out;
}

interface Integral {
  s: Float64Array;
  n: Float64Array;
  total: number;
  count: number;
  sd: number;
}

function integral(z: Float64Array, cols: number, rows: number): Integral {
  const W = cols + 1;
  const s = new Float64Array(W * (rows + 1));
  const n = new Float64Array(W * (rows + 1));
  let total = 0, count = 0, sq = 0;
  for (let r = 0; r < rows; r++) {
    let rs = 0, rn = 0;
    for (let c = 0; c < cols; c++) {
      const v = z[r * cols + c]!;
      if (Number.isFinite(v)) {
        rs += v;
        rn++;
        total += v;
        sq += v * v;
        count++;
      }
      s[(r + 1) * W + c + 1] = s[r * W + c + 1]! + rs;
      n[(r + 1) * W + c + 1] = n[r * W + c + 1]! + rn;
    }
  }
  const mean = count ? total / count : 0;
  const sd = count > 1 ? Math.sqrt(Math.max(1e-6, sq / count - mean * mean)) : 1;
  return { s, n, total, count, sd };
}

/** Mean difference inside − outside a window, its t and effect size (null when too few tiles). */
function windowStat(I: Integral, cols: number, c0: number, r0: number, w: number, h: number): { t: number; d: number } | null {
  const W = cols + 1;
  const at = (a: Float64Array, r: number, c: number) => a[r * W + c]!;
  const box = (a: Float64Array) => at(a, r0 + h, c0 + w) - at(a, r0, c0 + w) - at(a, r0 + h, c0) + at(a, r0, c0);
  const nIn = box(I.n);
  const nOut = I.count - nIn;
  if (nIn < 4 || nOut < 4) return null;
  const sIn = box(I.s);
  const d = sIn / nIn - (I.total - sIn) / nOut;
  return { t: d / (I.sd * Math.sqrt(1 / nIn + 1 / nOut)), d: d / I.sd };
}

/**
 * Sum, |first| and |second| differences (right and down, where they stay inside the image) of one
 * SCAN_TILE × SCAN_TILE tile, into out[0..2]. The same terms in the same order as the per-pixel
 * loop it was lifted from (pinned in region-scan.test.ts); only the bounds tests left the loop.
 */
export function tileTexture(luma: Float32Array, width: number, height: number, x0: number, y0: number, out: Float64Array): void {
  let sum = 0, d1 = 0, d2 = 0;
  const x1 = x0 + SCAN_TILE;
  // Right-hand differences exist for x + 2 < width.
  const xd = Math.max(x0, Math.min(x1, width - 2));
  const w2 = 2 * width;
  for (let y = y0; y < y0 + SCAN_TILE; y++) {
    const row = y * width;
    let x = x0, i = row + x0;
    if (y + 2 < height) {
      for (; x < xd; x++, i++) {
        const v = luma[i]!;
        sum += v;
        d1 += Math.abs(luma[i + 1]! - v);
        d2 += Math.abs(luma[i + 2]! - v);
        d1 += Math.abs(luma[i + width]! - v);
        d2 += Math.abs(luma[i + w2]! - v);
      }
      for (; x < x1; x++, i++) {
        const v = luma[i]!;
        sum += v;
        d1 += Math.abs(luma[i + width]! - v);
        d2 += Math.abs(luma[i + w2]! - v);
      }
    } else {
      for (; x < xd; x++, i++) {
        const v = luma[i]!;
        sum += v;
        d1 += Math.abs(luma[i + 1]! - v);
        d2 += Math.abs(luma[i + 2]! - v);
      }
      for (; x < x1; x++, i++) sum += luma[i]!;
    }
  }
  out[0] = sum;
  out[1] = d1;
  out[2] = d2;
}

/**
 * One pass of the window search (every size, every position, windows overlapping `avoid`
 * skipped): the largest combined q = Σ t² over the live channels, its count of |t| > 4 and its
 * window (w = 0 when none beat 0). The first pass (avoid null) also raises tmax, tmin, best and
 * effect per channel. A top-level function over plain locals: the hot path (about 20 000
 * windows × 5 channels per pass), same arithmetic in the same order as the closure it replaced.
 */
function scanWindows(
  integrals: (Integral | null)[],
  live: number[],
  cols: number,
  rows: number,
  sizes: [number, number][],
  avoid: { c0: number; r0: number; w: number; h: number } | null,
  tmax: number[],
  tmin: number[],
  best: number[],
  effect: number[],
): { q: number; count: number; c0: number; r0: number; w: number; h: number } {
  const W = cols + 1;
  const L = live.length;
  const ns: Float64Array[] = [], ss: Float64Array[] = [];
  const counts = new Float64Array(L), totals = new Float64Array(L), sds = new Float64Array(L);
  for (let j = 0; j < L; j++) {
    const I = integrals[live[j]!]!;
    ns.push(I.n);
    ss.push(I.s);
    counts[j] = I.count;
    totals[j] = I.total;
    sds[j] = I.sd;
  }
  const first = avoid === null;
  const ac0 = avoid?.c0 ?? 0, ar0 = avoid?.r0 ?? 0, aw = avoid?.w ?? 0, ah = avoid?.h ?? 0;
  let bestQ = 0, bestCount = 0, bc0 = 0, br0 = 0, bw = 0, bh = 0;
  for (const [w, h] of sizes) {
    for (let r0 = 0; r0 + h <= rows; r0++) {
      for (let c0 = 0; c0 + w <= cols; c0++) {
        if (!first && c0 < ac0 + aw && ac0 < c0 + w && r0 < ar0 + ah && ar0 < r0 + h) continue;
        const a = (r0 + h) * W + c0 + w, b = r0 * W + c0 + w, c = (r0 + h) * W + c0, d0 = r0 * W + c0;
        let q = 0, count = 0;
        for (let j = 0; j < L; j++) {
          const n = ns[j]!;
          const nIn = n[a]! - n[b]! - n[c]! + n[d0]!;
          const nOut = counts[j]! - nIn;
          if (nIn < 4 || nOut < 4) continue;
          const s = ss[j]!;
          const sIn = s[a]! - s[b]! - s[c]! + s[d0]!;
          const d = sIn / nIn - (totals[j]! - sIn) / nOut;
          const sd = sds[j]!;
          const t = d / (sd * Math.sqrt(1 / nIn + 1 / nOut));
          if (first) {
            const k = live[j]!;
            if (t > tmax[k]!) tmax[k] = t;
            if (-t > tmin[k]!) tmin[k] = -t;
            if (Math.abs(t) > best[k]!) (best[k] = Math.abs(t)), (effect[k] = Math.abs(d / sd));
          }
          q += t * t;
          if (Math.abs(t) > 4) count++;
        }
        if (q > bestQ) {
          bestQ = q;
          bestCount = count;
          bc0 = c0;
          br0 = r0;
          bw = w;
          bh = h;
        }
      }
    }
  }
  return { q: bestQ, count: bestCount, c0: bc0, r0: br0, w: bw, h: bh };
}

export interface RegionScanInput {
  luma: Float32Array;
  width: number;
  height: number;
  /** 16-px maps of features.ts (noise median |residual|, ELA per texture, gradient energy). */
  noise: BlockMap;
  elaPerTexture: BlockMap;
  gradient: BlockMap;
  coefficients: LumaCoefficients | null;
  /** The native crop's origin in the stored frame (multiples of 8). */
  origin: { left: number; top: number };
  /** dq-likelihood.ts' 32-px tile map (positive = looks compressed once), when it selected frequencies. */
  dql: { tiles: Float64Array; cols: number; rows: number } | null;
}

export function regionScan(input: RegionScanInput): RegionScan {
  const { luma, width, height, noise, elaPerTexture, gradient } = input;
  const cols = Math.floor(width / SCAN_TILE);
  const rows = Math.floor(height / SCAN_TILE);
  const n = cols * rows;
  const empty: RegionScan = { features: REGION_SCAN_FEATURE_NAMES.map(() => 0), box: null };
  if (cols < 6 || rows < 6) return empty;
  const per = SCAN_TILE / noise.size; // 16-px blocks per tile side
  const bright = new Float64Array(n), texture = new Float64Array(n), usable = new Uint8Array(n);
  const ch: Record<ScanChannel, Float64Array> = {
    noise: new Float64Array(n).fill(Number.NaN),
    ela: new Float64Array(n).fill(Number.NaN),
    sharp: new Float64Array(n).fill(Number.NaN),
    dq: new Float64Array(n).fill(Number.NaN),
    dql: new Float64Array(n).fill(Number.NaN),
  };
  const acc = new Float64Array(3);
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const t = r * cols + c;
      let ns = 0, es = 0, gs = 0, m = 0;
      for (let y = 0; y < per; y++) for (let x = 0; x < per; x++) {
        const k = (r * per + y) * noise.cols + c * per + x;
        if (k >= noise.values.length) continue;
        ns += noise.values[k]!;
        es += elaPerTexture.values[k]!;
        gs += gradient.values[k]!;
        m++;
      }
      tileTexture(luma, width, height, c * SCAN_TILE, r * SCAN_TILE, acc);
      const sum = acc[0]!, d1 = acc[1]!, d2 = acc[2]!;
      bright[t] = sum / (SCAN_TILE * SCAN_TILE);
      texture[t] = Math.log1p(m ? gs / m : 0);
      // Clipped (blown-out or black) or featureless tiles carry no noise or compression trace.
      usable[t] = bright[t]! > 12 && bright[t]! < 243 && d2 > 0 ? 1 : 0;
      if (m) {
        ch.noise[t] = Math.log(ns / m + 0.25);
        ch.ela[t] = Math.log(es / m + 0.05);
      }
      if (d2 > 0) ch.sharp[t] = d1 / d2;
    }
  }

  if (input.coefficients) dqPeakTiles(input.coefficients, input.origin, SCAN_TILE, cols, rows, usable, 6, ch.dq);
  if (input.dql && input.dql.cols > 0) {
    // Same 32-px grid from the same origin; the likelihood map may be a tile shorter at the edges.
    for (let r = 0; r < Math.min(rows, input.dql.rows); r++) for (let c = 0; c < Math.min(cols, input.dql.cols); c++) ch.dql[r * cols + c] = input.dql.tiles[r * input.dql.cols + c]!;
  }

  const z: Record<ScanChannel, Float64Array> = {
    noise: residualZ(ch.noise, usable, bright, texture, true),
    ela: residualZ(ch.ela, usable, bright, texture, true),
    sharp: residualZ(ch.sharp, usable, bright, texture, true),
    dq: residualZ(ch.dq, usable, bright, texture, false),
    dql: residualZ(ch.dql, usable, bright, texture, false),
  };
  const integrals = SCAN_CHANNELS.map((k) => {
    let finite = 0;
    for (const v of z[k]) if (Number.isFinite(v)) finite++;
    return finite >= MIN_TILES ? integral(z[k], cols, rows) : null;
  });

  const tmax = SCAN_CHANNELS.map(() => 0), tmin = SCAN_CHANNELS.map(() => 0), effect = SCAN_CHANNELS.map(() => 0), best = SCAN_CHANNELS.map(() => 0);
  const sizes = new Set<string>();
  for (const fw of WIDTHS) for (const fh of HEIGHTS) sizes.add(`${Math.max(2, Math.round(cols * fw))}x${Math.max(2, Math.round(rows * fh))}`);
  // Pass 1: every window; pass 2: the best combined window among those not overlapping pass 1's.
  // The inner loop reads the integral images directly (no per-window objects: this is the hot path,
  // about 20 000 windows × 5 channels per image); windowStat gives the same numbers for the evidence.
  const live = integrals.map((I, k) => (I ? k : -1)).filter((k) => k >= 0);
  const sizeList = [...sizes].map((size) => size.split('x').map(Number) as [number, number]);
  const scan = (avoid: { c0: number; r0: number; w: number; h: number } | null) => {
    const found = scanWindows(integrals, live, cols, rows, sizeList, avoid, tmax, tmin, best, effect);
    const bestQ = found.q, bestCount = found.count;
    const at: { c0: number; r0: number; w: number; h: number; t: Partial<Record<ScanChannel, number>> } | null = found.w ? { c0: found.c0, r0: found.r0, w: found.w, h: found.h, t: {} } : null;
    if (at) {
      for (const k of live) {
        const st = windowStat(integrals[k]!, cols, at.c0, at.r0, at.w, at.h);
        if (st) at.t[SCAN_CHANNELS[k]!] = Math.round(st.t * 10) / 10;
      }
    }
    return { q: bestQ, count: bestCount, at };
  };
  const first = scan(null);
  const second = first.at ? scan(first.at) : { q: 0 };
  const bestQ = first.q, bestCount = first.count;
  const bestBox: RegionScan['box'] = first.at
    ? { x: first.at.c0 * SCAN_TILE, y: first.at.r0 * SCAN_TILE, width: first.at.w * SCAN_TILE, height: first.at.h * SCAN_TILE, q: Math.round(first.q), t: first.at.t }
    : null;
  const features = [...SCAN_CHANNELS.flatMap((_, k) => [tmax[k]!, tmin[k]!, effect[k]!]), Math.log1p(bestQ), bestCount, Math.log1p(bestQ) - Math.log1p(second.q)].map((v) => (Number.isFinite(v) ? v : 0));
  if (features.length !== REGION_SCAN_FEATURE_NAMES.length) throw new Error(`region scan features ${features.length} ≠ ${REGION_SCAN_FEATURE_NAMES.length}`);
  return { features, box: bestBox };
}
