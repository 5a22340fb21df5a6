import type { DecodedImage } from './image/decode.js';
import { lumaOf } from './image/decode.js';
import { largestCluster, meanInBox, quantile, robustZ, type Box } from './forensics/block-maps.js';
import { blockGrid, type BlockGridResult } from './forensics/block-grid.js';
import { captureCues, type CaptureCues } from './forensics/capture-cues.js';
import { analyzeCompressionHistory, type CompressionHistory } from './forensics/compression-history.js';
import { detectCopyMove, type CopyMoveResult } from './forensics/copy-move.js';
import type { ComponentCoefficients, LumaCoefficients } from './image/jpeg-coefficients.js';
import { analyzeDoubleCompression, type DoubleCompressionResult } from './forensics/double-compression.js';
import { BLOCK, errorLevelMaps } from './forensics/error-level.js';
import { noiseResidualMap } from './forensics/noise-residual.js';
import { shiftedGridLattice, type ShiftedGridResult } from './forensics/shifted-grid.js';
import { spectralFeatures, type SpectralFeatures } from './forensics/spectral.js';
import { TILE_FEATURE_NAMES, tileMaps, type TileMaps } from './forensics/tile-maps.js';
import { DQL_FEATURE_NAMES, dqLikelihood, type DqLikelihood } from './forensics/dq-likelihood.js';
import { GRID_TILE_FEATURE_NAMES, gridTiles, type GridTiles } from './forensics/grid-tiles.js';
import { HEADER_FEATURE_NAMES } from './metadata/camera-headers.js';
import { REGION_SCAN_FEATURE_NAMES, regionScan, type RegionScan } from './forensics/region-scan.js';
import type { QuantizationFingerprint } from './metadata/quantization.js';
import { toStoredFrame, zoneKind, ZONE_KINDS, type Zone, type ZoneKind } from './zones.js';

/**
 * The one feature extractor used both to build the training set and at inference, so that the
 * classifier sees exactly the numbers it was trained on. Metadata tags are deliberately NOT
 * features: they are trivially forged or stripped, and they are judged by explicit rules; the
 * model judges pixels (plus the JPEG quality, which the pixel statistics depend on).
 * Changing anything here changes FEATURE_NAMES' meaning: retrain and bump the model version.
 */
export const FEATURE_NAMES_V1 = [
  'jpeg_quality',
  'dq_available',
  'dq_score',
  'dq_max_score',
  'dq_gap_rate',
  'dq_primary_gap',
  'zone_portrait_dq_delta',
  'zone_portrait_gap_delta',
  'grid_current',
  'grid_shifted',
  'ela_mean',
  'ela_p99_z',
  'ela_frac_z4',
  'ela_cluster',
  'ela_spread',
  'noise_median',
  'noise_p1_z',
  'noise_p99_z',
  'noise_low_cluster',
  'noise_high_cluster',
  'noise_spread',
  ...ZONE_KINDS.flatMap((k) => [`zone_${k}_ela_z`, `zone_${k}_noise_z`, `zone_${k}_grad_ratio`]),
  'copy_move_score',
  'copy_move_votes',
  'spec_luma_peak_max',
  'spec_luma_peak_top',
  'spec_luma_peak_count',
  'spec_chroma_peak_max',
  'spec_chroma_peak_top',
  'spec_chroma_peak_count',
  'spec_high_freq_share',
  'dark_border',
  'dark_border_sides',
  'glare_share',
  'glare_tile_max',
  'saturation_p50',
  'saturation_p95',
  'black_level',
  'white_level',
  'blue_cast',
  'colorfulness',
  'sharpness',
] as const;

/** Added in feature set v2: compression history read from the exact JPEG coefficients. */
export const COMPRESSION_HISTORY_FEATURES = [
  'ch_available',
  'ch_rough_mean',
  'ch_rough_top',
  'ch_rough_max',
  'ch_rough_share',
  'ch_recompress_changed',
  'ch_recompress_identical',
] as const;

