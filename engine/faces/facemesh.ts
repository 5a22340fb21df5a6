import { runModel, type LoadedModel } from './models.js';
import { warpToTensor, type Affine, type Box, type Point, type RgbImage } from './image.js';

/** A mesh point in image pixels; z is relative depth in the same pixel scale (smaller = nearer the camera). */
export type MeshPoint = [number, number, number];

export interface FaceMesh {
  points: MeshPoint[];
  /** The model's face-presence logit turned into a probability. */
  presence: number;
}

const SIDE = 192;

/**
 * MediaPipe Face Mesh (468 points, `mediapipe_facemesh_468.onnx`): RGB (x − 127.5)/127.5 on a
 * crop of 1.5 × the detector box, rotated so that the eyes are level (the model was trained on
 * roll-aligned crops). Points are mapped back to image pixels through the same rotation.
 */
export class FaceMeshModel {
  constructor(private readonly model: LoadedModel) {}

  /**
   * Input tensors (442 kB) kept for the next call, as the detector keeps its own: one per liveness
   * frame otherwise, garbage the collector then chases. Calls overlap (frames in flight), so a
   * tensor is taken for one call and given back after it; warpToTensor writes every value.
   */
  private readonly pool: Float32Array[] = [];

  async predict(img: RgbImage, box: Box, leftEye: Point, rightEye: Point): Promise<FaceMesh> {
    const theta = Math.atan2(rightEye[1] - leftEye[1], rightEye[0] - leftEye[0]);
    const side = 1.5 * Math.max(box.width, box.height);
    const cx = box.x + box.width / 2;
    const cy = box.y + box.height / 2;
    const k = side / SIDE;
    const cos = Math.cos(theta), sin = Math.sin(theta);
    const o = 0.5 - SIDE / 2;
    // output (u, v) → source (x, y): rotate by theta about the crop centre
    const map: Affine = [cos * k, -sin * k, cx + (cos * o - sin * o) * k, sin * k, cos * k, cy + (sin * o + cos * o) * k];
    const tensor = warpToTensor(img, map, SIDE, SIDE, { order: 'rgb', mean: [127.5, 127.5, 127.5], std: [127.5, 127.5, 127.5] }, this.pool.pop());
    let out: Awaited<ReturnType<typeof runModel>>;
    try {
      out = await runModel(this.model, tensor, [1, 3, SIDE, SIDE]);
    } finally {
      if (this.pool.length < 2) this.pool.push(tensor);
    }
    const raw = out.conv2d_20!;
    const flag = out.conv2d_30?.[0] ?? 0;
    const points: MeshPoint[] = [];
    for (let i = 0; i < 468; i++) {
      const dx = (raw[3 * i]! - SIDE / 2) * k;
      const dy = (raw[3 * i + 1]! - SIDE / 2) * k;
      points.push([cx + cos * dx - sin * dy, cy + sin * dx + cos * dy, raw[3 * i + 2]! * k]);
    }
    return { points, presence: 1 / (1 + Math.exp(-flag)) };
  }
}
