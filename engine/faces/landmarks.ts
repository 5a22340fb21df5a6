import { runModel, type LoadedModel } from './models.js';
import { boxToAffine, warpToTensor, type Box, type Point, type RgbImage } from './image.js';

/** The 68-point iBUG landmark model (`fr_landmark`): gray 64×64 on a square crop of the face box. */
export class LandmarkModel {
  constructor(private readonly model: LoadedModel) {}

  async predict(img: RgbImage, box: Box): Promise<Point[]> {
    const side = Math.max(box.width, box.height);
    const square: Box = { x: box.x + box.width / 2 - side / 2, y: box.y + box.height / 2 - side / 2, width: side, height: side };
    const tensor = warpToTensor(img, boxToAffine(square, 64, 64), 64, 64, { order: 'gray', mean: [0], std: [256] });
    const out = await runModel(this.model, tensor, [1, 1, 64, 64]);
    const raw = Object.values(out)[0]!;
    const points: Point[] = [];
    for (let i = 0; i < 68; i++) points.push([square.x + raw[2 * i]! * side, square.y + raw[2 * i + 1]! * side]);
    return points;
  }
}
