import { runModel, type LoadedModel } from './models.js';
import { fitSimilarity } from './geometry.js';
import { warpToTensor, type Point, type RgbImage, type TensorLayout } from './image.js';
import type { TModelStamp } from '../../domain/checks.js';

/**
 * A face recogniser: five landmarks in, a unit-length embedding out. Kept behind this interface
 * because the default model's licence is unclear; SFace (OpenCV Zoo, Apache-2.0) replaces it by
 * setting `models.recognizer` in the engine settings. Thresholds are per model: recalibrate with
 * `npm run bench:faces` when switching.
 */
export interface FaceRecognizer {
  readonly stamp: TModelStamp;
  embed(img: RgbImage, fivePoints: Point[]): Promise<Float32Array>;
}

/** ArcFace's 112×112 template, in YuNet's point order (image-left eye first). */
const ARCFACE_TEMPLATE: Point[] = [
  [38.2946, 51.6963],
  [73.5318, 51.5014],
  [56.0252, 71.7366],
  [41.5493, 92.3655],
  [70.7299, 92.2041],
];

function normalise(v: Float32Array): Float32Array {
  let n = 0;
  for (const x of v) n += x * x;
  n = Math.sqrt(n) || 1;
  return v.map((x) => x / n);
}

export function cosineSimilarity(a: Float32Array, b: Float32Array): number {
  let dot = 0, na = 0, nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return dot / (Math.sqrt(na * nb) || 1);
}

class AlignedRecognizer implements FaceRecognizer {
  constructor(
    private readonly model: LoadedModel,
    private readonly layout: TensorLayout,
  ) {}

  get stamp(): TModelStamp {
    return this.model.stamp;
  }

  async embed(img: RgbImage, fivePoints: Point[]): Promise<Float32Array> {
    // Map template (output) coordinates to the image: that is the warp's sampling map.
    const map = fitSimilarity(ARCFACE_TEMPLATE, fivePoints);
    const tensor = warpToTensor(img, map, 112, 112, this.layout);
    const out = await runModel(this.model, tensor, [1, 3, 112, 112]);
    return normalise(Object.values(out)[0]!);
  }
}

/** `fr_feature.onnx`: BGR, (x − 127) / 128 — per the models README. */
export function createFrFeatureRecognizer(model: LoadedModel): FaceRecognizer {
  return new AlignedRecognizer(model, { order: 'bgr', mean: [127, 127, 127], std: [128, 128, 128] });
}

/**
 * SFace: OpenCV's FaceRecognizerSF feeds the aligned crop as `blobFromImage(img, 1, 112×112,
 * swapRB=true)`, i.e. RGB 0–255 without normalisation. Not available on this machine to test.
 */
export function createSFaceRecognizer(model: LoadedModel): FaceRecognizer {
  return new AlignedRecognizer(model, { order: 'rgb', mean: [0, 0, 0], std: [1, 1, 1] });
}
