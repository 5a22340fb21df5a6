import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { randomForensicsInputs, realForensicsInputs, REAL_SAMPLE, seededRandom } from '../../../tools/authenticity/testing/forensics-inputs.js';
import type { LumaCoefficients } from '../image/jpeg-coefficients.js';
import type { BlockMap } from './block-maps.js';
import { clusterBox, clusters, dqPeakTiles, gridPhaseEnergy, tileMaps, TILE_FEATURE_NAMES, type TileBox, type TileMaps } from './tile-maps.js';

/*
 * tileMaps (feature sets v3 on: 64-px tiles; v4 on: also 32-px tiles) was made faster without
 * changing a number: the per-tile median buffers are reused and the grid-phase energies are summed
 * one row at a time (gridPhaseEnergy). Released settings versions must compute the same values, so
 * the new code is pinned, value for value (Object.is, NaN and -0 included), to the code that
 * authenticity settings v5–v9 shipped with, kept here verbatim as the reference.
 */

// ---- reference: tile-maps.ts at 760f5a3 (verbatim; helpers it shares unchanged are imported) ----
function medianOf(a: number[]): number {
  if (!a.length) return 0;
  const s = Float64Array.from(a).sort();
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

function quantileOf(a: number[], q: number): number {
  if (!a.length) return 0;
  const s = Float64Array.from(a).sort();
  return s[Math.min(s.length - 1, Math.max(0, Math.round(q * (s.length - 1))))]!;
}

/** Robust z over the usable tiles (NaN stays NaN). */
function robust(values: Float64Array, usable: Uint8Array, floor: number): Float64Array {
  const xs: number[] = [];
  for (let i = 0; i < values.length; i++) if (usable[i] && Number.isFinite(values[i]!)) xs.push(values[i]!);
  const m = medianOf(xs);
  const mad = medianOf(xs.map((v) => Math.abs(v - m)));
  const s = Math.max(floor, 1.4826 * mad);
  const z = new Float64Array(values.length).fill(Number.NaN);
  for (let i = 0; i < values.length; i++) if (usable[i] && Number.isFinite(values[i]!)) z[i] = (values[i]! - m) / s;
  return z;
}

function stats(z: Float64Array, cols: number, rows: number, usableCount: number): [number, number, number] {
  const xs: number[] = [];
  let over = 0;
  for (const v of z) if (Number.isFinite(v)) {
    xs.push(v);
    if (v > 3) over++;
  }
  const cl = clusters(z, cols, rows, 2.5)[0]?.length ?? 0;
  const n = Math.max(1, usableCount);
  return [Math.min(20, quantileOf(xs, 0.99)), over / n, cl / n];
}

function oldTileMaps(
  luma: Float32Array,
  width: number,
  height: number,
  noise: BlockMap,
  elaPerTexture: BlockMap,
  gradient: BlockMap,
  coefficients: LumaCoefficients | null,
  origin: { left: number; top: number },
  // Feature set v4 also runs 32-px tiles (a repainted text line is often under one 64-px tile).
  TILE = 64,
): TileMaps {
  const cols = Math.floor(width / TILE);
  const rows = Math.floor(height / TILE);
  const n = cols * rows;
  const per = TILE / noise.size; // 16-px blocks per tile side
  const noiseV = new Float64Array(n), elaV = new Float64Array(n), bright = new Float64Array(n), grad = new Float64Array(n);
  const usable = new Uint8Array(n);
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const ns: number[] = [], es: number[] = [], gs: number[] = [];
      for (let y = 0; y < per; y++) for (let x = 0; x < per; x++) {
        const k = (r * per + y) * noise.cols + c * per + x;
        ns.push(noise.values[k]!);
        es.push(elaPerTexture.values[k]!);
        gs.push(gradient.values[k]!);
      }
      let sum = 0, lo = 255, hi = 0;
      for (let y = r * TILE; y < (r + 1) * TILE; y += 4) for (let x = c * TILE; x < (c + 1) * TILE; x += 4) {
        const v = luma[y * width + x]!;
        sum += v;
        if (v < lo) lo = v;
        if (v > hi) hi = v;
      }
      const t = r * cols + c;
      bright[t] = sum / (TILE * TILE / 16);
      noiseV[t] = Math.log(medianOf(ns) + 0.25);
      elaV[t] = Math.log(medianOf(es) + 0.05);
      grad[t] = medianOf(gs);
      // Clipped (blown-out or black) tiles carry no noise or compression trace: not judged.
      usable[t] = bright[t]! > 12 && bright[t]! < 243 ? 1 : 0;
    }
  }
  let usableCount = 0;
  for (const u of usable) usableCount += u;

  // Noise vs brightness: the image's own curve (median log-noise per brightness octile).
  const order = [...Array(n).keys()].filter((i) => usable[i]).sort((a, b) => bright[a]! - bright[b]!);
  const noiseRes = new Float64Array(n).fill(Number.NaN);
  const bins = 6;
  for (let b = 0; b < bins; b++) {
    const members = order.slice(Math.floor((b * order.length) / bins), Math.floor(((b + 1) * order.length) / bins));
    const m = medianOf(members.map((i) => noiseV[i]!));
    for (const i of members) noiseRes[i] = noiseV[i]! - m;
  }
  const zNoiseSigned = robust(noiseRes, usable, 0.08);
  const zNoise = zNoiseSigned.map((v) => Math.abs(v));
  const zEla = robust(elaV, usable, 0.08);

  // Grid alignment per tile: horizontal and vertical first differences by phase (mod 8) in the
  // stored frame (origin is a multiple of 8, so phase 7 | 0 is the file's own block boundary).
  const gridV = new Float64Array(n).fill(Number.NaN);
  let foreign = 0, judged = 0;
  const gridLevels: number[] = [];
  const e = new Float64Array(8), cnt = new Float64Array(8);
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const t = r * cols + c;
      if (!usable[t]) continue;
      e.fill(0);
      cnt.fill(0);
      for (let y = r * TILE; y < (r + 1) * TILE - 1; y++) {
        const row = y * width;
        for (let x = c * TILE; x < (c + 1) * TILE - 1; x++) {
          const i = row + x;
          const v = luma[i]!;
          // Second differences remove smooth gradients: a block edge is a step, not a slope.
          const dx = x + 2 < width ? Math.abs(luma[i + 1]! - v - (luma[i + 2]! - luma[i + 1]!)) : 0;
          const dy = y + 2 < height ? Math.abs(luma[i + width]! - v - (luma[i + 2 * width]! - luma[i + width]!)) : 0;
          e[x & 7] += dx;
          cnt[x & 7]++;
          e[y & 7] += dy;
          cnt[y & 7]++;
        }
      }
      for (let p = 0; p < 8; p++) e[p] = e[p]! / Math.max(1, cnt[p]!);
      // The step between pixel 7 and 8 shows in the second difference at phases 6 and 7.
      const own = (e[6]! + e[7]!) / 2;
      let best = 0, bestP = -1;
      const others: number[] = [];
      for (let p = 0; p < 8; p++) {
        if (p === 6 || p === 7) continue;
        others.push(e[p]!);
      }
      for (let p = 0; p < 8; p++) {
        const pair = (e[p]! + e[(p + 1) & 7]!) / 2;
        if (p !== 6 && pair > best) (best = pair), (bestP = p);
      }
      const base = medianOf(others) + 0.05;
      gridV[t] = Math.log((own + 0.05) / base);
      gridLevels.push(gridV[t]!);
      if (grad[t]! > 1 && grad[t]! < 30) {
        judged++;
        if (best > own * 1.15 && bestP >= 0) foreign++;
      }
    }
  }
  const zGrid = robust(gridV, usable, 0.05).map((v) => -v);

  // Double quantisation per block, in the file's own block grid.
  const dqV = new Float64Array(n).fill(Number.NaN);
  let dqAvailable = 0;
  const dqLevels: number[] = [];
  if (coefficients) {
    dqPeakTiles(coefficients, origin, TILE, cols, rows, usable, 12, dqV);
    for (let t = 0; t < n; t++) if (!Number.isNaN(dqV[t]!)) dqLevels.push(dqV[t]!);
    dqAvailable = dqLevels.length >= 8 ? 1 : 0;
  }
  const zDq = dqAvailable ? robust(dqV, usable, 0.03).map((v) => -v) : new Float64Array(n).fill(Number.NaN);

  // Combined: RMS of the positive (suspicious) parts, clipped, over the channels present.
  const comb = new Float64Array(n).fill(Number.NaN);
  const agree = new Float64Array(n).fill(Number.NaN);
  for (let t = 0; t < n; t++) {
    if (!usable[t]) continue;
    const zs = [zNoise[t]!, zEla[t]!, zGrid[t]!, zDq[t]!].filter((v) => Number.isFinite(v)).map((v) => Math.min(8, Math.max(0, v)));
    if (!zs.length) continue;
    comb[t] = Math.sqrt(zs.reduce((a, v) => a + v * v, 0) / zs.length);
    agree[t] = zs.filter((v) => v > 2.5).length;
  }
  const combStats = stats(comb, cols, rows, usableCount);
  const combXs = [...comb].filter((v) => Number.isFinite(v)).sort((a, b) => b - a);
  const topK = combXs.slice(0, Math.max(1, Math.round(combXs.length * 0.03)));
  const agreeXs = [...agree].filter((v) => Number.isFinite(v));
  const noiseStats = stats(zNoise, cols, rows, usableCount);
  const elaStats = stats(zEla, cols, rows, usableCount);
  const gridStats = stats(zGrid, cols, rows, usableCount);
  const dqStats = dqAvailable ? stats(zDq, cols, rows, usableCount) : ([0, 0, 0] as [number, number, number]);

  const boxes: TileBox[] = clusters(comb, cols, rows, 2.5)
    .slice(0, 3)
    .filter((m) => m.length >= 2)
    .map((m) => clusterBox(m, cols, rows, TILE, comb));

  const features = [
    usableCount / Math.max(1, n),
    medianOf([...noiseV].filter((_, i) => usable[i])),
    ...noiseStats,
    ...elaStats,
    medianOf(gridLevels),
    ...gridStats,
    judged ? foreign / judged : 0,
    dqAvailable,
    dqAvailable ? medianOf(dqLevels) : 0,
    ...dqStats,
    Math.min(20, combStats[0]),
    combStats[2],
    topK.length ? topK.reduce((a, v) => a + v, 0) / topK.length : 0,
    agreeXs.length ? agreeXs.filter((v) => v >= 2).length / agreeXs.length : 0,
  ].map((v) => (Number.isFinite(v) ? v : 0));
  if (features.length !== TILE_FEATURE_NAMES.length) throw new Error(`tile features ${features.length} ≠ ${TILE_FEATURE_NAMES.length}`);
  return {
    cols,
    rows,
    usable: usableCount,
    features,
    boxes,
    summary: {
      noise: { p99_z: noiseStats[0], cluster: noiseStats[2] },
      ela: { p99_z: elaStats[0], cluster: elaStats[2] },
      grid: { p99_z: gridStats[0], cluster: gridStats[2] },
      dq: { p99_z: dqStats[0], cluster: dqStats[2] },
    },
  };
}
// ---- end of reference ----

