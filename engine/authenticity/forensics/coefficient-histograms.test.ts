import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../../tools/corpus/random.js';
import { realJpegs } from '../../../tools/authenticity/testing/real-documents.js';
import { readAllCoefficients, type LumaCoefficients } from '../image/jpeg-coefficients.js';
import { ZIGZAG } from '../metadata/jpeg-structure.js';
import { analyzeCompressionHistory, type CompressionHistory } from './compression-history.js';
import { zigzagHistograms } from './dq-likelihood.js';

/*
 * The coefficient histograms of compression-history.ts (feature set v2 on) and dq-likelihood.ts
 * (v4 on) are now built in one pass over the blocks instead of one pass per frequency. Released
 * settings versions must compute the same values: the new code is pinned, value for value
 * (Object.is), to the code at 760f5a3, kept here verbatim as the reference.
 */

// ---- reference: compression-history.ts at 760f5a3 (histogramRoughness and its median, verbatim) ----
const HIST_FREQS = 35;
const HIST_MAX = 80;

function oldHistogramRoughness(coef: LumaCoefficients): Pick<CompressionHistory, 'histRoughMean' | 'histRoughTop' | 'histRoughMax' | 'histRoughShare'> {
  const n = coef.blocksWide * coef.blocksHigh;
  const c = coef.coefficients;
  const rough: number[] = [];
  const h = new Float64Array(HIST_MAX + 2);
  for (let k = 1; k <= HIST_FREQS; k++) {
    const pos = ZIGZAG[k]!;
    h.fill(0);
    for (let b = 0; b < n; b++) {
      const v = Math.abs(c[b * 64 + pos]!);
      if (v > 0 && v <= HIST_MAX + 1) h[v] = h[v]! + 1;
    }
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

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

// ---- reference: the per-frequency histogram loop of dqLikelihood at 760f5a3 (verbatim, K = 20, R = 48) ----
const K = 20;
const R = 48;
function oldDqHistograms(coef: LumaCoefficients, bx0: number, by0: number, bw: number, bh: number): { h: Float64Array; n: number; sum: number }[] {
  const c = coef.coefficients;
  const block = (x: number, y: number) => ((by0 + y) * coef.blocksWide + bx0 + x) * 64;
  const out: { h: Float64Array; n: number; sum: number }[] = [];
  const h = new Float64Array(R + 1);
  for (let k = 1; k <= K; k++) {
    const pos = ZIGZAG[k]!;
    h.fill(0);
    let n = 0, sum = 0;
    for (let y = 0; y < bh; y++) for (let x = 0; x < bw; x++) {
      const v = Math.abs(c[block(x, y) + pos]!);
      if (v >= 1 && v <= R) {
        h[v] = h[v]! + 1;
        n++;
        sum += v;
      }
    }
    out.push({ h: Float64Array.from(h), n, sum });
  }
  return out;
}
// ---- end of reference ----

/** A seeded generator (mulberry32, tools/corpus/random.ts), so a failure names an input that can be rebuilt. */
const rng = (seed: number): (() => number) => mulberry32(seed).next;

/** Coefficients like a camera's: Laplacian per frequency, some on a double-quantisation lattice, some out of range. */
function randomCoefficients(r: () => number): LumaCoefficients {
  const blocksWide = 8 + Math.floor(r() * 120), blocksHigh = 8 + Math.floor(r() * 90);
  const q = new Int16Array(blocksWide * blocksHigh * 64);
  const scale = Array.from({ length: 64 }, () => 0.5 + r() * 30);
  const lattice = Array.from({ length: 64 }, () => (r() < 0.3 ? 2 + Math.floor(r() * 3) : 1));
  for (let b = 0; b < blocksWide * blocksHigh; b++) for (let i = 0; i < 64; i++) {
    const u = r() - 0.5;
    const v = Math.round((-Math.sign(u) * scale[i]! * Math.log(1 - 2 * Math.abs(u))) / lattice[i]!) * lattice[i]!;
    q[b * 64 + i] = Math.max(-2000, Math.min(2000, v));
  }
  return { blocksWide, blocksHigh, coefficients: q, table: new Uint16Array(64).map(() => 1 + Math.floor(r() * 12)) };
}

const histFields = (h: CompressionHistory) => ({ histRoughMean: h.histRoughMean, histRoughTop: h.histRoughTop, histRoughMax: h.histRoughMax, histRoughShare: h.histRoughShare });
/** The recompression half reads pixels; an 8×8 grey crop keeps it cheap (its code did not change). */
const crop = { left: 0, top: 0, width: 8, height: 8, rgb: new Uint8Array(8 * 8 * 3).fill(128) };

function checkBoth(coef: LumaCoefficients, label: string, r: () => number) {
  expect(histFields(analyzeCompressionHistory(coef, crop)), `histogram roughness ${label}`).toStrictEqual(oldHistogramRoughness(coef));
  for (let t = 0; t < 3; t++) {
    const bx0 = t ? Math.floor(r() * 4) : 0, by0 = t ? Math.floor(r() * 4) : 0;
    const bw = Math.max(0, coef.blocksWide - bx0 - (t ? Math.floor(r() * 4) : 0)), bh = Math.max(0, coef.blocksHigh - by0 - (t ? Math.floor(r() * 4) : 0));
    const want = oldDqHistograms(coef, bx0, by0, bw, bh);
    const got = zigzagHistograms(coef.coefficients, coef.blocksWide, bx0, by0, bw, bh);
    for (let k = 0; k < K; k++) {
      expect([...got.hist.subarray(k * (R + 1), (k + 1) * (R + 1))], `dq histogram ${label} k ${k + 1}`).toStrictEqual([...want[k]!.h]);
      expect([got.counts[k], got.sums[k]]).toStrictEqual([want[k]!.n, want[k]!.sum]);
    }
  }
}

describe('coefficient histograms: same values as the reference', () => {
  it('on 40 seeded random coefficient sets', () => {
    const r = rng(2813);
    let rough = 0;
    for (let k = 0; k < 40; k++) {
      const coef = randomCoefficients(r);
      if (oldHistogramRoughness(coef).histRoughMean !== 0) rough++;
      checkBoth(coef, `case ${k} ${coef.blocksWide}×${coef.blocksHigh}`, r);
    }
    // The comparison must reach the roughness statistics, not only the empty case.
    expect(rough).toBeGreaterThan(20);
  });

  it('on real document photographs', () => {
    const r = rng(5);
    let compared = 0;
    for (const f of realJpegs().filter((_, i) => i % 2 === 0).slice(0, 10)) {
      const coef = readAllCoefficients(readFileSync(f))?.[0];
      if (!coef) continue;
      compared++;
      checkBoth(coef, f, r);
    }
    expect(compared).toBeGreaterThanOrEqual(6);
  }, 120_000);
});
