import type { LoadedModel } from './models.js';
import { runModel } from './models.js';
import sharp from 'sharp';
import { boxIou, type Box, type Point, type RgbImage } from './image.js';

export interface DetectedFace {
  box: Box;
  score: number;
  /** YuNet's five points: eye on the image left, eye on the image right, nose, mouth left, mouth right. */
  landmarks: [Point, Point, Point, Point, Point];
}

export interface DetectorOptions {
  minScore: number;
  nmsIou: number;
  minFaceFraction: number;
}

const STRIDES = [8, 16, 32] as const;

/**
 * The detector's input: `src`'s pixels as B, G, R planes of side `size` (top-left corner). Each
 * plane written through its own view with running indices (every liveness frame passes here);
 * the same values as one index computation per pixel (detector.test.ts).
 */
export function writeBgrPlanes(src: RgbImage, tensor: Float32Array, size: number): void {
  const plane = size * size;
  const b = tensor.subarray(0, plane), g = tensor.subarray(plane, 2 * plane), r = tensor.subarray(2 * plane, 3 * plane);
  const d = src.data, w = src.width;
  for (let y = 0, s = 0; y < src.height; y++) {
    for (let o = y * size, end = o + w; o < end; o++, s += 3) {
      b[o] = d[s + 2]!;
      g[o] = d[s + 1]!;
      r[o] = d[s]!;
    }
  }
}

/**
 * YuNet (libfacedetection) on a square input: the image is letterboxed into the top-left corner,
 * never enlarged, so small frames cost a copy and keep their pixels.
 */
export class YuNetDetector {
  constructor(
    private readonly model: LoadedModel,
    private readonly inputSize: number,
    private readonly options: DetectorOptions,
  ) {}

  /**
   * Input tensors (1.2 MB at 320) kept for the next call instead of a fresh allocation per frame:
   * a liveness capture detects dozens of frames. Calls may overlap (the live preview), so a
   * tensor is taken from the pool for one call and given back after it.
   */
  private readonly pool: { tensor: Float32Array; width: number; height: number }[] = [];

  private async toTensor(img: RgbImage): Promise<{ tensor: Float32Array; scale: number; release: () => void }> {
    const size = this.inputSize;
    const scale = Math.min(1, size / Math.max(img.width, img.height));
    let src = img;
    if (scale < 1) {
      // libvips shrinks an order of magnitude faster than a JS loop.
      const { data, info } = await sharp(Buffer.from(img.data.buffer, img.data.byteOffset, img.data.length), { raw: { width: img.width, height: img.height, channels: 3 } })
        .resize({ width: Math.round(img.width * scale), height: Math.round(img.height * scale), fit: 'fill' })
        .raw()
        .toBuffer({ resolveWithObject: true });
      src = { width: info.width, height: info.height, data };
    }
    const plane = size * size;
    const pooled = this.pool.pop();
    const tensor = pooled?.tensor ?? new Float32Array(3 * plane);
    // The letterbox outside the picture must read 0: clear a reused tensor unless it held a picture of the same size.
    if (pooled && (pooled.width !== src.width || pooled.height !== src.height)) tensor.fill(0);
    writeBgrPlanes(src, tensor, size);
    // Letterbox scale as actually applied (rounding of the resized width).
    const entry = { tensor, width: src.width, height: src.height };
    return { tensor, scale: src.width / img.width, release: () => void (this.pool.length < 2 && this.pool.push(entry)) };
  }

  /** All faces, largest first. */
  async detect(img: RgbImage): Promise<DetectedFace[]> {
    const size = this.inputSize;
    const { tensor, scale, release } = await this.toTensor(img);
    let out: Awaited<ReturnType<typeof runModel>>;
    try {
      out = await runModel(this.model, tensor, [1, 3, size, size]);
    } finally {
      release();
    }
    const candidates: DetectedFace[] = [];
    const minSide = this.options.minFaceFraction * Math.min(img.width, img.height);
    for (const s of STRIDES) {
      const cols = Math.floor(size / s);
      const cls = out[`cls_${s}`]!;
      const obj = out[`obj_${s}`]!;
      const bbox = out[`bbox_${s}`]!;
      const kps = out[`kps_${s}`]!;
      for (let i = 0; i < cls.length; i++) {
        const score = Math.sqrt(Math.min(1, Math.max(0, cls[i]!)) * Math.min(1, Math.max(0, obj[i]!)));
        if (score < this.options.minScore) continue;
        const r = Math.floor(i / cols);
        const c = i % cols;
        const cx = (c + bbox[i * 4]!) * s;
        const cy = (r + bbox[i * 4 + 1]!) * s;
        const w = Math.exp(bbox[i * 4 + 2]!) * s;
        const h = Math.exp(bbox[i * 4 + 3]!) * s;
        const box = { x: (cx - w / 2) / scale, y: (cy - h / 2) / scale, width: w / scale, height: h / scale };
        if (Math.min(box.width, box.height) < minSide) continue;
        const pts: Point[] = [];
        for (let k = 0; k < 5; k++) pts.push([((c + kps[i * 10 + 2 * k]!) * s) / scale, ((r + kps[i * 10 + 2 * k + 1]!) * s) / scale]);
        candidates.push({ box, score, landmarks: pts as DetectedFace['landmarks'] });
      }
    }
    candidates.sort((a, b) => b.score - a.score);
    const kept: DetectedFace[] = [];
    for (const cand of candidates) if (kept.every((k) => boxIou(k.box, cand.box) < this.options.nmsIou)) kept.push(cand);
    return kept.sort((a, b) => b.box.width * b.box.height - a.box.width * a.box.height);
  }
}
