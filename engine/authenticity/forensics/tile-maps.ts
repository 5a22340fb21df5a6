import type { LumaCoefficients } from '../image/jpeg-coefficients.js';
import type { BlockMap } from './block-maps.js';

/**
 * Local inconsistency maps (settings v5, feature set v3). Every channel is measured per 64×64
 * tile and compared with THE SAME IMAGE's own distribution (median and MAD over its tiles), never
 * with a camera prior learned from a generator: a phone's denoiser, a scanner's sharpening or a
 * browser's encoder shift the whole image at once, an edit shifts a region.
 *
 * Channels (each a robust z per tile, sign chosen so that "suspicious" is positive):
 *  - `noise`: log sensor-noise level (median |Laplacian residual| of the 16-px blocks), after
 *    removing the image's own noise-vs-brightness curve (shot noise grows with brightness);
 *    both tails count (a pasted region can be cleaner or noisier);
 *  - `ela`: log error level per texture after one re-save at q90 (high = settles differently);
 *  - `grid`: JPEG 8×8 grid alignment — boundary energy at the file's own grid phase against the
 *    other seven phases; low = this tile lost (or never had) the grid the rest carries;
 *  - `dq`: double quantisation per 8×8 block from the exact quantised coefficients — for each of
 *    the first AC frequencies, whether a block's value sits on a histogram peak or in a valley of
 *    the image's own histogram (a region compressed once, pasted into a twice-compressed image,
 *    fills the valleys); low = out of step with the rest.
 * Outlier tiles are combined (root mean square of the clipped z) and the largest 4-connected
 * cluster above 2.5 gives a box for the evidence (localisation).
 */
export const TILE = 64;

export interface TileBox {
  x: number;
  y: number;
  width: number;
  height: number;
  /** Mean value of the cluster's tiles: combined z for the tile maps, log-likelihood ratio (nats) for the double-quantisation map. */
  score: number;
  tiles: number;
}

export interface TileMaps {
  cols: number;
  rows: number;
  /** Tiles with enough texture/brightness range to be judged. */
  usable: number;
  features: number[];
  /** Largest suspicious clusters (at most 3), in the native crop's frame. */
  boxes: TileBox[];
  /** Per-channel summaries for the evidence. */
  summary: Record<'noise' | 'ela' | 'grid' | 'dq', { p99_z: number; cluster: number }>;
}

export const TILE_FEATURE_NAMES = [
  'tile_usable_share',
  'tile_noise_level',
  'tile_noise_p99_z',
  'tile_noise_frac_z3',
  'tile_noise_cluster',
  'tile_ela_p99_z',
  'tile_ela_frac_z3',
  'tile_ela_cluster',
  'tile_grid_strength',
  'tile_grid_p99_z',
  'tile_grid_frac_z3',
  'tile_grid_cluster',
  'tile_grid_foreign_share',
  'tile_dq_available',
  'tile_dq_level',
  'tile_dq_p99_z',
  'tile_dq_frac_z3',
  'tile_dq_cluster',
  'tile_comb_p99',
  'tile_comb_cluster',
  'tile_comb_top_mean',
  'tile_comb_channels_agree',
] as const;

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

