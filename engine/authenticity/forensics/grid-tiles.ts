import { dctBasis } from './dct8.js';
import { boxColumns, boxRows, filterColumns, filterRows, scratch } from './shifted-grid.js';
import { clusterBox, clusters, type TileBox } from './tile-maps.js';

/**
 * Per-tile non-aligned double-JPEG search (feature set v6, settings v8).
 *
 * Why: a region pasted from another JPEG keeps the 8×8 grid of ITS earlier save, which sits at
 * some offset from the host's grid (63 of 64 offsets are foreign); a crop between two saves moves
 * the whole image's first grid the same way. The global shifted-grid search (shifted-grid.ts)
 * asks this once for a 1024×768 centre and needs the whole region to agree, so a pasted region
 * of a fifth of the frame never reaches it, and the aligned likelihood (dq-likelihood.ts) only
 * sees "no aligned first save here", not what the region carries instead. Here the same lattice
 * test (Bianchi & Piva's NA-DJPG idea: at the true foreign grid, the DCT coefficients of the
 * decoded pixels lie near multiples of the first save's steps) runs per 64-px tile of the file's
 * grid and per grid phase, and the evidence is compared WITHIN the image: a tile is "foreign"
 * when one phase stands out among that tile's own 63; a splice shows as a connected cluster of
 * tiles that agree on one phase that the rest of the image does not carry, a cropped re-save as
 * one phase shared by tiles all over the frame.
 *
 * Per block origin (every pixel of a centre region, the file's grid at origin 0 mod 8), the
 * two lowest AC coefficients (0,1), (1,0) in JPEG units (orthonormal DCT), then per
 * tile, phase, frequency and lattice step 4…11 the phase coherence |Σ exp(2πi·c/step)| / √n over
 * the origins outside the step's zero bin 
 * Per tile and phase the score is Σ over frequencies of the best step's robust z over the tile's 63
 * foreign phases.
 */
export const GRID_TILE_FEATURE_NAMES = [
  'gt_available',
  'gt_z_p50',
  'gt_z_p90',
  'gt_z_max',
  'gt_flag_share',
  'gt_mode_share',
  'gt_global_z',
  'gt_cluster_share',
  'gt_cluster_tiles',
  'gt_cluster_z',
  'gt_cluster_contrast',
  'gt_cluster_local',
] as const;

/**
 * Tile side in pixels: 256 blocks per phase. At 64 px (64 blocks) a q75 donor's lattice after a
 * q90 save was below the noise of one tile (measured on real camera photos).
 */
export const GRID_TILE_PX = 128;
/** Centre region searched: bounds the cost (every pixel is a block origin) at about 1.8 Mpx. */
const MAX_WIDTH = 1536;
const MAX_HEIGHT = 1152;
/** A tile is foreign when its best phase's score reaches this and both frequencies pick that phase. */
const FLAG_Z = 30;
/** Below this many origins outside the zero bin the coherence of a (tile, phase, step) is not read. */
const MIN_N = 48;
/**
 * Lattice steps. A first save at quality 55–92 puts the lowest AC steps anywhere in 2…11, but
 * after a second save only coarse lattices survive its rounding noise (σ ≈ 1–2 coefficient units:
 * coherence exp(−2π²σ²/step²)); steps 2 and 3 were never visible in trials, and a lattice of
 * step 2·k or 3·k shows at the larger steps anyway.
 */
const STEPS = [4, 5, 6, 7, 8, 9, 10, 11] as const;
const LUT = 32;
const COS = Float64Array.from({ length: LUT }, (_, i) => Math.cos((2 * Math.PI * i) / LUT));
const SIN = Float64Array.from({ length: LUT }, (_, i) => Math.sin((2 * Math.PI * i) / LUT));
const BASIS = [0, 1].map((u) => Float64Array.from({ length: 8 }, (_, x) => dctBasis(u, x)));
/** (1,1) was the weakest of the three in trials and costs a third of the time: left out. */
const FREQUENCIES: readonly (readonly [number, number])[] = [
  [0, 1],
  [1, 0],
];

export interface GridTileBox extends TileBox {
  /** The foreign grid's phase [row, column] relative to the file's grid. */
  phase: [number, number];
}

export interface GridTiles {
  available: boolean;
  features: number[];
  /** Clusters of tiles that agree on one foreign phase, in the native crop's frame (largest first). */
  boxes: GridTileBox[];
  /** The phase most tiles flag (null when no tile is flagged) and the share of tiles flagging it. */
  modePhase: [number, number] | null;
}

const UNAVAILABLE: GridTiles = { available: false, features: GRID_TILE_FEATURE_NAMES.map(() => 0), boxes: [], modePhase: null };

function median(xs: Float64Array | number[]): number {
  const s = Float64Array.from(xs).sort();
  return s.length ? s[s.length >> 1]! : 0;
}

