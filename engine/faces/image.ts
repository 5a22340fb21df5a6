import sharp from 'sharp';

/** An 8-bit RGB image in row-major, interleaved order. */
export interface RgbImage {
  width: number;
  height: number;
  data: Uint8Array;
}

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Intersection over union of two boxes (the detector's non-maximum suppression, v5's tracking). */
export function boxIou(a: Box, b: Box): number {
  const x0 = Math.max(a.x, b.x);
  const y0 = Math.max(a.y, b.y);
  const x1 = Math.min(a.x + a.width, b.x + b.width);
  const y1 = Math.min(a.y + a.height, b.y + b.height);
  const inter = Math.max(0, x1 - x0) * Math.max(0, y1 - y0);
  return inter / (a.width * a.height + b.width * b.height - inter);
}

export type Point = [number, number];

/** Phone cameras and uploads can be huge; anything above this is refused before decoding. */
const MAX_INPUT_PIXELS = 50_000_000;

/** Decodes any sharp-readable image, honours EXIF orientation, and shrinks it to `maxSide`. */
export async function decodeImage(input: Buffer | string, maxSide: number): Promise<RgbImage> {
  const { data, info } = await sharp(input, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' })
    .rotate()
    .resize({ width: maxSide, height: maxSide, fit: 'inside', withoutEnlargement: true })
    .removeAlpha()
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true });
  if (info.channels !== 3) throw new Error(`expected 3 channels, got ${info.channels}`);
  return { width: info.width, height: info.height, data: new Uint8Array(data.buffer, data.byteOffset, data.length) };
}

/**
 * Decodes a capture's frames in order, each next one (libvips, off this thread) while the caller's
 * models run on the current one. A frame that does not decode comes with `undefined`.
 */
export async function* decodeAhead<F extends { image: Buffer }>(frames: readonly F[], maxSide: number): AsyncGenerator<[F, RgbImage | undefined]> {
  const decode = (i: number) => (i < frames.length ? decodeImage(frames[i]!.image, maxSide).catch(() => undefined) : Promise.resolve(undefined));
  let next = decode(0);
  for (const [i, f] of frames.entries()) {
    const img = await next;
    next = decode(i + 1);
    yield [f, img];
  }
}

export async function encodeJpeg(img: RgbImage, quality = 92): Promise<Buffer> {
  return sharp(Buffer.from(img.data.buffer, img.data.byteOffset, img.data.length), {
    raw: { width: img.width, height: img.height, channels: 3 },
  })
    .jpeg({ quality })
    .toBuffer();
}

/**
 * An affine map from output pixel (u, v) to source pixel (x, y):
 * x = a*u + b*v + c, y = d*u + e*v + f.
 */
export type Affine = [number, number, number, number, number, number];

export interface TensorLayout {
  /** Channel order written to the tensor. */
  order: 'rgb' | 'bgr' | 'gray';
  /** value = (pixel - mean[c]) / std[c], pixel in 0..255. */
  mean: number[];
  std: number[];
  /** Average several source points per output pixel when shrinking (default true). */
  antialias?: boolean;
}

/**
 * Warps `img` through `map` into a CHW float tensor. When the map shrinks by more than 1.5×,
 * several source points are averaged per output pixel so that small model inputs (24–112 px)
 * are not aliased. Source points outside the image take the nearest border pixel, so scaled
 * context crops that reach past the edge stay defined. Every value of the tensor is written, so
 * a reused one (`into`) comes out as a fresh one would.
 */