/**
 * The full vector, always computed. A feature set is a prefix of it: the v1 model (released in
 * engine profile ep-2026.11-1) reads the first FEATURE_SETS.v1 values, exactly as before.
 */
/**
 * Added in feature set v4 (settings v6): aligned double-compression likelihood with an estimated
 * first step and its per-block map (forensics/dq-likelihood.ts), the shifted-grid search's numbers
 * (computed for its rule since settings v3, now also model inputs) and the tile maps at 32 px.
 */
export const SHIFTED_GRID_FEATURES = ['sg_best', 'sg_gap', 'sg_agreement'] as const;
export const TILE32_FEATURE_NAMES = TILE_FEATURE_NAMES.map((n) => n.replace('tile_', 't32_') as `t32_${string}`);
/**
 * Added in feature set v5 (settings v7): the same double-quantisation likelihood and map on the
 * two CHROMA planes' exact coefficients (Cb, Cr). Cameras quantise chroma with their own,
 * usually coarser steps than luma, and an editor's second save often uses other chroma steps and
 * sampling, so a first save's lattice can survive in chroma where luma shows none.
 */
export const CHROMA_DQL_FEATURE_NAMES = [
  ...DQL_FEATURE_NAMES.map((n) => n.replace('dql_', 'cb_dql_') as `cb_dql_${string}`),
  ...DQL_FEATURE_NAMES.map((n) => n.replace('dql_', 'cr_dql_') as `cr_dql_${string}`),
];
export const FEATURE_NAMES = [
  ...FEATURE_NAMES_V1,
  ...COMPRESSION_HISTORY_FEATURES,
  ...TILE_FEATURE_NAMES,
  ...DQL_FEATURE_NAMES,
  ...SHIFTED_GRID_FEATURES,
  ...TILE32_FEATURE_NAMES,
  ...CHROMA_DQL_FEATURE_NAMES,
  ...GRID_TILE_FEATURE_NAMES,
  ...HEADER_FEATURE_NAMES,
  ...REGION_SCAN_FEATURE_NAMES,
] as const;
export type FeatureName = (typeof FEATURE_NAMES)[number];
/** v3 (settings v5) adds the within-image tile maps (forensics/tile-maps.ts). */
// Widths are cumulative sums of the groups, so that appending a group never moves an earlier set
// (wt25c: defining v4 as "all minus the later groups" moved it when the header values were added).
const W_V3 = FEATURE_NAMES_V1.length + COMPRESSION_HISTORY_FEATURES.length + TILE_FEATURE_NAMES.length;
const W_V4 = W_V3 + DQL_FEATURE_NAMES.length + SHIFTED_GRID_FEATURES.length + TILE32_FEATURE_NAMES.length;
const W_V5 = W_V4 + CHROMA_DQL_FEATURE_NAMES.length;
const W_V6 = W_V5 + GRID_TILE_FEATURE_NAMES.length;
const W_V7 = W_V6 + HEADER_FEATURE_NAMES.length;
export const FEATURE_SETS = {
  v1: FEATURE_NAMES_V1.length,
  v2: FEATURE_NAMES_V1.length + COMPRESSION_HISTORY_FEATURES.length,
  v3: W_V3,
  v4: W_V4,
  v5: W_V5,
  /** Feature set v6: v5 plus the per-tile non-aligned grid search (forensics/grid-tiles.ts). */
  v6: W_V6,
  /**
   * Feature set v7 (settings v8): v6's layout plus the EXIF camera vs quantisation-table check
   * (metadata/camera-headers.ts); the per-tile grid search is not run (its values are 0).
   */
  v7: W_V7,
  /** Feature set v8 (settings v9): v7 plus the region scan statistics (forensics/region-scan.ts). */
  v8: W_V7 + REGION_SCAN_FEATURE_NAMES.length,
} as const;
export type FeatureSet = keyof typeof FEATURE_SETS;

