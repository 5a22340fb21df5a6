import { performance } from 'node:perf_hooks';
import type { TCheckOutcome } from '../../domain/checks.js';
import { decide, modelSignal, round3 } from './decide.js';
import { AuthenticityError } from './errors.js';
import { runForensics } from './forensics-pipeline.js';
import { GRID_TILE_PX } from './forensics/grid-tiles.js';
import { REGION_SCAN_FEATURE_NAMES } from './forensics/region-scan.js';
import { FEATURE_SETS } from './features.js';
import { HEADER_FEATURE_NAMES, loadCameraHeaders } from './metadata/camera-headers.js';
import { loadClassifier, type Classifier } from './model/classifier.js';
import { DEFAULT_AUTHENTICITY_SETTINGS, ZAuthenticitySettings, type AuthenticitySettings } from './settings.js';
import { signal, type Signal } from './signals.js';
import type { Zone } from './zones.js';

export { AuthenticityError, AUTHENTICITY_ERROR_CODES, type AuthenticityErrorCode } from './errors.js';
export { AUTHENTICITY_SETTINGS_V1, AUTHENTICITY_SETTINGS_V2, AUTHENTICITY_SETTINGS_V3, AUTHENTICITY_SETTINGS_V4, AUTHENTICITY_SETTINGS_V5, AUTHENTICITY_SETTINGS_V6, AUTHENTICITY_SETTINGS_V7, AUTHENTICITY_SETTINGS_V8, AUTHENTICITY_SETTINGS_V9, CAMERA_HEADERS_V1, DEFAULT_AUTHENTICITY_SETTINGS, ZAuthenticitySettings, type AuthenticitySettings } from './settings.js';
export { SIGNAL_CODES, type Signal, type SignalCode } from './signals.js';

export interface AuthenticityInput {
  /** Original uploaded bytes, never re-encoded before this. */
  bytes: Buffer;
  kind: 'document_front' | 'document_back';
  sessionStartedAt?: Date;
  submittedAt?: Date;
  /** Optional zone boxes in the displayed (EXIF-oriented) frame: portrait, mrz, number. */
  zones?: Zone[];
}

export interface AuthenticityEngine {
  analyze(input: AuthenticityInput): Promise<TCheckOutcome>;
  close(): Promise<void>;
}

/**
 * Loads and verifies the classifier once (sha256 against the settings; a mismatch throws
 * `model_integrity_failed`), then analyses one image per call. Input problems throw
 * AuthenticityError with a PII-free code; the caller maps them to an `unavailable` outcome or
 * an upload rejection.
 */
