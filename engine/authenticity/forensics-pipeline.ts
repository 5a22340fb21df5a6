import type { DecodedImage } from './image/decode.js';
import { decodeForForensics } from './image/decode.js';
import { analyzeMetadata, type MetadataResult } from './metadata/metadata-analysis.js';
import { extractFeatures, type FeatureVector } from './features.js';
import { readAllCoefficients, readLumaCoefficients } from './image/jpeg-coefficients.js';
import { lumaTableOf } from './metadata/jpeg-structure.js';
import type { AuthenticitySettings } from './settings.js';
import { AuthenticityError } from './errors.js';
import { headerFeatures, loadCameraHeaders } from './metadata/camera-headers.js';
import type { Zone } from './zones.js';

/**
 * Bytes → metadata findings + feature vector. The engine and the training-set builder both call
 * exactly this, so training and inference can never drift apart.
 */
export interface ForensicsInput {
  bytes: Buffer;
  zones?: Zone[];
  sessionStartedAt?: Date;
  submittedAt?: Date;
  /**
   * Training only (tools/authenticity/real/extract-real.ts): catalogue entries of these genuine
   * sources are ignored by the feature set v7 header check, so a tuning image (or an attack made
   * from it) never finds its own camera's table. The engine never sets it.
   */
  headerExcludeSources?: string[];
}

export interface ForensicsResult {
  image: DecodedImage;
  metadata: MetadataResult;
  features: FeatureVector;
}

export async function runForensics(input: ForensicsInput, settings: AuthenticitySettings): Promise<ForensicsResult> {
  const image = await decodeForForensics(input.bytes, settings);
  const metadata = await analyzeMetadata(
    input.bytes,
    { width: image.width, height: image.height, sessionStartedAt: input.sessionStartedAt, submittedAt: input.submittedAt },
    settings,
  );
  const lumaTable = lumaTableOf(metadata.structure.quantTables)?.values ?? null;
  // Feature sets v5 and v6 read the chroma planes too (one pass; its luma plane is readLumaCoefficients').
  // Feature set v8 = v7 plus the region scan statistics (forensics/region-scan.ts).
  const v8 = settings.featureSet === 'v8';
  const v7 = settings.featureSet === 'v7' || v8;
  // Feature set v7 keeps v6's layout but does not run the per-tile grid search (its 12 values stay
  // 0): on the tuning split it added no detection at the operating point (wt19b) and costs
  // 60–300 ms per image; the v7 model never reads them (held constant in training).
  const v6 = settings.featureSet === 'v6';
  const v5 = settings.featureSet === 'v5' || v6 || v7;
  let header: number[] | undefined;
  if (v7) {
    if (!settings.cameraHeaders) throw new AuthenticityError('model_unavailable', 'feature set v7 needs settings.cameraHeaders');
    const catalogue = loadCameraHeaders(settings.cameraHeaders.file, settings.cameraHeaders.sha256, settings.modelDir);
    const luma = image.format === 'jpeg' ? lumaTable : null;
    header = headerFeatures(catalogue, metadata.camera, luma, input.headerExcludeSources);
  }
  const all = v5 && image.format === 'jpeg' ? readAllCoefficients(input.bytes) : null;
  const coefficients = image.format === 'jpeg' ? (v5 ? (all?.[0] ?? null) : readLumaCoefficients(input.bytes)) : null;
  const features = await extractFeatures(image, metadata.quantization, lumaTable, input.zones ?? [], coefficients, {
    shiftedGrid: settings.shiftedGridMinAgreement !== undefined,
    tiles: settings.featureSet === 'v3' || settings.featureSet === 'v4' || v5,
    v4: settings.featureSet === 'v4' || v5,
    ...(v5 ? { chroma: all } : {}),
    gridTiles: v6,
    regionScan: v8,
    ...(header ? { header } : {}),
  });
  return { image, metadata, features };
}