export interface ForensicParts {
  doubleCompression: DoubleCompressionResult;
  compressionHistory: CompressionHistory;
  /** Null unless the settings ask for the shifted-grid search (settings v3 on). */
  shiftedGrid: ShiftedGridResult | null;
  /** Null unless the settings' feature set reads them (v3, settings v5 on). */
  tiles: TileMaps | null;
  /** Null unless the feature set reads them (v4, settings v6 on). */
  dqLikelihood: DqLikelihood | null;
  tiles32: TileMaps | null;
  /** Feature set v5 (settings v7): the likelihood on the Cb and Cr planes; null before. */
  chromaDq: ChromaDq | null;
  /** Feature set v6 (settings v8): per-tile non-aligned double-JPEG search; null before. */
  gridTiles: GridTiles | null;
  /** Feature set v8 (settings v9): region scan statistics and their best window; null before. */
  regionScan: RegionScan | null;
  grid: BlockGridResult;
  copyMove: CopyMoveResult;
  spectral: SpectralFeatures;
  cues: CaptureCues;
  local: {
    elaP99Z: number;
    elaCluster: number;
    noiseLowCluster: number;
    zones: Partial<Record<ZoneKind, { elaZ: number; noiseZ: number; gradRatio: number }>>;
  };
}

export interface FeatureVector {
  values: Float32Array;
  parts: ForensicParts;
}

const log1p = (v: number) => Math.log1p(Math.max(0, v));

