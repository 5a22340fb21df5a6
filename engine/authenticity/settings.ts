import { z } from 'zod';
import { TABLE_FAMILIES } from './metadata/table-families.js';

/**
 * Settings of the authenticity engine. An engine profile pins one settings object; any change
 * to thresholds or the model is a new `version`, so a Case re-run with its stamp is reproducible.
 */
export const ZAuthenticitySettings = z.object({
  version: z.string().min(1),
  /** Which prefix of the feature vector the model reads (features.ts FEATURE_SETS); absent = v1. */
  featureSet: z.enum(['v1', 'v2', 'v3', 'v4', 'v5', 'v6', 'v7', 'v8']).default('v1'),
  /**
   * Feature set v7 (settings v8): the catalogue of real cameras' luminance tables by EXIF Make /
   * Model (metadata/camera-headers.ts), sha256-pinned like the model. Required by feature set v7.
   */
  cameraHeaders: z.object({ file: z.string().min(1), sha256: z.string().regex(/^[0-9a-f]{64}$/) }).optional(),
  /** Directory holding the model file; defaults to this package's `model/` folder. */
  modelDir: z.string().optional(),
  model: z.object({
    file: z.string().min(1),
    name: z.string().min(1),
    sha256: z.string().regex(/^[0-9a-f]{64}$/),
  }),
  /**
   * Formats the classifier was trained on; for other formats it is not run and a weak
   * `not_camera_jpeg` signal says so. Absent = every format (settings v1, kept as released).
   */
  modelFormats: z.array(z.enum(['jpeg', 'png', 'webp'])).optional(),
  /** Classifier risk (1 − P(clean)) at or above which the model's finding is weak / strong. */
  modelReviewThreshold: z.number().min(0).max(1),
  modelStrongThreshold: z.number().min(0).max(1),
  /** Primary-quantisation gap score (0..1) above which the file is called double-compressed. */
  doubleCompressionThreshold: z.number().min(0).max(1),
  /**
   * Shifted-grid search (forensics/shifted-grid.ts): a first save on another 8×8 grid is called
   * when this many of its 3 frequencies agree on one foreign grid phase. Absent = not searched
   * (settings v1 and v2, kept as released).
   */
  shiftedGridMinAgreement: z.number().int().min(2).max(3).optional(),
  /**
   * Quantisation-table families (metadata/table-families.ts) that cameras write. A file whose
   * luminance table matches known families, none of them in this list, was last saved by
   * software: a strong `editor_quantization_detected`. Absent = not checked (settings v1–v3).
   */
  cameraTableFamilies: z.array(z.enum(TABLE_FAMILIES)).optional(),
  /**
   * When true the score never ranks below the status: a `failed` result scores at least
   * `modelStrongThreshold` and a `review` one at least `modelReviewThreshold`, whichever source
   * the finding came from. Absent = the plain noisy-OR (settings v1–v3).
   */
  scoreFloorsFromStatus: z.boolean().optional(),
  /**
   * Settings v5: metadata rules re-measured on real genuine captures (README decision 13): the
   * APP13 IPTC container is not read as Photoshop, EXIF size / ModifyDate findings are evidence
   * only, the thumbnail check needs a same-shape thumbnail showing another picture, and the weak
   * "IJG tables below 85" rule is off. Absent = the v1–v4 rules, unchanged.
   */
  realCaptureRules: z.boolean().optional(),
  /** Settings v5: how the model thresholds were chosen, stated in every outcome's evidence. */
  operatingPoint: z.string().optional(),
  /** Share of textured blocks that must move together to call copy-move. */
  copyMoveThreshold: z.number().min(0).max(1),
  /** Clock tolerance when EXIF carries no time-zone offset: any zone on earth is possible. */
  captureTimeToleranceMinutes: z.number().nonnegative(),
  /** When true, a file without camera EXIF is itself a weak signal (gallery uploads, not in-page capture). */
  expectCameraMetadata: z.boolean(),
  limits: z.object({
    maxInputPixels: z.number().int().positive(),
    minSide: z.number().int().positive(),
    maxBytes: z.number().int().positive(),
  }),
});
export type AuthenticitySettings = z.input<typeof ZAuthenticitySettings>;

