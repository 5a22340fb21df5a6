import { z } from 'zod';

/**
 * Settings of the authenticity engine. An engine profile pins one settings object; any change
 * to thresholds or the model is a new `version`, so a Case re-run with its stamp is reproducible.
 */
export const ZAuthenticitySettings = z.object({
  version: z.string().min(1),
  /** Directory holding the model file; defaults to this package's `model/` folder. */
  modelDir: z.string().optional(),
  model: z.object({
    file: z.string().min(1),
    name: z.string().min(1),
    sha256: z.string().regex(/^[0-9a-f]{64}$/),
  }),
  /** Classifier risk (1 − P(clean)) at or above which the model's finding is weak / strong. */
  modelReviewThreshold: z.number().min(0).max(1),
  modelStrongThreshold: z.number().min(0).max(1),
  /** Primary-quantisation gap score (0..1) above which the file is called double-compressed. */
  doubleCompressionThreshold: z.number().min(0).max(1),
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
export type AuthenticitySettings = z.infer<typeof ZAuthenticitySettings>;

export const DEFAULT_AUTHENTICITY_SETTINGS: AuthenticitySettings = {
  version: '1',
  model: {
    file: 'authenticity-gbt-v1.onnx',
    name: 'authenticity-gbt-v1',
    sha256: '7aa0b9b30a183f2b35a4b9699dd7666578a806672633d16c3b937374ef00ec8d',
  },
  // From training/metrics.json (5-fold, document-grouped CV on the train split): the risk that
  // 5% / 1% of clean captures exceed; rule thresholds just above the clean 99th percentile.
  modelReviewThreshold: 0.5375,
  modelStrongThreshold: 0.8864,
  doubleCompressionThreshold: 0.15,
  copyMoveThreshold: 0.09,
  captureTimeToleranceMinutes: 14 * 60 + 30,
  expectCameraMetadata: false,
  limits: { maxInputPixels: 40_000_000, minSide: 200, maxBytes: 30 * 1024 * 1024 },
};