export async function extractFeatures(
  image: DecodedImage,
  quantization: QuantizationFingerprint | null,
  lumaTableIn: Uint16Array | null,
  zones: Zone[] = [],
  coefficients: LumaCoefficients | null = null,
  options: { shiftedGrid?: boolean; tiles?: boolean; v4?: boolean; chroma?: ComponentCoefficients[] | null; gridTiles?: boolean; header?: number[]; regionScan?: boolean } = {},
): Promise<FeatureVector> {
  const native = image.native;
  let lumaTable = lumaTableIn;
  const luma = lumaOf(native);
  const [ela] = await Promise.all([errorLevelMaps(native, luma)]);
  const dq = analyzeDoubleCompression(luma, native.width, native.height, image.format === 'jpeg' ? lumaTable : null);
  if (image.format !== 'jpeg') lumaTable = null;
  const grid = blockGrid(luma, native.width, native.height);
  const noise = noiseResidualMap(luma, native.width, native.height, BLOCK);
  const zE = robustZ(ela.elaPerTexture, 0.05);
  const zN = robustZ(noise, 0.05);
  const negN = zN.map((v) => -v);
  const nBlocks = Math.max(1, zE.length);
  let frac4 = 0;
  for (const v of zE) if (v > 4) frac4++;
  const gradMedian = Math.max(0.5, quantile(ela.gradient.values, 0.5));
  const noiseP5 = quantile(noise.values, 0.05);
  const noiseP95 = quantile(noise.values, 0.95);

  const zoneFeatures: ForensicParts['local']['zones'] = {};
  let portraitDq = 0;
  let portraitGap = 0;
  for (const z of zones) {
    const kind = zoneKind(z.name);
    if (!kind || zoneFeatures[kind]) continue;
    const stored = toStoredFrame(z, image.orientation, image.width, image.height);
    const box: Box = { x: stored.x - native.left, y: stored.y - native.top, width: stored.width, height: stored.height };
    const e = meanInBox(zE, ela.elaPerTexture, box);
    const nz = meanInBox(zN, noise, box);
    const g = meanInBox(ela.gradient.values, ela.gradient, box);
    if (e === null || nz === null || g === null) continue;
    zoneFeatures[kind] = { elaZ: e, noiseZ: nz, gradRatio: Math.log((g + 0.5) / gradMedian) };
    if (kind === 'portrait' && dq.available) {
      // A pasted portrait lacks the aligned double-quantisation traces the rest of the page has.
      const inside = analyzeDoubleCompression(luma, native.width, native.height, lumaTable, box);
      if (inside.available && inside.blocks > 200) {
        portraitDq = inside.score - dq.score;
        portraitGap = inside.primaryGap - dq.primaryGap;
      }
    }
  }

  const half = halve(lumaOf(image.small), image.small.width, image.small.height);
  const copyMove = detectCopyMove(half.luma, half.width, half.height);
  const spectral = spectralFeatures(native);
  const cues = captureCues(image.small);
  const history = analyzeCompressionHistory(coefficients, native);
  // Not a model input (no model was trained on it): a rule of its own, so only run when asked.
  const shifted = options.shiftedGrid ? shiftedGridLattice(luma, native.width, native.height) : null;
  // Older feature sets never read these values: zeros keep their vectors (and cost) unchanged.
  const tiles = options.tiles
    ? tileMaps(luma, native.width, native.height, noise, ela.elaPerTexture, ela.gradient, image.format === 'jpeg' ? coefficients : null, native)
    : null;
  const dql = options.v4 ? dqLikelihood(image.format === 'jpeg' ? coefficients : null, native) : null;
  const tiles32 = options.v4
    ? tileMaps(luma, native.width, native.height, noise, ela.elaPerTexture, ela.gradient, image.format === 'jpeg' ? coefficients : null, native, 32)
    : null;
  const chromaDq = options.chroma !== undefined ? chromaLikelihood(image.format === 'jpeg' ? options.chroma : null, native) : null;
  // A PNG/WebP has no earlier JPEG grid of its own to compare with: the search still runs (a
  // pasted JPEG region keeps its lattice), but the model never judges those formats anyway.
  const gt = options.gridTiles ? gridTiles(luma, native.width, native.height) : null;
  const rs = options.regionScan
    ? regionScan({
        luma,
        width: native.width,
        height: native.height,
        noise,
        elaPerTexture: ela.elaPerTexture,
        gradient: ela.gradient,
        coefficients: image.format === 'jpeg' ? coefficients : null,
        origin: native,
        dql: dql?.map ?? null,
      })
    : null;

  const values: number[] = [
    (quantization?.lumaQuality ?? 100) / 100,
    dq.available ? 1 : 0,
    dq.score,
    dq.maxScore,
    dq.gapRate,
    dq.primaryGap,
    portraitDq,
    portraitGap,
    grid.current,
    grid.shifted,
    log1p(ela.meanError),
    quantile(zE, 0.99),
    frac4 / nBlocks,
    largestCluster(zE, ela.elaPerTexture.cols, ela.elaPerTexture.rows, 3) / nBlocks,
    Math.log((quantile(ela.elaPerTexture.values, 0.95) + 0.05) / (quantile(ela.elaPerTexture.values, 0.5) + 0.05)),
    log1p(quantile(noise.values, 0.5)),
    quantile(zN, 0.01),
    quantile(zN, 0.99),
    largestCluster(negN, noise.cols, noise.rows, 3) / nBlocks,
    largestCluster(zN, noise.cols, noise.rows, 3) / nBlocks,
    Math.log((noiseP95 + 0.05) / (noiseP5 + 0.05)),
    ...ZONE_KINDS.flatMap((k) => {
      const f = zoneFeatures[k];
      // Absent zone: the neutral value (z = 0, same texture as the median block).
      return f ? [f.elaZ, f.noiseZ, f.gradRatio] : [0, 0, 0];
    }),
    copyMove.score,
    log1p(copyMove.votes),
    spectral.lumaPeakMax,
    spectral.lumaPeakTop,
    log1p(spectral.lumaPeakCount),
    spectral.chromaPeakMax,
    spectral.chromaPeakTop,
    log1p(spectral.chromaPeakCount),
    spectral.highFreqShare,
    cues.darkBorder,
    cues.darkBorderSides,
    cues.glareShare,
    cues.glareTileMax,
    cues.saturationP50,
    cues.saturationP95,
    cues.blackLevel / 255,
    cues.whiteLevel / 255,
    cues.blueCast / 255,
    cues.colorfulness / 100,
    cues.sharpness,
    history.available ? 1 : 0,
    log1p(history.histRoughMean),
    log1p(history.histRoughTop),
    log1p(history.histRoughMax),
    history.histRoughShare,
    // Per cent of coefficients: keeps the trees' split points in a readable range.
    history.recompressChanged * 100,
    history.recompressIdentical,
    ...(tiles ? tiles.features : TILE_FEATURE_NAMES.map(() => 0)),
    ...(dql ? dql.features : DQL_FEATURE_NAMES.map(() => 0)),
    ...(options.v4 && shifted?.available ? [shifted.best, shifted.gap, shifted.agreement] : [0, 0, 0]),
    ...(tiles32 ? tiles32.features : TILE32_FEATURE_NAMES.map(() => 0)),
    ...(chromaDq ? [...chromaDq.cb.features, ...chromaDq.cr.features] : CHROMA_DQL_FEATURE_NAMES.map(() => 0)),
    ...(gt ? gt.features : GRID_TILE_FEATURE_NAMES.map(() => 0)),
    // Feature set v7: computed by the pipeline from the metadata (zeros for sets that never read them).
    ...(options.header ?? HEADER_FEATURE_NAMES.map(() => 0)),
    ...(rs ? rs.features : REGION_SCAN_FEATURE_NAMES.map(() => 0)),
  ];
  if (values.length !== FEATURE_NAMES.length) throw new Error(`feature count ${values.length} ≠ ${FEATURE_NAMES.length}`);
  const vec = new Float32Array(values.map((v) => (Number.isFinite(v) ? v : 0)));
  return {
    values: vec,
    parts: {
      doubleCompression: dq,
      compressionHistory: history,
      shiftedGrid: shifted,
      tiles,
      dqLikelihood: dql,
      tiles32,
      chromaDq,
      gridTiles: gt,
      regionScan: rs,
      grid,
      copyMove,
      spectral,
      cues,
      local: { elaP99Z: values[FEATURE_NAMES.indexOf('ela_p99_z')]!, elaCluster: values[FEATURE_NAMES.indexOf('ela_cluster')]!, noiseLowCluster: values[FEATURE_NAMES.indexOf('noise_low_cluster')]!, zones: zoneFeatures },
    },
  };
}