export function warpToTensor(img: RgbImage, map: Affine, outW: number, outH: number, layout: TensorLayout, into?: Float32Array): Float32Array {
  const [a, b, c, d, e, f] = map;
  const scale = Math.max(Math.hypot(a, d), Math.hypot(b, e));
  const n = layout.antialias === false ? 1 : Math.min(4, Math.max(1, Math.round(scale / 1.5 + 0.49)));
  const channels = layout.order === 'gray' ? 1 : 3;
  // `into`: a tensor of the right size to fill instead of a new one (every value is written).
  const out = into && into.length === channels * outW * outH ? into : new Float32Array(channels * outW * outH);
  const plane = outW * outH;
  const { width: W, height: H, data } = img;
  const k = 1 / (n * n);
  // Channel order and normalisation hoisted out of the pixel loop (no per-pixel array: this runs
  // for every face crop of every liveness frame); the arithmetic per value is unchanged.
  const bgr = layout.order === 'bgr';
  const m0 = layout.mean[0]!, s0 = layout.std[0]!;
  const m1 = layout.mean[1]!, s1 = layout.std[1]!;
  const m2 = layout.mean[2]!, s2 = layout.std[2]!;
  // Sub-sample offsets and the products of the map with them, computed once per column and row
  // instead of once per sample: the same expressions in the same order, so every value is the
  // one the per-sample form gave (bit-identical tensors; engine/faces/image.test.ts).
  const us = new Float64Array(outW * n), vs = new Float64Array(outH * n);
  for (let u = 0; u < outW; u++) for (let sx = 0; sx < n; sx++) us[u * n + sx] = u + (sx + 0.5) / n - 0.5;
  for (let v = 0; v < outH; v++) for (let sy = 0; sy < n; sy++) vs[v * n + sy] = v + (sy + 0.5) / n - 0.5;
  const au = us.map((uu) => a * uu), du = us.map((uu) => d * uu);
  const bv = vs.map((vv) => b * vv), ev = vs.map((vv) => e * vv);
  // Axis-aligned maps (every crop but the mesh's): x depends on the column only, y on the row only.
  // With b = d = 0 the dropped products are ±0, which leave a sum unchanged.
  const separable = b === 0 && d === 0;
  const colX0 = new Int32Array(separable ? us.length : 0), colX1 = new Int32Array(colX0.length), colFx = new Float64Array(colX0.length);
  const rowY0 = new Int32Array(separable ? vs.length : 0), rowY1 = new Int32Array(rowY0.length), rowFy = new Float64Array(rowY0.length);
  if (separable) {
    for (let i = 0; i < us.length; i++) {
      const x = Math.min(W - 1, Math.max(0, au[i]! + c));
      const x0 = x | 0;
      colX0[i] = x0;
      colX1[i] = x0 + 1 < W ? x0 + 1 : x0;
      colFx[i] = x - x0;
    }
    for (let i = 0; i < vs.length; i++) {
      const y = Math.min(H - 1, Math.max(0, ev[i]! + f));
      const y0 = y | 0;
      rowY0[i] = y0;
      rowY1[i] = y0 + 1 < H ? y0 + 1 : y0;
      rowFy[i] = y - y0;
    }
  }
  if (!separable && n === 1 && channels === 3) {
    // The face mesh's rotated crop of every liveness frame (one sample per output pixel): the
    // general loop below without its sample loops and per-sample branch. Same expressions in the
    // same order (`0 + sum` is the sum: every term is ≥ 0), so the same bits (image.test.ts).
    // (1 − fx) and (1 − fy) taken once each, the right-hand neighbours' offsets from the left ones:
    // the same values, fewer operations per pixel (same-outputs.test.ts).
    const Wm = W - 1, Hm = H - 1;
    for (let v = 0; v < outH; v++) {
      const bvv = bv[v]!, evv = ev[v]!;
      let i = v * outW;
      for (let u = 0; u < outW; u++, i++) {
        const x = Math.min(Wm, Math.max(0, au[u]! + bvv + c));
        const y = Math.min(Hm, Math.max(0, du[u]! + evv + f));
        const x0 = x | 0, y0 = y | 0;
        const dx = x0 < Wm ? 3 : 0, y1 = y0 < Hm ? y0 + 1 : y0;
        const fx = x - x0, fy = y - y0, gx = 1 - fx, gy = 1 - fy;
        const w00 = gx * gy, w01 = fx * gy, w10 = gx * fy, w11 = fx * fy;
        const i00 = (y0 * W + x0) * 3, i01 = i00 + dx, i10 = (y1 * W + x0) * 3, i11 = i10 + dx;
        const r = data[i00]! * w00 + data[i01]! * w01 + data[i10]! * w10 + data[i11]! * w11;
        const g = data[i00 + 1]! * w00 + data[i01 + 1]! * w01 + data[i10 + 1]! * w10 + data[i11 + 1]! * w11;
        const bl = data[i00 + 2]! * w00 + data[i01 + 2]! * w01 + data[i10 + 2]! * w10 + data[i11 + 2]! * w11;
        out[i] = ((bgr ? bl : r) * k - m0) / s0;
        out[plane + i] = (g * k - m1) / s1;
        out[2 * plane + i] = ((bgr ? r : bl) * k - m2) / s2;
      }
    }
    return out;
  }
  if (separable && channels === 1) {
    // The landmark and eye crops of every liveness frame (grey, axis-aligned): a loop of its own
    // (a small monomorphic function), the row's terms read once per sample row. Same products
    // summed in the same order: the same bits (image.test.ts keeps the per-sample form as reference).
    warpAxisGray(data, W, colX0, colX1, colFx, rowY0, rowY1, rowFy, n, outW, outH, out, k, m0, s0);
    return out;
  }
  for (let v = 0; v < outH; v++) {
    for (let u = 0; u < outW; u++) {
      let r = 0, g = 0, bl = 0;
      for (let sy = 0; sy < n; sy++) {
        const iv = v * n + sy;
        for (let sx = 0; sx < n; sx++) {
          const iu = u * n + sx;
          let x0: number, x1: number, y0: number, y1: number, fx: number, fy: number;
          if (separable) {
            x0 = colX0[iu]!; x1 = colX1[iu]!; fx = colFx[iu]!;
            y0 = rowY0[iv]!; y1 = rowY1[iv]!; fy = rowFy[iv]!;
          } else {
            const x = Math.min(W - 1, Math.max(0, au[iu]! + bv[iv]! + c));
            const y = Math.min(H - 1, Math.max(0, du[iu]! + ev[iv]! + f));
            x0 = x | 0; y0 = y | 0;
            x1 = x0 + 1 < W ? x0 + 1 : x0; y1 = y0 + 1 < H ? y0 + 1 : y0;
            fx = x - x0; fy = y - y0;
          }
          const w00 = (1 - fx) * (1 - fy), w01 = fx * (1 - fy), w10 = (1 - fx) * fy, w11 = fx * fy;
          const i00 = (y0 * W + x0) * 3, i01 = (y0 * W + x1) * 3, i10 = (y1 * W + x0) * 3, i11 = (y1 * W + x1) * 3;
          r += data[i00]! * w00 + data[i01]! * w01 + data[i10]! * w10 + data[i11]! * w11;
          g += data[i00 + 1]! * w00 + data[i01 + 1]! * w01 + data[i10 + 1]! * w10 + data[i11 + 1]! * w11;
          bl += data[i00 + 2]! * w00 + data[i01 + 2]! * w01 + data[i10 + 2]! * w10 + data[i11 + 2]! * w11;
        }
      }
      const i = v * outW + u;
      if (channels === 1) {
        out[i] = ((0.299 * r + 0.587 * g + 0.114 * bl) * k - m0) / s0;
      } else {
        out[i] = ((bgr ? bl : r) * k - m0) / s0;
        out[plane + i] = (g * k - m1) / s1;
        out[2 * plane + i] = ((bgr ? r : bl) * k - m2) / s2;
      }
    }
  }
  return out;
}