/** Released in engine profile ep-2026.11-1; never edited (engine/profiles.test.ts pins it). */
export const AUTHENTICITY_SETTINGS_V1: AuthenticitySettings = {
  version: '1',
  model: {
    file: 'authenticity-gbt-v1.onnx',
    name: 'authenticity-gbt-v1',
    sha256: '7aa0b9b30a183f2b35a4b9699dd7666578a806672633d16c3b937374ef00ec8d',
  },
  // From tools/authenticity/training/metrics.json (5-fold, document-grouped CV on the train split): the risk that
  // 5% / 1% of clean captures exceed; rule thresholds just above the clean 99th percentile.
  modelReviewThreshold: 0.5375,
  modelStrongThreshold: 0.8864,
  doubleCompressionThreshold: 0.15,
  copyMoveThreshold: 0.09,
  captureTimeToleranceMinutes: 14 * 60 + 30,
  expectCameraMetadata: false,
  limits: { maxInputPixels: 40_000_000, minSide: 200, maxBytes: 30 * 1024 * 1024 },
};

/**
 * v2: the same rules, plus the compression-history features (exact JPEG coefficients:
 * double-quantisation roughness and recompression stability) and a model trained on them.
 */
export const AUTHENTICITY_SETTINGS_V2: AuthenticitySettings = {
  ...AUTHENTICITY_SETTINGS_V1,
  version: '2',
  featureSet: 'v2',
  // Trained on JPEG only: a PNG of a decoded, edited photo gave it arbitrary risks (measured).
  modelFormats: ['jpeg'],
  model: {
    file: 'authenticity-gbt-v2.onnx',
    name: 'authenticity-gbt-v2',
    sha256: '488ed22495146301137cce7c7d287d2c4a79fd5fc8cf2a17229268ec4d592df1',
  },
  // tools/authenticity/training/metrics.json: the risk that 5% / 1% of clean captures exceed in cross-validation.
  modelReviewThreshold: 0.4819,
  modelStrongThreshold: 0.8354,
};

/**
 * v3: v2 (same features, model and thresholds) plus the shifted-grid rule: an earlier JPEG save
 * on another 8×8 grid (a crop between two saves) is a strong `double_compression_detected`.
 * All three frequencies agreeing: 0 of 624 clean training and test captures (README decision 11).
 */
export const AUTHENTICITY_SETTINGS_V3: AuthenticitySettings = {
  ...AUTHENTICITY_SETTINGS_V2,
  version: '3',
  shiftedGridMinAgreement: 3,
};

/**
 * v4: v3 (same features, model, thresholds and shifted-grid rule) plus
 *  - the quantisation-table family check. The camera families are those the clean captures of
 *    the training split carry (its 444 clean captures use exactly these five; the 180 held-out
 *    ones no other); README decision 12 says why mozjpeg's tables 2–5 stand in for vendor
 *    tables there;
 *  - a score that never ranks below the status (a strong rule finding used to score 0.5 + a
 *    little, below the model's own review threshold).
 */
export const AUTHENTICITY_SETTINGS_V4: AuthenticitySettings = {
  ...AUTHENTICITY_SETTINGS_V3,
  version: '4',
  cameraTableFamilies: ['annex_k', 'mssim_tuned', 'imagemagick_robidoux', 'psnr_hvs_tuned', 'klein_silverstein_carney'],
  scoreFloorsFromStatus: true,
};


/**
 * v5 (issue 13): calibrated on REAL genuine images instead of the generator's simulated camera.
 *  - feature set v3: the v2 vector plus within-image tile maps (noise, error level, JPEG grid
 *    alignment, double quantisation per block: forensics/tile-maps.ts);
 *  - model v3 (JSON trees, training/train_v3.py): real genuine camera, scanner, document and
 *    browser-canvas JPEGs as negatives, attacks applied to real images and the generated
 *    attacks as positives; thresholds = the out-of-fold risk that 5 % / 1 % of the REAL genuine
 *    tuning images exceed (training/metrics-v3.json);
 *  - metadata rules re-measured on real captures (`realCaptureRules`), table families as v4
 *    (no real genuine file of the corpus carries a non-camera family).
 */