/** Median of an already sorted array (medianOf without the copy and the sort). */
function medianSorted(s: Float64Array): number {
  if (!s.length) return 0;
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/**
 * Sums of |second difference| by phase (x mod 8 horizontally, y mod 8 vertically) over the pixels
 * x0 ≤ x < x0 + tile − 1, y0 ≤ y < y0 + tile − 1, and how many terms each phase got; a difference
 * that would reach past the image counts as a 0 term. Written as one loop per row with the
 * vertical phase's sum held in a local: every sum receives the same terms in the same order as
 * the per-pixel form it replaced (e[x & 7] += dx; e[y & 7] += dy), so the doubles are identical
 * (pinned in tile-maps.test.ts); adding a 0 term never changes a sum, so those are skipped, and
 * the counts are whole numbers, added per row.
 */
export function gridPhaseEnergy(luma: Float32Array, width: number, height: number, x0: number, y0: number, tile: number, e: Float64Array, cnt: Float64Array): void {
  e.fill(0);
  cnt.fill(0);
  const x1 = x0 + tile - 1;
  const y1 = y0 + tile - 1;
  // Horizontal terms exist for x + 2 < width; past that they are 0 (skipped).
  const xd = Math.max(x0, Math.min(x1, width - 2));
  const perPhase = new Float64Array(8);
  for (let x = x0; x < x1; x++) perPhase[x & 7]!++;
  for (let y = y0; y < y1; y++) {
    const row = y * width;
    const py = y & 7;
    for (let p = 0; p < 8; p++) cnt[p]! += perPhase[p]!;
    cnt[py]! += x1 - x0;
    // Second differences remove smooth gradients: a block edge is a step, not a slope.
    if (y + 2 < height) {
      let ey = e[py]!;
      let x = x0;
      for (let i = row + x; x < xd; x++, i++) {
        const v = luma[i]!;
        const a = luma[i + 1]!;
        const dx = Math.abs(a - v - (luma[i + 2]! - a));
        const b = luma[i + width]!;
        const dy = Math.abs(b - v - (luma[i + 2 * width]! - b));
        const p = x & 7;
        if (p === py) ey += dx;
        else e[p]! += dx;
        ey += dy;
      }
      for (let i = row + x; x < x1; x++, i++) {
        const b = luma[i + width]!;
        ey += Math.abs(b - luma[i]! - (luma[i + 2 * width]! - b));
      }
      e[py] = ey;
    } else {
      for (let x = x0, i = row + x0; x < xd; x++, i++) {
        const v = luma[i]!;
        const a = luma[i + 1]!;
        e[x & 7]! += Math.abs(a - v - (luma[i + 2]! - a));
      }
    }
  }
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

/** A cluster's bounding box in pixels (tiles of `tilePx`), with its tiles' mean value and count. */
export function clusterBox(members: number[], cols: number, rows: number, tilePx: number, values: Float64Array): TileBox {
  let c0 = cols, c1 = 0, r0 = rows, r1 = 0, s = 0;
  for (const k of members) {
    const c = k % cols, r = (k / cols) | 0;
    c0 = Math.min(c0, c); c1 = Math.max(c1, c); r0 = Math.min(r0, r); r1 = Math.max(r1, r);
    s += values[k]!;
  }
  return { x: c0 * tilePx, y: r0 * tilePx, width: (c1 - c0 + 1) * tilePx, height: (r1 - r0 + 1) * tilePx, score: s / members.length, tiles: members.length };
}

/** Clusters (4-connected) of tiles with z > t: members, largest first (also the double-quantisation map's). */
export function clusters(z: Float64Array, cols: number, rows: number, t: number): number[][] {
  const seen = new Uint8Array(z.length);
  const out: number[][] = [];
  for (let i = 0; i < z.length; i++) {
    if (seen[i] || !(z[i]! > t)) continue;
    const members: number[] = [];
    const stack = [i];
    seen[i] = 1;
    while (stack.length) {
      const k = stack.pop()!;
      members.push(k);
      const c = k % cols, r = (k / cols) | 0;
      for (const [dc, dr] of [[1, 0], [-1, 0], [0, 1], [0, -1]] as const) {
        const cc = c + dc, rr = r + dr;
        if (cc < 0 || rr < 0 || cc >= cols || rr >= rows) continue;
        const j = rr * cols + cc;
        if (!seen[j] && z[j]! > t) {
          seen[j] = 1;
          stack.push(j);
        }
      }
    }
    out.push(members);
  }
  return out.sort((a, b) => b.length - a.length);
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

export function tileMaps(
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
  // One scratch buffer per channel instead of three arrays per tile (same values, same sort).
  const ns = new Float64Array(per * per), es = new Float64Array(per * per), gs = new Float64Array(per * per);
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      for (let y = 0, j = 0; y < per; y++) for (let x = 0; x < per; x++, j++) {
        const k = (r * per + y) * noise.cols + c * per + x;
        ns[j] = noise.values[k]!;
        es[j] = elaPerTexture.values[k]!;
        gs[j] = gradient.values[k]!;
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
      noiseV[t] = Math.log(medianSorted(ns.sort()) + 0.25);
      elaV[t] = Math.log(medianSorted(es.sort()) + 0.05);
      grad[t] = medianSorted(gs.sort());
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
      gridPhaseEnergy(luma, width, height, c * TILE, r * TILE, TILE, e, cnt);
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

/** Low AC frequencies (natural-order indices) whose histograms the double-quantisation measure reads. */
const DQ_FREQUENCIES = [1, 8, 9, 2, 16, 17, 10, 3, 24, 18, 11, 4, 25, 32, 19];
const DQ_RANGE = 40;

/**
 * Per tile, the mean log "peak-ness" of its blocks' low-frequency coefficients in the file's own
 * histograms: a value on a histogram peak of a twice-saved image scores high; a block saved once and
 * pasted in fills the valleys and scores low. Written to `out[t]` for usable tiles with at least
 * `minCount` non-zero coefficients; other tiles are left as they are. Shared by the tile maps and
 * the region scan so the two read the same measure.
 */
export function dqPeakTiles(
  coef: LumaCoefficients,
  origin: { left: number; top: number },
  tile: number,
  cols: number,
  rows: number,
  usable: Uint8Array,
  minCount: number,
  out: Float64Array,
): void {
  const { blocksWide, blocksHigh, coefficients: q } = coef;
  const F = DQ_FREQUENCIES;
  const R = DQ_RANGE;
  const hist = F.map(() => new Float64Array(2 * R + 3));
  const nb = blocksWide * blocksHigh;
  for (let b = 0; b < nb; b++) {
    for (let f = 0; f < F.length; f++) {
      const v = q[b * 64 + F[f]!]!;
      if (v >= -R && v <= R) hist[f]![v + R + 1]!++;
    }
  }
  // Log peak-ness of each value: its count against its neighbours' mean.
  const peak = hist.map((h) => {
    const p = new Float64Array(h.length);
    for (let k = 1; k < h.length - 1; k++) p[k] = Math.log((h[k]! + 1) / ((h[k - 1]! + h[k + 1]!) / 2 + 1));
    return p;
  });
  const bx0 = origin.left >> 3, by0 = origin.top >> 3;
  const bpt = tile / 8;
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const t = r * cols + c;
      if (!usable[t]) continue;
      let s = 0, m = 0;
      for (let y = 0; y < bpt; y++) for (let x = 0; x < bpt; x++) {
        const bx = bx0 + c * bpt + x, by = by0 + r * bpt + y;
        if (bx >= blocksWide || by >= blocksHigh) continue;
        const b = by * blocksWide + bx;
        for (let f = 0; f < F.length; f++) {
          const v = q[b * 64 + F[f]!]!;
          if (v === 0 || v < -R || v > R) continue;
          s += peak[f]![v + R + 1]!;
          m++;
        }
      }
      if (m >= minCount) out[t] = s / m;
    }
  }
}
