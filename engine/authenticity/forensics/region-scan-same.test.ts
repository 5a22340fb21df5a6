import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { randomForensicsInputs, realForensicsInputs, REAL_SAMPLE, seededRandom } from '../../../tools/authenticity/testing/forensics-inputs.js';
import { REGION_SCAN_FEATURE_NAMES, regionScan, SCAN_CHANNELS, SCAN_TILE, tileTexture, type RegionScan, type RegionScanInput, type ScanChannel } from './region-scan.js';
import { dqPeakTiles } from './tile-maps.js';

/*
 * regionScan (feature set v8, authenticity settings v9) was made faster without changing a
 * number: the per-tile pixel sums moved to tileTexture (bounds tests out of the loop) and the
 * window search to a top-level function over plain locals (scanWindows). Pinned, value for value
 * (Object.is), to the code settings v9 shipped with, kept here verbatim as the reference.
 */

// ---- reference: region-scan.ts at 760f5a3 (verbatim from WIDTHS to the end of regionScan) ----
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

function oldRegionScan(input: RegionScanInput): RegionScan {
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
      let sum = 0, d1 = 0, d2 = 0;
      const y0 = r * SCAN_TILE, x0 = c * SCAN_TILE;
      for (let y = y0; y < y0 + SCAN_TILE; y++) {
        const row = y * width;
        for (let x = x0; x < x0 + SCAN_TILE; x++) {
          const i = row + x;
          const v = luma[i]!;
          sum += v;
          if (x + 2 < width) {
            d1 += Math.abs(luma[i + 1]! - v);
            d2 += Math.abs(luma[i + 2]! - v);
          }
          if (y + 2 < height) {
            d1 += Math.abs(luma[i + width]! - v);
            d2 += Math.abs(luma[i + 2 * width]! - v);
          }
        }
      }
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
  const W = cols + 1;
  const live = integrals.map((I, k) => (I ? k : -1)).filter((k) => k >= 0);
  const scan = (avoid: { c0: number; r0: number; w: number; h: number } | null) => {
    let bestQ = 0, bestCount = 0;
    let at: { c0: number; r0: number; w: number; h: number; t: Partial<Record<ScanChannel, number>> } | null = null;
    for (const size of sizes) {
      const [w, h] = size.split('x').map(Number) as [number, number];
      for (let r0 = 0; r0 + h <= rows; r0++) {
        for (let c0 = 0; c0 + w <= cols; c0++) {
          if (avoid && c0 < avoid.c0 + avoid.w && avoid.c0 < c0 + w && r0 < avoid.r0 + avoid.h && avoid.r0 < r0 + h) continue;
          const a = (r0 + h) * W + c0 + w, b = r0 * W + c0 + w, c = (r0 + h) * W + c0, d0 = r0 * W + c0;
          let q = 0, count = 0;
          for (const k of live) {
            const I = integrals[k]!;
            const nIn = I.n[a]! - I.n[b]! - I.n[c]! + I.n[d0]!;
            const nOut = I.count - nIn;
            if (nIn < 4 || nOut < 4) continue;
            const sIn = I.s[a]! - I.s[b]! - I.s[c]! + I.s[d0]!;
            const d = sIn / nIn - (I.total - sIn) / nOut;
            const t = d / (I.sd * Math.sqrt(1 / nIn + 1 / nOut));
            if (!avoid) {
              if (t > tmax[k]!) tmax[k] = t;
              if (-t > tmin[k]!) tmin[k] = -t;
              if (Math.abs(t) > best[k]!) (best[k] = Math.abs(t)), (effect[k] = Math.abs(d / I.sd));
            }
            q += t * t;
            if (Math.abs(t) > 4) count++;
          }
          if (q > bestQ) {
            bestQ = q;
            bestCount = count;
            at = { c0, r0, w, h, t: {} };
          }
        }
      }
    }
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
// ---- end of reference ----

describe('regionScan: same values as the reference', () => {
  it('on 200 seeded random images, with and without coefficients and a likelihood map', () => {
    const r = seededRandom(2812);
    let scanned = 0;
    for (let k = 0; k < 200; k++) {
      const s = randomForensicsInputs(r);
      const cols = Math.floor(s.width / SCAN_TILE), rows = Math.floor(s.height / SCAN_TILE);
      const dql = r() < 0.5 ? { cols, rows: Math.max(0, rows - Math.floor(r() * 2)), tiles: new Float64Array(cols * rows).map(() => (r() < 0.1 ? Number.NaN : (r() - 0.5) * 4)) } : null;
      const input: RegionScanInput = { luma: s.luma, width: s.width, height: s.height, noise: s.noise, elaPerTexture: s.ela, gradient: s.grad, coefficients: s.coef, origin: s.origin, dql };
      const want = oldRegionScan(input);
      if (want.box) scanned++;
      expect(regionScan(input), `case ${k} ${s.width}×${s.height}`).toStrictEqual(want);
    }
    // The comparison must reach the window search, not only the early exits.
    expect(scanned).toBeGreaterThan(50);
  });

  it('tileTexture equals the per-pixel sums on every tile position, borders included', () => {
    const r = seededRandom(78);
    const out = new Float64Array(3);
    for (let k = 0; k < 60; k++) {
      const s = randomForensicsInputs(r);
      for (let y0 = 0; y0 + SCAN_TILE <= s.height; y0 += SCAN_TILE) for (let x0 = 0; x0 + SCAN_TILE <= s.width; x0 += SCAN_TILE) {
        let sum = 0, d1 = 0, d2 = 0;
        for (let y = y0; y < y0 + SCAN_TILE; y++) for (let x = x0; x < x0 + SCAN_TILE; x++) {
          const i = y * s.width + x, v = s.luma[i]!;
          sum += v;
          if (x + 2 < s.width) (d1 += Math.abs(s.luma[i + 1]! - v)), (d2 += Math.abs(s.luma[i + 2]! - v));
          if (y + 2 < s.height) (d1 += Math.abs(s.luma[i + s.width]! - v)), (d2 += Math.abs(s.luma[i + 2 * s.width]! - v));
        }
        tileTexture(s.luma, s.width, s.height, x0, y0, out);
        expect([...out], `case ${k} at ${x0},${y0}`).toStrictEqual([sum, d1, d2]);
      }
    }
  });

  it('on real document photographs', async () => {
    let compared = 0;
    for (const f of REAL_SAMPLE) {
      const s = await realForensicsInputs(readFileSync(f));
      if (!s) continue;
      compared++;
      const input: RegionScanInput = { luma: s.luma, width: s.width, height: s.height, noise: s.noise, elaPerTexture: s.ela, gradient: s.grad, coefficients: s.coef, origin: s.origin, dql: s.dql };
      expect(regionScan(input), f).toStrictEqual(oldRegionScan(input));
    }
    expect(compared).toBeGreaterThanOrEqual(6);
  }, 120_000);
});