describe('tileMaps: same values as the reference', () => {
  it('on 160 seeded random images, both tile sizes, with and without coefficients', () => {
    const r = seededRandom(2811);
    for (let k = 0; k < 160; k++) {
      const s = randomForensicsInputs(r);
      for (const tile of [64, 32]) {
        const want = oldTileMaps(s.luma, s.width, s.height, s.noise, s.ela, s.grad, s.coef, s.origin, tile);
        const got = tileMaps(s.luma, s.width, s.height, s.noise, s.ela, s.grad, s.coef, s.origin, tile);
        expect(got, `case ${k} ${s.width}×${s.height} tile ${tile}`).toStrictEqual(want);
      }
    }
  });

  it('gridPhaseEnergy equals the per-pixel sums on every tile position, borders included', () => {
    const r = seededRandom(77);
    const e = new Float64Array(8), cnt = new Float64Array(8), e0 = new Float64Array(8), c0 = new Float64Array(8);
    for (let k = 0; k < 60; k++) {
      const s = randomForensicsInputs(r);
      for (const tile of [64, 32, 16, 24]) for (let y0 = 0; y0 + tile <= s.height; y0 += tile) for (let x0 = 0; x0 + tile <= s.width; x0 += tile) {
        e0.fill(0);
        c0.fill(0);
        for (let y = y0; y < y0 + tile - 1; y++) for (let x = x0; x < x0 + tile - 1; x++) {
          const i = y * s.width + x, v = s.luma[i]!;
          const dx = x + 2 < s.width ? Math.abs(s.luma[i + 1]! - v - (s.luma[i + 2]! - s.luma[i + 1]!)) : 0;
          const dy = y + 2 < s.height ? Math.abs(s.luma[i + s.width]! - v - (s.luma[i + 2 * s.width]! - s.luma[i + s.width]!)) : 0;
          e0[x & 7] += dx;
          c0[x & 7]++;
          e0[y & 7] += dy;
          c0[y & 7]++;
        }
        gridPhaseEnergy(s.luma, s.width, s.height, x0, y0, tile, e, cnt);
        expect([...e], `case ${k} tile ${tile} at ${x0},${y0}`).toStrictEqual([...e0]);
        expect([...cnt]).toStrictEqual([...c0]);
      }
    }
  });

  it('on real document photographs, both tile sizes', async () => {
    let compared = 0;
    for (const f of REAL_SAMPLE) {
      const s = await realForensicsInputs(readFileSync(f));
      if (!s) continue;
      compared++;
      for (const tile of [64, 32]) {
        const want = oldTileMaps(s.luma, s.width, s.height, s.noise, s.ela, s.grad, s.coef, s.origin, tile);
        expect(tileMaps(s.luma, s.width, s.height, s.noise, s.ela, s.grad, s.coef, s.origin, tile), `${f} tile ${tile}`).toStrictEqual(want);
      }
    }
    expect(compared).toBeGreaterThanOrEqual(6);
  }, 120_000);
});
