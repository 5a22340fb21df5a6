import { describe, expect, it } from 'vitest';
import { boxToAffine, warpToTensor, type Affine, type RgbImage, type TensorLayout } from './image.js';

/** The per-sample form warpToTensor had before its column/row tables: the reference it must equal bit for bit. */
function reference(img: RgbImage, map: Affine, outW: number, outH: number, layout: TensorLayout): Float32Array {
  const [a, b, c, d, e, f] = map;
  const scale = Math.max(Math.hypot(a, d), Math.hypot(b, e));
  const n = layout.antialias === false ? 1 : Math.min(4, Math.max(1, Math.round(scale / 1.5 + 0.49)));
  const channels = layout.order === 'gray' ? 1 : 3;
  const out = new Float32Array(channels * outW * outH);
  const plane = outW * outH;
  const { width: W, height: H, data } = img;
  const k = 1 / (n * n);
  for (let v = 0; v < outH; v++) {
    for (let u = 0; u < outW; u++) {
      let r = 0, g = 0, bl = 0;
      for (let sy = 0; sy < n; sy++) {
        const vv = v + (sy + 0.5) / n - 0.5;
        for (let sx = 0; sx < n; sx++) {
          const uu = u + (sx + 0.5) / n - 0.5;
          const x = Math.min(W - 1, Math.max(0, a * uu + b * vv + c));
          const y = Math.min(H - 1, Math.max(0, d * uu + e * vv + f));
          const x0 = x | 0, y0 = y | 0;
          const x1 = x0 + 1 < W ? x0 + 1 : x0, y1 = y0 + 1 < H ? y0 + 1 : y0;
          const fx = x - x0, fy = y - y0;
          const w00 = (1 - fx) * (1 - fy), w01 = fx * (1 - fy), w10 = (1 - fx) * fy, w11 = fx * fy;
          const i00 = (y0 * W + x0) * 3, i01 = (y0 * W + x1) * 3, i10 = (y1 * W + x0) * 3, i11 = (y1 * W + x1) * 3;
          r += data[i00]! * w00 + data[i01]! * w01 + data[i10]! * w10 + data[i11]! * w11;
          g += data[i00 + 1]! * w00 + data[i01 + 1]! * w01 + data[i10 + 1]! * w10 + data[i11 + 1]! * w11;
          bl += data[i00 + 2]! * w00 + data[i01 + 2]! * w01 + data[i10 + 2]! * w10 + data[i11 + 2]! * w11;
        }
      }
      const i = v * outW + u;
      const bgr = layout.order === 'bgr';
      if (channels === 1) out[i] = ((0.299 * r + 0.587 * g + 0.114 * bl) * k - layout.mean[0]!) / layout.std[0]!;
      else {
        out[i] = ((bgr ? bl : r) * k - layout.mean[0]!) / layout.std[0]!;
        out[plane + i] = (g * k - layout.mean[1]!) / layout.std[1]!;
        out[2 * plane + i] = ((bgr ? r : bl) * k - layout.mean[2]!) / layout.std[2]!;
      }
    }
  }
  return out;
}

function noise(width: number, height: number, seed: number): RgbImage {
  const data = new Uint8Array(width * height * 3);
  let s = seed;
  for (let i = 0; i < data.length; i++) {
    s = (s * 1103515245 + 12345) >>> 0;
    data[i] = s >>> 24;
  }
  return { width, height, data };
}

describe('warpToTensor', () => {
  const img = noise(480, 270, 7);
  const layouts: TensorLayout[] = [
    { order: 'gray', mean: [0], std: [256] },
    { order: 'rgb', mean: [127.5, 127.5, 127.5], std: [127.5, 127.5, 127.5] },
    { order: 'bgr', mean: [0, 0, 0], std: [1, 1, 1], antialias: false },
  ];
  it('axis-aligned crops (landmarks, eyes, PAD; inside, across and past the edges, every supersampling) equal the per-sample form bit for bit', () => {
    const boxes = [
      { x: 150, y: 40, width: 120, height: 120 },
      { x: -30, y: -20, width: 260, height: 300 },
      { x: 400, y: 200, width: 300, height: 200 },
      { x: 200.37, y: 77.9, width: 17.3, height: 17.3 },
      { x: 10, y: 10, width: 900, height: 900 },
    ];
    for (const box of boxes) for (const layout of layouts) for (const side of [24, 64, 80]) {
      expect(warpToTensor(img, boxToAffine(box, side, side), side, side, layout)).toEqual(reference(img, boxToAffine(box, side, side), side, side, layout));
    }
  });

  it('rotated crops (the face mesh) equal the per-sample form bit for bit', () => {
    for (const theta of [0.05, -0.3, 1.2]) for (const k of [0.8, 1.7, 3.1]) {
      const cos = Math.cos(theta), sin = Math.sin(theta), o = 0.5 - 96;
      const map: Affine = [cos * k, -sin * k, 240 + (cos * o - sin * o) * k, sin * k, cos * k, 135 + (sin * o + cos * o) * k];
      expect(warpToTensor(img, map, 192, 192, layouts[1]!)).toEqual(reference(img, map, 192, 192, layouts[1]!));
    }
  });
});
