import { runModel, type LoadedModel } from './models.js';
import { boxToAffine, distance, warpToTensor, type Point, type RgbImage } from './image.js';

export interface EyeState {
  /** Mean P(closed) of both eyes from the `fr_eye` classifier. */
  closed: number;
  /** Mean eye aspect ratio of both eyes from the 68 landmarks. */
  ear: number;
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

  private async closedProbability(img: RgbImage, landmarks: Point[], corners: [number, number], lids: number[]): Promise<number> {
    const cx = lids.reduce((s, i) => s + landmarks[i]![0], 0) / lids.length;
    const cy = lids.reduce((s, i) => s + landmarks[i]![1], 0) / lids.length;
    const side = 1.6 * distance(landmarks[corners[0]]!, landmarks[corners[1]]!);
    const box = { x: cx - side / 2, y: cy - side / 2, width: side, height: side };
    const tensor = warpToTensor(img, boxToAffine(box, 24, 24), 24, 24, { order: 'gray', mean: [0], std: [255] });
    const raw = Object.values(await runModel(this.model, tensor, [1, 1, 24, 24]))[0]!;
    // The exported graph may or may not end in a softmax; normalising again is harmless.
    const probs = raw[0]! >= 0 && raw[1]! >= 0 && Math.abs(raw[0]! + raw[1]! - 1) < 1e-3 ? [raw[0]!, raw[1]!] : softmax2(raw[0]!, raw[1]!);
    return probs[0]!;
  }

  async state(img: RgbImage, landmarks: Point[]): Promise<EyeState> {
    const left = await this.closedProbability(img, landmarks, [36, 39], [37, 38, 40, 41]);
    const right = await this.closedProbability(img, landmarks, [42, 45], [43, 44, 46, 47]);
    return { closed: (left + right) / 2, ear: (eyeAspectRatio(landmarks, 36) + eyeAspectRatio(landmarks, 42)) / 2 };
  }
}
