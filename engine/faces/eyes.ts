import { runModel, type LoadedModel } from './models.js';
import { boxToAffine, distance, warpToTensor, type Point, type RgbImage } from './image.js';

export interface EyeState {
  /** Mean P(closed) of both eyes from the `fr_eye` classifier. */
  closed: number;
  /** Mean eye aspect ratio of both eyes from the 68 landmarks. */
  ear: number;
  /** v10 (`blink.confirmDimClosed`): each eye's P(closed), left then right, and the gain the crops were read with. */
  each?: { closed: [number, number]; gain: number };
}

function softmax2(a: number, b: number): [number, number] {
  const m = Math.max(a, b);
  const ea = Math.exp(a - m);
  const eb = Math.exp(b - m);
  return [ea / (ea + eb), eb / (ea + eb)];
}

/** Eye aspect ratio on six points p1..p6 (iBUG 36–41 or 42–47). */
export function eyeAspectRatio(p: Point[], first: number): number {
  const [p1, p2, p3, p4, p5, p6] = [0, 1, 2, 3, 4, 5].map((i) => p[first + i]!) as Point[];
  return (distance(p2!, p6!) + distance(p3!, p5!)) / (2 * distance(p1!, p4!));
}

/**
 * Both signals are kept: the classifier sees lids the landmark model smooths over, and the
 * aspect ratio still moves where the classifier saturates. Either is judged against the person's
 * own open-eye baseline, never as an absolute value.
 */
export class EyeModel {
  constructor(private readonly model: LoadedModel) {}

  private async closedProbability(img: RgbImage, landmarks: Point[], corners: [number, number], lids: number[], gain: number): Promise<number> {
    const cx = lids.reduce((s, i) => s + landmarks[i]![0], 0) / lids.length;
    const cy = lids.reduce((s, i) => s + landmarks[i]![1], 0) / lids.length;
    const side = 1.6 * distance(landmarks[corners[0]]!, landmarks[corners[1]]!);
    const box = { x: cx - side / 2, y: cy - side / 2, width: side, height: side };
    const tensor = warpToTensor(img, boxToAffine(box, 24, 24), 24, 24, { order: 'gray', mean: [0], std: [255 / gain] });
    // v7: a brightened crop is clipped where a camera would clip (the classifier saw 0..1 in training).
    if (gain !== 1) for (let i = 0; i < tensor.length; i++) tensor[i] = Math.min(1, tensor[i]!);
    const raw = Object.values(await runModel(this.model, tensor, [1, 1, 24, 24]))[0]!;
    // The exported graph may or may not end in a softmax; normalising again is harmless.
    const probs = raw[0]! >= 0 && raw[1]! >= 0 && Math.abs(raw[0]! + raw[1]! - 1) < 1e-3 ? [raw[0]!, raw[1]!] : softmax2(raw[0]!, raw[1]!);
    return probs[0]!;
  }

  /**
   * `gain` (v7, ≥ 1): the crop is brightened by this factor before the classifier (a dim room:
   * `eyeGain`). 1 = the crop as captured, as in v1–v5.
   */
  async state(img: RgbImage, landmarks: Point[], gain = 1, each = false): Promise<EyeState> {
    const left = await this.closedProbability(img, landmarks, [36, 39], [37, 38, 40, 41], gain);
    const right = await this.closedProbability(img, landmarks, [42, 45], [43, 44, 46, 47], gain);
    return { closed: (left + right) / 2, ear: (eyeAspectRatio(landmarks, 36) + eyeAspectRatio(landmarks, 42)) / 2, ...(each ? { each: { closed: [left, right] as [number, number], gain } } : {}) };
  }
}

/**
 * v7: the gain that brings a dimly lit face to `targetLuma` (sRGB 0–255) for the eye classifier,
 * from the mean linear colour of the cheeks-and-nose patch (which a blink does not change, so the
 * gain does not follow the lids). Never below 1 (a bright face is left as captured), at most `maxGain`
 * (beyond it the crop is sensor noise).
 */
export function eyeGain(skinRgb: [number, number, number], targetLuma: number, maxGain: number): number {
  const y = 0.2126 * skinRgb[0] + 0.7152 * skinRgb[1] + 0.0722 * skinRgb[2];
  const srgb = 255 * (y <= 0.0031308 ? 12.92 * y : 1.055 * y ** (1 / 2.4) - 0.055);
  return srgb > 0 ? Math.min(maxGain, Math.max(1, targetLuma / srgb)) : maxGain;
}

/**
 * v7: eye aspect ratio from the 468-point face mesh (the six points of each eye that correspond to
 * the 68-point model's 36–41 / 42–47: corners 33/133 and 362/263, lids 160/158 over 144/153 and
 * 385/387 over 380/373). The mesh runs on a roll-aligned crop 1.5 × the face box and follows the
 * lids on faces where the 68-point model smooths them over.
 */
export function meshEyeAspectRatio(mesh: readonly (readonly [number, number, number])[]): number {
  const d = (i: number, j: number) => Math.hypot(mesh[i]![0] - mesh[j]![0], mesh[i]![1] - mesh[j]![1]);
  const right = (d(160, 144) + d(158, 153)) / (2 * d(33, 133));
  const left = (d(385, 380) + d(387, 373)) / (2 * d(362, 263));
  return (right + left) / 2;
}