export async function createAuthenticityEngine(settings: AuthenticitySettings = DEFAULT_AUTHENTICITY_SETTINGS): Promise<AuthenticityEngine> {
  const cfg = ZAuthenticitySettings.parse(settings);
  const classifier: Classifier = await loadClassifier(cfg);
  // Feature set v7 reads the camera header catalogue: verified at start like the model, not at the first upload.
  if (cfg.featureSet === 'v7' || cfg.featureSet === 'v8') {
    if (!cfg.cameraHeaders) throw new AuthenticityError('model_unavailable', 'feature set v7 needs settings.cameraHeaders');
    loadCameraHeaders(cfg.cameraHeaders.file, cfg.cameraHeaders.sha256, cfg.modelDir);
  }
  const component = `authenticity-engine@${cfg.version}`;
  let closed = false;

  return {
    async analyze(input) {
      if (closed) throw new Error('authenticity engine is closed');
      if (!Buffer.isBuffer(input.bytes)) throw new AuthenticityError('image_unreadable', 'bytes must be a Buffer');
      const t0 = performance.now();
      const forensics = await runForensics(input, cfg);
      const { metadata, features, image } = forensics;
      const signals: Signal[] = [...metadata.signals];
      const parts = features.parts;

      if (parts.doubleCompression.available && parts.doubleCompression.primaryGap > cfg.doubleCompressionThreshold) {
        signals.push(
          signal('double_compression_detected', 'weak', 'forensics', {
            primary_gap: round3(parts.doubleCompression.primaryGap),
            periodicity: round3(parts.doubleCompression.score),
          }),
        );
      }
      // An earlier save on another grid: the file was decoded, shifted or cropped, and saved again.
      // Strong (no clean capture reached it), but a re-save is not a forgery: the policy decides.
      if (cfg.shiftedGridMinAgreement !== undefined && parts.shiftedGrid?.available && parts.shiftedGrid.agreement >= cfg.shiftedGridMinAgreement) {
        signals.push(
          signal('double_compression_detected', 'strong', 'forensics', {
            aligned: false,
            grid_phase: parts.shiftedGrid.phase,
            agreeing_frequencies: parts.shiftedGrid.agreement,
            lattice_z: round3(parts.shiftedGrid.best),
          }),
        );
      }
      if (parts.copyMove.score > cfg.copyMoveThreshold && parts.copyMove.votes >= 40) {
        signals.push(
          signal('copy_move_detected', 'weak', 'forensics', {
            score: round3(parts.copyMove.score),
            votes: parts.copyMove.votes,
            shift: parts.copyMove.shift ?? [],
          }),
        );
      }

      // The classifier only judges the formats it was trained on. A document photo in a lossless
      // format was written by software, not by a camera or the hosted page: say so, weakly.
      const modelApplies = !cfg.modelFormats || cfg.modelFormats.includes(image.format);
      const prediction = modelApplies ? await classifier.predict(features.values) : null;
      const model = prediction ? modelSignal(prediction, cfg) : null;
      // Feature set v3: where the within-image maps disagree most, in the stored frame (EXIF
      // orientation not applied), so the dashboard can box the region behind a model finding.
      const regions = (parts.tiles?.boxes ?? []).map((b) => ({
        x: b.x + image.native.left,
        y: b.y + image.native.top,
        width: b.width,
        height: b.height,
        score: round3(b.score),
        tiles: b.tiles,
      }));
      // Feature set v4: 32-px tiles that look compressed once inside an image compressed twice
      // (aligned double quantisation with the estimated first step), in the stored frame.
      const onceCompressed = (parts.dqLikelihood?.boxes ?? []).map((b) => ({
        x: b.x + image.native.left,
        y: b.y + image.native.top,
        width: b.width,
        height: b.height,
        nats: round3(b.score),
        tiles: b.tiles,
      }));
      // Feature set v5: the same map on the chroma planes, scaled back to luma pixels.
      const chromaRegions = (plane: 'cb' | 'cr') => {
        const c = parts.chromaDq;
        if (!c) return [];
        const [sx, sy] = c.scale;
        return c[plane].boxes.map((b) => ({
          x: b.x * sx + image.native.left,
          y: b.y * sy + image.native.top,
          width: b.width * sx,
          height: b.height * sy,
          nats: round3(b.score),
          tiles: b.tiles,
        }));
      };
      const chromaOnce = parts.chromaDq ? { cb: chromaRegions('cb'), cr: chromaRegions('cr') } : null;
      // Feature set v6: 128-px tiles that agree on one earlier 8×8 grid other than the file's own
      // (a region pasted from another JPEG, or a crop between two saves), in the stored frame.
      const foreignGrid = (parts.gridTiles?.boxes ?? []).map((b) => ({
        x: b.x + image.native.left,
        y: b.y + image.native.top,
        width: b.width,
        height: b.height,
        grid_phase: b.phase,
        lattice_z: round3(b.score),
        tiles: b.tiles,
      }));
      // Feature set v8: the region scan's best window (the one region that differs most, as a whole), stored frame.
      const scanWindow = parts.regionScan?.box
        ? [{ x: parts.regionScan.box.x + image.native.left, y: parts.regionScan.box.y + image.native.top, width: parts.regionScan.box.width, height: parts.regionScan.box.height }]
        : [];
      if (model?.signal && (regions.length || onceCompressed.length || chromaOnce?.cb.length || chromaOnce?.cr.length || foreignGrid.length || scanWindow.length) && model.signal.code === 'tampering_suspected') {
        model.signal.evidence.regions = [...scanWindow, ...onceCompressed, ...foreignGrid, ...(chromaOnce?.cb ?? []), ...(chromaOnce?.cr ?? []), ...regions].flatMap((r) => [r.x, r.y, r.width, r.height]);
      }
      if (model?.signal) signals.push(model.signal);
      if (!modelApplies) signals.push(signal('not_camera_jpeg', 'weak', 'metadata', { format: image.format }));
      const floors = cfg.scoreFloorsFromStatus ? { review: cfg.modelReviewThreshold, strong: cfg.modelStrongThreshold } : undefined;
      const verdict = decide(signals, model?.risk ?? null, floors);

      return {
        check: 'authenticity',
        status: verdict.status,
        reasons: verdict.reasons,
        score: verdict.score,
        component,
        models: [{ name: classifier.name, sha256: classifier.sha256 }],
        evidence: {
          kind: input.kind,
          settings_version: cfg.version,
          // The operating point: what the model's thresholds mean (settings v5 states it).
          ...(cfg.operatingPoint ? { operating_point: { review_threshold: cfg.modelReviewThreshold, strong_threshold: cfg.modelStrongThreshold, calibration: cfg.operatingPoint } } : {}),
          image: { format: image.format, width: image.width, height: image.height, orientation: image.orientation },
          signals,
          metadata: metadata.evidence,
          model:
            model && prediction
              ? { applicable: true, risk: round3(model.risk), probabilities: Object.fromEntries(Object.entries(prediction.probabilities).map(([k, v]) => [k, round3(v)])) }
              : { applicable: false, risk: null, format: image.format },
          forensics: {
            double_compression: {
              available: parts.doubleCompression.available,
              periodicity: round3(parts.doubleCompression.score),
              max_periodicity: round3(parts.doubleCompression.maxScore),
              primary_gap: round3(parts.doubleCompression.primaryGap),
            },
            compression_history: {
              available: parts.compressionHistory.available,
              histogram_roughness_mean: round3(parts.compressionHistory.histRoughMean),
              histogram_roughness_max: round3(parts.compressionHistory.histRoughMax),
              rough_frequency_share: round3(parts.compressionHistory.histRoughShare),
              recompress_changed_share: round3(parts.compressionHistory.recompressChanged),
              recompress_identical_blocks: round3(parts.compressionHistory.recompressIdentical),
            },
            shifted_grid: parts.shiftedGrid
              ? {
                  available: parts.shiftedGrid.available,
                  lattice_z: round3(parts.shiftedGrid.best),
                  lead: round3(parts.shiftedGrid.gap),
                  agreeing_frequencies: parts.shiftedGrid.agreement,
                  grid_phase: parts.shiftedGrid.phase,
                }
              : null,
            ...(parts.tiles
              ? {
                  tiles: {
                    tile_px: 64,
                    cols: parts.tiles.cols,
                    rows: parts.tiles.rows,
                    origin: [image.native.left, image.native.top],
                    usable_tiles: parts.tiles.usable,
                    channels: Object.fromEntries(Object.entries(parts.tiles.summary).map(([k, v]) => [k, { p99_z: round3(v.p99_z), cluster_share: round3(v.cluster) }])),
                    boxes: regions,
                  },
                }
              : {}),
            ...(parts.dqLikelihood
              ? {
                  double_quantisation: {
                    available: parts.dqLikelihood.available,
                    // Per zig-zag frequency whose histogram carries a first quantisation: the file's
                    // step, the estimated first step and the log-likelihood ratio (nats) against one save.
                    frequencies: parts.dqLikelihood.selected,
                    map_tile_px: 32,
                    once_compressed_regions: onceCompressed,
                  },
                }
              : {}),
            ...(parts.chromaDq && chromaOnce
              ? {
                  // Feature set v5: per chroma plane, as above; regions in the stored frame's (luma) pixels.
                  chroma_double_quantisation: {
                    sampling_scale: parts.chromaDq.scale,
                    map_tile_px: 32 * parts.chromaDq.scale[0],
                    cb: { available: parts.chromaDq.cb.available, frequencies: parts.chromaDq.cb.selected, once_compressed_regions: chromaOnce.cb },
                    cr: { available: parts.chromaDq.cr.available, frequencies: parts.chromaDq.cr.selected, once_compressed_regions: chromaOnce.cr },
                  },
                }
              : {}),
            ...(parts.gridTiles
              ? {
                  // Feature set v6: per-tile search for an earlier grid; each region is a cluster of
                  // tiles whose decoded DCT coefficients sit on one lattice at one foreign phase.
                  foreign_grid_tiles: {
                    available: parts.gridTiles.available,
                    tile_px: GRID_TILE_PX,
                    most_flagged_phase: parts.gridTiles.modePhase,
                    regions: foreignGrid,
                  },
                }
              : {}),
            ...(cfg.featureSet === 'v7' || cfg.featureSet === 'v8'
              ? {
                  // Feature set v7: does the luminance table agree with the camera the EXIF names?
                  // (metadata/camera-headers.ts; -1 = not applicable: no Make, or a make the catalogue lacks.)
                  camera_header: Object.fromEntries(HEADER_FEATURE_NAMES.map((n, i) => [n.slice(4), round3(forensics.features.values[FEATURE_SETS.v6 + i]!)])),
                }
              : {}),
            ...(parts.regionScan
              ? {
                  // Feature set v8: the window whose traces differ most, as a whole, from the rest of
                  // the image (forensics/region-scan.ts): per channel the window statistic t (mean
                  // inside − outside in standard errors), their sum of squares q, stored-frame pixels.
                  region_scan: {
                    tile_px: 32,
                    statistics: Object.fromEntries(REGION_SCAN_FEATURE_NAMES.map((n, i) => [n.slice(3), round3(parts.regionScan!.features[i]!)])),
                    window: parts.regionScan.box
                      ? { x: parts.regionScan.box.x + image.native.left, y: parts.regionScan.box.y + image.native.top, width: parts.regionScan.box.width, height: parts.regionScan.box.height, q: parts.regionScan.box.q, t: parts.regionScan.box.t }
                      : null,
                  },
                }
              : {}),
            block_grid: { current: round3(parts.grid.current), shifted: round3(parts.grid.shifted) },
            copy_move: { score: round3(parts.copyMove.score), votes: parts.copyMove.votes },
            error_level: { p99_z: round3(parts.local.elaP99Z), cluster: round3(parts.local.elaCluster) },
            noise: { low_cluster: round3(parts.local.noiseLowCluster) },
            zones: parts.local.zones,
            spectral: Object.fromEntries(Object.entries(parts.spectral).map(([k, v]) => [k, round3(v)])),
            capture_cues: Object.fromEntries(Object.entries(parts.cues).map(([k, v]) => [k, round3(v)])),
          },
        },
        duration_ms: Math.round(performance.now() - t0),
      };
    },
    async close() {
      if (closed) return;
      closed = true;
      await classifier.close();
    },
  };
}