/**
 * The likelihood of forensics/dq-likelihood.ts on each chroma plane, over the same native crop
 * scaled by the plane's subsampling (a 4:2:0 plane has half the blocks per side). Unavailable
 * (zeros) for a grayscale file or anything the coefficient reader does not cover.
 */
export interface ChromaDq {
  cb: DqLikelihood;
  cr: DqLikelihood;
  /** Luma pixels per chroma pixel (2, 2 for 4:2:0): boxes are in the chroma plane's frame. */
  scale: [number, number];
}

export function chromaLikelihood(chroma: ComponentCoefficients[] | null, native: { left: number; top: number; width: number; height: number }): ChromaDq {
  const luma = chroma?.[0];
  const cb = chroma?.[1];
  const sx = luma && cb ? luma.h / cb.h : 1;
  const sy = luma && cb ? luma.v / cb.v : 1;
  const one = (c: ComponentCoefficients | undefined): DqLikelihood => {
    if (!luma || !c || c.h !== cb?.h || c.v !== cb?.v) return dqLikelihood(null, native);
    return dqLikelihood(c, { left: Math.round(native.left / sx), top: Math.round(native.top / sy), width: Math.floor(native.width / sx), height: Math.floor(native.height / sy) });
  };
  return { cb: one(cb), cr: one(chroma?.[2]), scale: [sx, sy] };
}

/** 2×2 box average: the copy-move search runs on a ≤384-px luma to stay within budget. */
function halve(luma: Float32Array, width: number, height: number): { luma: Float32Array; width: number; height: number } {
  const w = width >> 1;
  const h = height >> 1;
  const out = new Float32Array(w * h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = 2 * y * width + 2 * x;
      out[y * w + x] = (luma[i]! + luma[i + 1]! + luma[i + width]! + luma[i + width + 1]!) / 4;
    }
  }
  return { luma: out, width: w, height: h };
}