function quantile(xs: Float64Array, q: number): number {
  const s = Float64Array.from(xs).sort();
  return s.length ? s[Math.min(s.length - 1, Math.max(0, Math.round(q * (s.length - 1))))]! : 0;
}

/** `luma` is the stored-frame luma of a region whose top-left corner is on the file's 8×8 grid. */
export function gridTiles(luma: Float32Array, width: number, height: number): GridTiles {
  const w = Math.min(width, MAX_WIDTH) & ~7;
  const h = Math.min(height, MAX_HEIGHT) & ~7;
  const cols = Math.floor(w / GRID_TILE_PX);
  const rows = Math.floor(h / GRID_TILE_PX);
  if (cols < 2 || rows < 2) return UNAVAILABLE;
  const ox = ((width - w) >> 1) & ~7;
  const oy = ((height - h) >> 1) & ~7;
  const ow = w - 7;
  const oh = h - 7;
  const nT = cols * rows;
  const nF = FREQUENCIES.length;
  const nS = STEPS.length;

  const [box, tap, coef] = scratch(h * ow);
  boxRows(luma, width, ox, oy, ow, h, box);
  filterRows(luma, width, ox, oy, ow, h, BASIS[1]!, tap);
  const horizontal = [box, tap];

  // Coherence per (tile, phase, frequency, step), then per (tile, frequency, step) a robust z over
  // the tile's 63 foreign phases (content gives every phase some coherence), per phase the best
  // step, summed over the three frequencies.
  const nP = nF * nS;
  const coh = new Float64Array(nT * 64 * nP);
  // Per (tile, phase, step) a histogram of c/step modulo 1 (in 32nds); the coherence is read off
  // it. Integer increments instead of cos/sin sums: this loop is most of the check's time.
  const hist = new Int32Array(nT * 64 * nS * LUT);
  const cnt = new Int32Array(nT * 64);
  const offset = 1048576.5;
  const mask = LUT - 1;
  const yMax = Math.min(oh, rows * GRID_TILE_PX);
  const xMax = Math.min(ow, cols * GRID_TILE_PX);
  for (let f = 0; f < nF; f++) {
    const [u, v] = FREQUENCIES[f]!;
    if (u === 0) boxColumns(horizontal[v]!, ow, oh, coef);
    else filterColumns(horizontal[v]!, ow, oh, BASIS[u]!, coef);
    hist.fill(0);
    cnt.fill(0);
    for (let y = 0; y < yMax; y++) {
      const tileRow = ((y / GRID_TILE_PX) | 0) * cols;
      const rowPhase = (y & 7) << 3;
      const r = y * ow;
      for (let x = 0; x < xMax; x++) {
        const c = coef[r + x]!;
        // Coefficients in the zero bin carry no lattice phase (and are most of a flat tile).
        if (c < 1 && c > -1) continue;
        const tp = (tileRow + ((x / GRID_TILE_PX) | 0)) * 64 + (rowPhase | (x & 7));
        cnt[tp]++;
        const b = tp * nS * LUT;
        // Unrolled over STEPS (4…11).
        hist[b + (((c * (LUT / 4) + offset) | 0) & mask)]++;
        hist[b + LUT + (((c * (LUT / 5) + offset) | 0) & mask)]++;
        hist[b + 2 * LUT + (((c * (LUT / 6) + offset) | 0) & mask)]++;
        hist[b + 3 * LUT + (((c * (LUT / 7) + offset) | 0) & mask)]++;
        hist[b + 4 * LUT + (((c * (LUT / 8) + offset) | 0) & mask)]++;
        hist[b + 5 * LUT + (((c * (LUT / 9) + offset) | 0) & mask)]++;
        hist[b + 6 * LUT + (((c * (LUT / 10) + offset) | 0) & mask)]++;
        hist[b + 7 * LUT + (((c * (LUT / 11) + offset) | 0) & mask)]++;
      }
    }
    for (let tp = 0; tp < nT * 64; tp++) {
      const n = cnt[tp]!;
      if (n < MIN_N) continue;
      const k = 1 / Math.sqrt(n);
      for (let s = 0; s < nS; s++) {
        const b = (tp * nS + s) * LUT;
        let re = 0, im = 0;
        for (let i = 0; i < LUT; i++) {
          const m = hist[b + i]!;
          re += m * COS[i]!;
          im += m * SIN[i]!;
        }
        coh[tp * nP + f * nS + s] = Math.hypot(re, im) * k;
      }
    }
  }

  // Per tile: z of each foreign phase's score among the tile's own 63, the best phase.
  const zOf = new Float64Array(nT * 64); // score of every phase in every tile (phase 0 stays 0)
  const perF = new Float64Array(64 * nF);
  const col = new Float64Array(63);
  const tileZ = new Float64Array(nT);
  const tilePhase = new Int32Array(nT);
  const flagged = new Uint8Array(nT);
  const total = new Float64Array(64);
  for (let t = 0; t < nT; t++) {
    perF.fill(-Infinity);
    for (let f = 0; f < nF; f++) {
      for (let s = 0; s < nS; s++) {
        for (let ph = 1; ph < 64; ph++) col[ph - 1] = coh[(t * 64 + ph) * nP + f * nS + s]!;
        const med = median(col);
        for (let i = 0; i < 63; i++) col[i] = Math.abs(col[i]! - med);
        // Floor: a flat tile's phases all read ~0 and would make any noise a large z.
        const mad = Math.max(0.1, median(col));
        for (let ph = 1; ph < 64; ph++) {
          const z = (coh[(t * 64 + ph) * nP + f * nS + s]! - med) / mad;
          if (z > perF[ph * nF + f]!) perF[ph * nF + f] = z;
        }
      }
    }
    let arg = 1;
    for (let ph = 1; ph < 64; ph++) {
      let sc = 0;
      for (let f = 0; f < nF; f++) sc += perF[ph * nF + f]!;
      zOf[t * 64 + ph] = sc;
      total[ph] = total[ph]! + sc;
      if (sc > zOf[t * 64 + arg]!) arg = ph;
    }
    tileZ[t] = zOf[t * 64 + arg]!;
    tilePhase[t] = arg;
    let agree = 0;
    for (let f = 0; f < nF; f++) {
      let a = 1;
      for (let ph = 2; ph < 64; ph++) if (perF[ph * nF + f]! > perF[a * nF + f]!) a = ph;
      if (a === arg) agree++;
    }
    flagged[t] = +(tileZ[t]! >= FLAG_Z && agree === nF);
  }

  // The phase flagged most often, and the whole region's evidence per phase (robust z over 63).
  const votes = new Int32Array(64);
  let nFlag = 0;
  for (let t = 0; t < nT; t++) if (flagged[t]) {
    votes[tilePhase[t]!]++;
    nFlag++;
  }
  let mode = 1;
  for (let ph = 2; ph < 64; ph++) if (votes[ph]! > votes[mode]!) mode = ph;
  const totals = total.subarray(1);
  const tMed = median(totals);
  const tMad = median(totals.map((v) => Math.abs(v - tMed))) + 1e-3;
  let globalZ = -Infinity;
  for (const v of totals) globalZ = Math.max(globalZ, (v - tMed) / tMad);

  // Clusters of flagged tiles that agree on one phase: one map per phase that any tile flags.
  let bestCluster: number[] = [];
  let bestClusterPhase = 0;
  const boxes: GridTileBox[] = [];
  for (let ph = 1; ph < 64; ph++) {
    if (!votes[ph]) continue;
    const map = new Float64Array(nT);
    for (let t = 0; t < nT; t++) map[t] = flagged[t] && tilePhase[t] === ph ? tileZ[t]! : 0;
    for (const m of clusters(map, cols, rows, 0)) {
      if (m.length > bestCluster.length) {
        bestCluster = m;
        bestClusterPhase = ph;
      }
      if (m.length >= 2) boxes.push({ ...clusterBox(m, cols, rows, GRID_TILE_PX, map), phase: [ph >> 3, ph & 7] });
    }
  }
  boxes.sort((a, b) => b.tiles - a.tiles || b.score - a.score);
  for (const b of boxes) {
    b.x += ox;
    b.y += oy;
  }

  // Within-image comparison for the largest cluster: its phase's z inside against outside, and
  // how much of that phase's flagged evidence the cluster holds (a splice: all; a crop: little).
  let clusterZ = 0, contrast = 0, local = 0;
  if (bestCluster.length) {
    const inside = new Set(bestCluster);
    let zin = 0, zout = 0, nout = 0;
    for (let t = 0; t < nT; t++) {
      const z = zOf[t * 64 + bestClusterPhase]!;
      if (inside.has(t)) zin += z;
      else {
        zout += z;
        nout++;
      }
    }
    clusterZ = zin / bestCluster.length;
    contrast = clusterZ - (nout ? zout / nout : 0);
    local = bestCluster.length / Math.max(1, votes[bestClusterPhase]!);
  }
  const features = [
    1,
    quantile(tileZ, 0.5),
    quantile(tileZ, 0.9),
    quantile(tileZ, 1),
    nFlag / nT,
    votes[mode]! / nT,
    globalZ,
    bestCluster.length / nT,
    Math.log1p(bestCluster.length),
    clusterZ,
    contrast,
    local,
  ].map((x) => (Number.isFinite(x) ? x : 0));
  return { available: true, features, boxes: boxes.slice(0, 3), modePhase: nFlag ? [mode >> 3, mode & 7] : null };
}
