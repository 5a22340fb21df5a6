import { runModel, type LoadedModel } from './models.js';
import { boxToAffine, warpToTensor, type Box, type RgbImage } from './image.js';

function softmax(v: Float32Array): number[] {
  const m = Math.max(...v);
  const e = Array.from(v, (x) => Math.exp(x - m));
  const s = e.reduce((a, b) => a + b, 0);
  return e.map((x) => x / s);
}

/**
 * The crop Silent-Face-Anti-Spoofing trained on: the detector box scaled about its centre,
 * limited so that it fits the image, then shifted inside it.
 */
function contextBox(img: RgbImage, box: Box, scale: number): Box {
  const s = Math.min((img.height - 1) / box.height, (img.width - 1) / box.width, scale);
  const w = box.width * s;
  const h = box.height * s;
  const cx = box.x + box.width / 2;
  const cy = box.y + box.height / 2;
  const x = Math.min(Math.max(0, cx - w / 2), img.width - 1 - w);
  const y = Math.min(Math.max(0, cy - h / 2), img.height - 1 - h);
  return { x, y, width: w, height: h };
}

/** MiniFASNet V2 (×2.7 context) and V1SE (×4.0 context) averaged: P(real face). */
export class PresentationAttackDetector {
  constructor(
    private readonly v2: LoadedModel,
    private readonly v1se: LoadedModel,
  ) {}

  private async realProbability(model: LoadedModel, img: RgbImage, box: Box, scale: number): Promise<number> {
    const crop = contextBox(img, box, scale);
    // No antialiasing: the models were trained on plain bilinear resizes, and screen moiré is
    // part of what they look for.
    const tensor = warpToTensor(img, boxToAffine(crop, 80, 80), 80, 80, { order: 'bgr', mean: [0, 0, 0], std: [1, 1, 1], antialias: false });
    const raw = Object.values(await runModel(model, tensor, [1, 3, 80, 80]))[0]!;
    return softmax(raw)[1]!;
  }

  async score(img: RgbImage, box: Box): Promise<number> {
    const a = await this.realProbability(this.v2, img, box, 2.7);
    const b = await this.realProbability(this.v1se, img, box, 4.0);
    return (a + b) / 2;
  }
}
