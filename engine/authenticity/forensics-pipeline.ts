import type { DecodedImage } from './image/decode.js';
import { decodeForForensics } from './image/decode.js';
import { analyzeMetadata, type MetadataResult } from './metadata/metadata-analysis.js';
import { extractFeatures, type FeatureVector } from './features.js';
import { readAllCoefficients, readLumaCoefficients } from './image/jpeg-coefficients.js';
import { lumaTableOf } from './metadata/jpeg-structure.js';
import type { AuthenticitySettings } from './settings.js';
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
  const v6 = settings.featureSet === 'v6';
  const v5 = settings.featureSet === 'v5' || v6;
  const all = v5 && image.format === 'jpeg' ? readAllCoefficients(input.bytes) : null;
  const coefficients = image.format === 'jpeg' ? (v5 ? (all?.[0] ?? null) : readLumaCoefficients(input.bytes)) : null;
  const features = await extractFeatures(image, metadata.quantization, lumaTable, input.zones ?? [], coefficients, {
    shiftedGrid: settings.shiftedGridMinAgreement !== undefined,
    tiles: settings.featureSet === 'v3' || settings.featureSet === 'v4' || v5,
    v4: settings.featureSet === 'v4' || v5,
    ...(v5 ? { chroma: all } : {}),
    gridTiles: v6,
  });
  return { image, metadata, features };
}