/** warpToTensor on an axis-aligned map into grey: the landmark and eye crops, from the column and row tables. */
function warpAxisGray(
  data: Uint8Array, W: number, colX0: Int32Array, colX1: Int32Array, colFx: Float64Array, rowY0: Int32Array, rowY1: Int32Array, rowFy: Float64Array,
  n: number, outW: number, outH: number, out: Float32Array, k: number, m0: number, s0: number,
): void {
  for (let v = 0; v < outH; v++) {
    let i = v * outW;
    for (let u = 0; u < outW; u++, i++) {
      let r = 0, g = 0, bl = 0;
      for (let sy = 0, iv = v * n; sy < n; sy++, iv++) {
        const fy = rowFy[iv]!, gy = 1 - fy, r0 = rowY0[iv]! * W, r1 = rowY1[iv]! * W;
        for (let sx = 0, iu = u * n; sx < n; sx++, iu++) {
          const x0 = colX0[iu]!, x1 = colX1[iu]!, fx = colFx[iu]!, gx = 1 - fx;
          const w00 = gx * gy, w01 = fx * gy, w10 = gx * fy, w11 = fx * fy;
          const i00 = (r0 + x0) * 3, i01 = (r0 + x1) * 3, i10 = (r1 + x0) * 3, i11 = (r1 + x1) * 3;
          r += data[i00]! * w00 + data[i01]! * w01 + data[i10]! * w10 + data[i11]! * w11;
          g += data[i00 + 1]! * w00 + data[i01 + 1]! * w01 + data[i10 + 1]! * w10 + data[i11 + 1]! * w11;
          bl += data[i00 + 2]! * w00 + data[i01 + 2]! * w01 + data[i10 + 2]! * w10 + data[i11 + 2]! * w11;
        }
      }
      out[i] = ((0.299 * r + 0.587 * g + 0.114 * bl) * k - m0) / s0;
    }
  }
}

/** The affine map that fills an outW×outH output with the source rectangle `box`. */
export function boxToAffine(box: Box, outW: number, outH: number): Affine {
  const sx = box.width / outW;
  const sy = box.height / outH;
  return [sx, 0, box.x + sx * 0.5 - 0.5, 0, sy, box.y + sy * 0.5 - 0.5];
}

export function cropImage(img: RgbImage, box: Box): RgbImage {
  const x0 = Math.max(0, Math.floor(box.x));
  const y0 = Math.max(0, Math.floor(box.y));
  const x1 = Math.min(img.width, Math.ceil(box.x + box.width));
  const y1 = Math.min(img.height, Math.ceil(box.y + box.height));
  const width = Math.max(1, x1 - x0);
  const height = Math.max(1, y1 - y0);
  const data = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    const srcStart = ((y0 + y) * img.width + x0) * 3;
    data.set(img.data.subarray(srcStart, srcStart + width * 3), y * width * 3);
  }
  return { width, height, data };
}

export function scaleBox(box: Box, factor: number): Box {
  const cx = box.x + box.width / 2;
  const cy = box.y + box.height / 2;
  return { x: cx - (box.width * factor) / 2, y: cy - (box.height * factor) / 2, width: box.width * factor, height: box.height * factor };
}

export function distance(p: Point, q: Point): number {
  return Math.hypot(p[0] - q[0], p[1] - q[1]);
}