export const AUTHENTICITY_SETTINGS_V5: AuthenticitySettings = {
  ...AUTHENTICITY_SETTINGS_V4,
  version: '5',
  featureSet: 'v3',
  model: {
    file: 'authenticity-gbt-v3.json',
    name: 'authenticity-gbt-v3',
    sha256: 'cdba3ea718417fb0225f69cb8e1d5efeaf10e5ea842cae4bdb42da49bc4930a6',
  },
  // training/metrics-v3.json: out-of-fold risk exceeded by 5 % / 1 % of the 299 real genuine tuning images.
  modelReviewThreshold: 0.8352,
  modelStrongThreshold: 0.964,
  // Off (a primary gap never exceeds 1): on the real genuine tuning images the pixel-domain
  // primary-gap rule fired on 13 % (camera 8 %, browser canvas 15 %, document images 64 %), and
  // at their 99th percentile (0.98) it caught none of the attacks on real images. The value stays
  // a model input (dq_primary_gap) and in the evidence.
  doubleCompressionThreshold: 1,
  realCaptureRules: true,
  operatingPoint: 'review = model risk exceeded by 5 % of real genuine tuning images (camera, scanner, document, browser canvas; out-of-fold), failed = 1 %',
};

/**
 * Settings v6 (engine profile ep-2026.11-6, issue 13 continued): feature set v4 and model v4.
 *  - aligned double JPEG compression as a likelihood with an estimated first quantisation step
 *    per frequency, against a one-save law whose envelope is fitted to the same histogram, and
 *    the per-block map it gives (32-px tiles that look compressed once inside an image compressed
 *    twice: forensics/dq-likelihood.ts), shown as `double_quantisation` evidence and regions;
 *  - the shifted-grid search's numbers as model inputs (its rule stays as in v3–v5);
 *  - the within-image tile maps also at 32 px;
 *  - model v4 (training/train_v4.py) on the same real tuning split and recipe as v3; thresholds
 *    = the out-of-fold risk that 5 % / 1 % of the real genuine tuning images exceed;
 *  - camera table families rebuilt from REAL captures (decision 12 asked for it): the 298 real
 *    genuine tuning files (camera, scanner, document, browser canvas) carry Annex K or a vendor's
 *    own table and nothing else, so only Annex K stays a camera family; a table of another
 *    catalogued family (mozjpeg's MS-SSIM, ImageMagick, PSNR-HVS, Klein, … presets) was written
 *    by software. Other rules as v5.
 */
export const AUTHENTICITY_SETTINGS_V6: AuthenticitySettings = {
  ...AUTHENTICITY_SETTINGS_V5,
  version: '6',
  featureSet: 'v4',
  model: {
    file: 'authenticity-gbt-v4.json',
    name: 'authenticity-gbt-v4',
    sha256: '876df2339910c0d34d70ae9f158039f1abd19bb6d15e25b28648845297d1244b',
  },
  // training/metrics-v4.json: out-of-fold risk exceeded by 5 % / 1 % of the 283 real genuine tuning images.
  modelReviewThreshold: 0.7414,
  modelStrongThreshold: 0.9639,
  cameraTableFamilies: ['annex_k'],
  operatingPoint: 'review = model risk exceeded by 5 % of real genuine tuning images (camera, scanner, document, browser canvas; out-of-fold), failed = 1 %',
};

/**
 * Settings v7 (in no engine profile: not adopted, docs/decisions.md; issue 13 continued): feature set v5 and model v5.
 *  - feature set v5 = v4 + the double-quantisation likelihood and its per-block map on the two
 *    chroma planes (the coefficient reader now keeps every component), shown as
 *    `chroma_double_quantisation` evidence and joined to a `tampering_suspected` signal's regions;
 *  - model v5 (training/train_v5.py): the v4 recipe on the same real tuning split plus the
 *    round-2 attacks on the real tuning images saved with REAL editors' headers (Photoshop's own
 *    tables, GIMP and paint.net Annex K: attacks/editor-tables.json) and the generated documents
 *    of corpus recipe v3 (the simulated camera writes real cameras' headers); thresholds = the
 *    out-of-fold risk that 5 % / 1 % of the real genuine tuning images exceed;
 *  - rules as v6 (table families: Annex K only).
 */
export const AUTHENTICITY_SETTINGS_V7: AuthenticitySettings = {
  ...AUTHENTICITY_SETTINGS_V6,
  version: '7',
  featureSet: 'v5',
  model: {
    file: 'authenticity-gbt-v5.json',
    name: 'authenticity-gbt-v5',
    sha256: 'abe6e1378dfa83faeb52997462098a59d4843e6429c0579283d51cbba212bb6c',
  },
  // training/metrics-v5.json: out-of-fold risk exceeded by 5 % / 1 % of the 283 real genuine tuning images.
  modelReviewThreshold: 0.8554,
  modelStrongThreshold: 0.9911,
};

/**
 * Feature set v7's catalogue of real cameras' luminance tables by EXIF Make / Model
 * (tools/authenticity/real/build-camera-headers.ts: genuine camera and scanner files of the tuning
 * split, 201 files, 152 entries, 39 makes). Pinned here; a rebuilt catalogue is a new file.
 */
export const CAMERA_HEADERS_V1 = { file: 'camera-headers-v1.json', sha256: '4a4294fcd1eb238beaa93dfac6bca54e90984e8a38bf7f8e3b2c7a751551d425' } as const;

/**
 * Settings v8 (engine profile ep-2026.11-9; issue 13 continued, wt25c): feature set v7 and model v6.
 *  - feature set v7 = v6's layout without running the per-tile grid search (values 0) plus the
 *    EXIF camera vs quantisation-table check (metadata/camera-headers.ts, catalogue CAMERA_HEADERS_V1);
 *  - model v6 (training/train_v7.py): the v5 recipe (scene cues held constant, real genuine
 *    negatives, clean as heavy as all attacks, folds grouped by source) on the rebuilt real tuning
 *    split — rounds 1 and 2, splice round 3 and the 30 tuning phone photos of wt19b — without
 *    generated documents; chosen on the tuning split out of fold only (docs/notes/wt25c.md);
 *    thresholds = the out-of-fold risk that 5 % / 1 % of the 313 real genuine tuning images exceed;
 *  - rules as v6 (table families: Annex K only).
 */
export const AUTHENTICITY_SETTINGS_V8: AuthenticitySettings = {
  ...AUTHENTICITY_SETTINGS_V6,
  version: '8',
  featureSet: 'v7',
  model: {
    file: 'authenticity-gbt-v6.json',
    name: 'authenticity-gbt-v6',
    sha256: '3e72a2c85a00b9cbcb5794139595d22d28c57b3f8836d71cad5dcb3646f80498',
  },
  cameraHeaders: { ...CAMERA_HEADERS_V1 },
  // training/metrics-v6.json: out-of-fold risk exceeded by 5 % / 1 % of the 313 real genuine tuning images.
  modelReviewThreshold: 0.7649,
  modelStrongThreshold: 0.9827,
};

/**
 * Settings v9 (issue 13 continued, wt26a): feature set v8 and model v7.
 *  - feature set v8 = v7 plus the region scan statistics (forensics/region-scan.ts): for windows of
 *    a few sizes, how much the mean of each within-image map (noise, error level, fine-detail share,
 *    per-block double quantisation, the double-compression likelihood map) inside differs from the
 *    rest of the same image, in standard errors; the maximum over windows, the combined statistic,
 *    and the best window as evidence (it joins a `tampering_suspected` signal's regions);
 *  - model v7 (training/train_v8.py): model v6's recipe on the same real tuning rows with the 18
 *    new values; no generated documents; chosen on the tuning split out of fold only
 *    (docs/notes/wt26a.md); thresholds = out-of-fold risk exceeded by 5 % / 1 % of the 313 real
 *    genuine tuning images;
 *  - rules as v6/v8 (table families: Annex K only), camera catalogue CAMERA_HEADERS_V1.
 */
export const AUTHENTICITY_SETTINGS_V9: AuthenticitySettings = {
  ...AUTHENTICITY_SETTINGS_V8,
  version: '9',
  featureSet: 'v8',
  model: {
    file: 'authenticity-gbt-v7.json',
    name: 'authenticity-gbt-v7',
    sha256: '0d7c707cfef2946075372d098d04f2d97a790bc13480d84ec85791268a00def0',
  },
  // training/metrics-v7.json: out-of-fold risk exceeded by 5 % / 1 % of the 313 real genuine tuning images.
  modelReviewThreshold: 0.7171,
  modelStrongThreshold: 0.9856,
};

export const DEFAULT_AUTHENTICITY_SETTINGS: AuthenticitySettings = AUTHENTICITY_SETTINGS_V9;
