import { readdirSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { mulberry32 } from '../../tools/corpus/random.js';
import { facesDir } from '../assets.js';
import { writeBgrPlanes } from './detector.js';
import { laplacianVariance } from './frame-analysis.js';
import { boxToAffine, decodeImage, warpToTensor, type Affine, type Box, type RgbImage, type TensorLayout } from './image.js';
import { moirePeakRatio, screenBorders, screenFrame } from './screen-cues.js';

/**
 * Issue 18 (engine/faces/README.md "CPU, same outputs"): the face engine's pixel loops were
 * rewritten for speed, and released settings versions must compute the same bits. The code they
 * had at 760f5a3 is kept below verbatim as the reference; each rewrite is pinned to it byte for
 * byte on seeded random images and boxes and on real photos (../shared/faces) decoded as liveness
 * decodes its frames.
 */

/** warpToTensor at 760f5a3 (column/row tables, one general loop for the grey crops). */
function warpToTensorRef(img: RgbImage, map: Affine, outW: number, outH: number, layout: TensorLayout): Float32Array {
  const [a, b, c, d, e, f] = map;
  const scale = Math.max(Math.hypot(a, d), Math.hypot(b, e));
  const n = layout.antialias === false ? 1 : Math.min(4, Math.max(1, Math.round(scale / 1.5 + 0.49)));
  const channels = layout.order === 'gray' ? 1 : 3;
  const out = new Float32Array(channels * outW * outH);
  const plane = outW * outH;
  const { width: W, height: H, data } = img;
  const k = 1 / (n * n);
  const bgr = layout.order === 'bgr';
  const m0 = layout.mean[0]!, s0 = layout.std[0]!;
  const m1 = layout.mean[1]!, s1 = layout.std[1]!;
  const m2 = layout.mean[2]!, s2 = layout.std[2]!;
  const us = new Float64Array(outW * n), vs = new Float64Array(outH * n);
  for (let u = 0; u < outW; u++) for (let sx = 0; sx < n; sx++) us[u * n + sx] = u + (sx + 0.5) / n - 0.5;
  for (let v = 0; v < outH; v++) for (let sy = 0; sy < n; sy++) vs[v * n + sy] = v + (sy + 0.5) / n - 0.5;
  const au = us.map((uu) => a * uu), du = us.map((uu) => d * uu);
  const bv = vs.map((vv) => b * vv), ev = vs.map((vv) => e * vv);
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
    for (let v = 0; v < outH; v++) {
      const bvv = bv[v]!, evv = ev[v]!;
      let i = v * outW;
      for (let u = 0; u < outW; u++, i++) {
        const x = Math.min(W - 1, Math.max(0, au[u]! + bvv + c));
        const y = Math.min(H - 1, Math.max(0, du[u]! + evv + f));
        const x0 = x | 0, y0 = y | 0;
        const x1 = x0 + 1 < W ? x0 + 1 : x0, y1 = y0 + 1 < H ? y0 + 1 : y0;
        const fx = x - x0, fy = y - y0;
        const w00 = (1 - fx) * (1 - fy), w01 = fx * (1 - fy), w10 = (1 - fx) * fy, w11 = fx * fy;
        const i00 = (y0 * W + x0) * 3, i01 = (y0 * W + x1) * 3, i10 = (y1 * W + x0) * 3, i11 = (y1 * W + x1) * 3;
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

/** YuNetDetector.toTensor's pixel loop at 760f5a3. */
function bgrPlanesRef(src: RgbImage, tensor: Float32Array, size: number): void {
  const plane = size * size;
  const d = src.data;
  for (let y = 0; y < src.height; y++) {
    for (let x = 0; x < src.width; x++) {
      const s = (y * src.width + x) * 3;
      const o = y * size + x;
      tensor[o] = d[s + 2]!;
      tensor[plane + o] = d[s + 1]!;
      tensor[2 * plane + o] = d[s]!;
    }
  }
}

/** frame-analysis.ts laplacianVariance at 760f5a3. */
function laplacianVarianceRef(img: RgbImage, box: Box): number {
  const x0 = Math.max(1, Math.floor(box.x)), x1 = Math.min(img.width - 1, Math.ceil(box.x + box.width));
  const y0 = Math.max(1, Math.floor(box.y)), y1 = Math.min(img.height - 1, Math.ceil(box.y + box.height));
  const step = Math.max(1, Math.floor((x1 - x0) / 96));
  const g = (x: number, y: number) => img.data[(y * img.width + x) * 3 + 1]!;
  let s = 0, s2 = 0, n = 0;
  for (let y = y0; y < y1; y += step) {
    for (let x = x0; x < x1; x += step) {
      const l = 4 * g(x, y) - g(x - 1, y) - g(x + 1, y) - g(x, y - 1) - g(x, y + 1);
      s += l; s2 += l * l; n++;
    }
  }
  return n ? s2 / n - (s / n) ** 2 : 0;
}

const grayRef = (img: RgbImage, x: number, y: number) => {
  const i = (y * img.width + x) * 3;
  return 0.299 * img.data[i]! + 0.587 * img.data[i + 1]! + 0.114 * img.data[i + 2]!;
};
const scaleBoxRef = (box: Box, factor: number): Box => {
  const cx = box.x + box.width / 2;
  const cy = box.y + box.height / 2;
  return { x: cx - (box.width * factor) / 2, y: cy - (box.height * factor) / 2, width: box.width * factor, height: box.height * factor };
};

/** screen-cues.ts moirePeakRatio at 760f5a3. */
function moirePeakRatioRef(img: RgbImage, face: Box): number {
  const N = 64;
  const inner = scaleBoxRef(face, 0.6);
  const px = new Float64Array(N * N);
  for (let v = 0; v < N; v++) {
    for (let u = 0; u < N; u++) {
      const x = Math.min(img.width - 1, Math.max(0, Math.round(inner.x + ((u + 0.5) * inner.width) / N)));
      const y = Math.min(img.height - 1, Math.max(0, Math.round(inner.y + ((v + 0.5) * inner.height) / N)));
      const w = (0.5 - 0.5 * Math.cos((2 * Math.PI * (u + 0.5)) / N)) * (0.5 - 0.5 * Math.cos((2 * Math.PI * (v + 0.5)) / N));
      px[v * N + u] = grayRef(img, x, y) * w;
    }
  }
  let mean = 0;
  for (const p of px) mean += p;
  mean /= N * N;
  for (let i = 0; i < px.length; i++) px[i]! -= mean;
  const cos = Float64Array.from({ length: N }, (_, k) => Math.cos((2 * Math.PI * k) / N));
  const sin = Float64Array.from({ length: N }, (_, k) => Math.sin((2 * Math.PI * k) / N));
  const re = new Float64Array(N * N), im = new Float64Array(N * N);
  for (let v = 0; v < N; v++) {
    for (let k = 0; k < N; k++) {
      let a = 0, b = 0;
      for (let u = 0; u < N; u++) {
        const p = px[v * N + u]!;
        const idx = (k * u) % N;
        a += p * cos[idx]!;
        b -= p * sin[idx]!;
      }
      re[v * N + k] = a;
      im[v * N + k] = b;
    }
  }
  const power: number[] = [];
  for (let k = 0; k < N; k++) {
    for (let l = 0; l < N; l++) {
      let a = 0, b = 0;
      for (let v = 0; v < N; v++) {
        const idx = (l * v) % N;
        const r0 = re[v * N + k]!, i0 = im[v * N + k]!;
        a += r0 * cos[idx]! + i0 * sin[idx]!;
        b += i0 * cos[idx]! - r0 * sin[idx]!;
      }
      const fk = k > N / 2 ? k - N : k, fl = l > N / 2 ? l - N : l;
      const rad = Math.hypot(fk, fl);
      if (rad >= 10 && rad <= 31 && fk !== 0 && fl !== 0) power.push(a * a + b * b);
    }
  }
  power.sort((p, q) => p - q);
  const med = power[Math.floor(power.length / 2)]!;
  return med > 0 ? power[power.length - 1]! / med : 0;
}

/** screen-cues.ts screenBorders at 760f5a3. */
function screenBordersRef(img: RgbImage, face: Box, minLength: number): { sides: number; lengths: [number, number, number, number] } {
  const r = scaleBoxRef(face, 3);
  const x0 = Math.max(2, Math.floor(r.x)), x1 = Math.min(img.width - 3, Math.ceil(r.x + r.width));
  const y0 = Math.max(2, Math.floor(r.y)), y1 = Math.min(img.height - 3, Math.ceil(r.y + r.height));
  const T = 24;
  const run = (len: number, at: (k: number) => number) => {
    let best = 0, cur = 0, sign = 0, gap = 0;
    for (let k = 0; k < len; k++) {
      const d = at(k);
      const s = d > T ? 1 : d < -T ? -1 : 0;
      if (s !== 0 && (s === sign || cur === 0)) {
        sign = s;
        cur += 1 + gap;
        gap = 0;
      } else if (cur > 0 && gap < 2) gap++;
      else {
        cur = s !== 0 ? 1 : 0;
        sign = s;
        gap = 0;
      }
      if (cur > best) best = cur;
    }
    return best;
  };
  const fx0 = Math.floor(face.x), fx1 = Math.ceil(face.x + face.width), fy0 = Math.floor(face.y), fy1 = Math.ceil(face.y + face.height);
  let top = 0, bottom = 0, left = 0, right = 0;
  for (let y = y0; y < y1; y++) {
    if (y >= fy0 - 2 && y <= fy1 + 2) continue;
    const len = run(x1 - x0, (k) => grayRef(img, x0 + k, y + 2) - grayRef(img, x0 + k, y - 2));
    if (y < fy0) top = Math.max(top, len);
    else bottom = Math.max(bottom, len);
  }
  for (let x = x0; x < x1; x++) {
    if (x >= fx0 - 2 && x <= fx1 + 2) continue;
    const len = run(y1 - y0, (k) => grayRef(img, x + 2, y0 + k) - grayRef(img, x - 2, y0 + k));
    if (x < fx0) left = Math.max(left, len);
    else right = Math.max(right, len);
  }
  const lengths = [top / face.width, bottom / face.width, left / face.height, right / face.height] as [number, number, number, number];
  return { sides: lengths.filter((l) => l >= minLength).length, lengths };
}

/** screen-cues.ts screenFrame at 760f5a3. */
function screenFrameRef(img: RgbImage, face: Box): { sides: number; ends: number; enclosure: number } {
  const r = scaleBoxRef(face, 4);
  const x0 = Math.max(2, Math.floor(r.x)), x1 = Math.min(img.width - 3, Math.ceil(r.x + r.width));
  const y0 = Math.max(2, Math.floor(r.y)), y1 = Math.min(img.height - 3, Math.ceil(r.y + r.height));
  const T = 24;
  const run = (len: number, polarity: 1 | -1, at: (k: number) => number) => {
    let best = 0, cur = 0, gap = 0;
    for (let k = 0; k < len; k++) {
      if (polarity * at(k) > T) {
        cur += 1 + gap;
        gap = 0;
      } else if (cur > 0 && gap < 2) gap++;
      else {
        cur = 0;
        gap = 0;
      }
      if (cur > best) best = cur;
    }
    return best;
  };
  const fx0 = Math.floor(face.x), fx1 = Math.ceil(face.x + face.width), fy0 = Math.floor(face.y), fy1 = Math.ceil(face.y + face.height);
  let top = 0, bottom = 0, left = 0, right = 0;
  for (let y = y0; y < y1; y++) {
    if (y >= fy0 - 2 && y <= fy1 + 2) continue;
    const d = (k: number) => grayRef(img, x0 + k, y + 2) - grayRef(img, x0 + k, y - 2);
    if (y < fy0) top = Math.max(top, run(x1 - x0, 1, d));
    else bottom = Math.max(bottom, run(x1 - x0, -1, d));
  }
  for (let x = x0; x < x1; x++) {
    if (x >= fx0 - 2 && x <= fx1 + 2) continue;
    const d = (k: number) => grayRef(img, x + 2, y0 + k) - grayRef(img, x - 2, y0 + k);
    if (x < fx0) left = Math.max(left, run(y1 - y0, 1, d));
    else right = Math.max(right, run(y1 - y0, -1, d));
  }
  const sides = Math.min(left, right) / face.height;
  const ends = Math.min(top, bottom) / face.width;
  return { sides, ends, enclosure: Math.max(sides, ends) };
}

/** A seeded generator (mulberry32, tools/corpus/random.ts), so a failure names an input that can be rebuilt. */
const rng = (seed: number): (() => number) => mulberry32(seed).next;

/** Random pixels, or smooth ones with a little noise (a face-like texture for the moiré spectrum). */
function randomImage(r: () => number, smooth: boolean): RgbImage {
  const width = 8 + Math.floor(r() * 600), height = 8 + Math.floor(r() * 480);
  const data = new Uint8Array(width * height * 3);
  const fx = r() * 0.2, fy = r() * 0.2;
  for (let y = 0, i = 0; y < height; y++) {
    for (let x = 0; x < width; x++) for (let ch = 0; ch < 3; ch++, i++) data[i] = smooth ? Math.max(0, Math.min(255, Math.round(128 + 90 * Math.sin(fx * x + fy * y + ch) + 20 * (r() - 0.5)))) : Math.floor(r() * 256);
  }
  return { width, height, data };
}

/** A face-sized box somewhere on (or partly off) the image. */
function randomBox(r: () => number, img: RgbImage): Box {
  const side = 4 + r() * 1.2 * Math.max(img.width, img.height);
  return { x: (r() - 0.3) * img.width, y: (r() - 0.3) * img.height, width: side * (0.8 + 0.4 * r()), height: side * (0.8 + 0.4 * r()) };
}

const bytes = (a: Float32Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);
const same = (a: number, b: number) => Object.is(a, b);

const layouts: TensorLayout[] = [
  { order: 'gray', mean: [0], std: [256] },
  { order: 'gray', mean: [0], std: [255 / 1.7] },
  { order: 'rgb', mean: [127.5, 127.5, 127.5], std: [127.5, 127.5, 127.5] },
  { order: 'bgr', mean: [0, 0, 0], std: [1, 1, 1], antialias: false },
  { order: 'bgr', mean: [127.5, 127.5, 127.5], std: [128, 128, 128] },
];

describe('face engine pixel loops equal their 760f5a3 form byte for byte (issue 18)', () => {
  let real: RgbImage[] = [];
  beforeAll(async () => {
    const files = readdirSync(facesDir()).filter((f) => /\.(jpe?g|png)$/i.test(f));
    // Decoded as liveness decodes its frames (480 px) and at full size.
    real = [...(await Promise.all(files.map((f) => decodeImage(path.join(facesDir(), f), 480)))), ...(await Promise.all(files.slice(0, 3).map((f) => decodeImage(path.join(facesDir(), f), 2000))))];
    expect(real.length).toBeGreaterThan(10);
  });

  const maps = (r: () => number, img: RgbImage): { map: Affine; side: number }[] => {
    const box = randomBox(r, img);
    const side = [24, 64, 80, 112, 192][Math.floor(r() * 5)]!;
    const theta = r() < 0.3 ? 0 : (r() - 0.5) * 1.5;
    const k = Math.max(box.width, box.height) / side, cos = Math.cos(theta), sin = Math.sin(theta), o = 0.5 - side / 2;
    const cx = box.x + box.width / 2, cy = box.y + box.height / 2;
    return [
      { map: boxToAffine(box, side, side), side },
      { map: [cos * k, -sin * k, cx + (cos * o - sin * o) * k, sin * k, cos * k, cy + (sin * o + cos * o) * k], side },
    ];
  };

  it('warpToTensor: 400 seeded random images × axis-aligned and rotated crops × 5 layouts', () => {
    const r = rng(18);
    for (let t = 0; t < 400; t++) {
      const img = randomImage(r, t % 2 === 0);
      for (const { map, side } of maps(r, img)) {
        for (const layout of layouts) expect(bytes(warpToTensor(img, map, side, side, layout)).equals(bytes(warpToTensorRef(img, map, side, side, layout))), `image ${t}, ${layout.order}`).toBe(true);
      }
    }
  });

  it('warpToTensor: real photos, 12 random crops each × 5 layouts', () => {
    const r = rng(1818);
    for (const [ri, img] of real.entries()) {
      for (let t = 0; t < 12; t++) {
        for (const { map, side } of maps(r, img)) {
          for (const layout of layouts) expect(bytes(warpToTensor(img, map, side, side, layout)).equals(bytes(warpToTensorRef(img, map, side, side, layout))), `real ${ri}, crop ${t}, ${layout.order}`).toBe(true);
        }
      }
    }
  });

  it('warpToTensor into a reused (dirty) tensor: the same bytes as into a fresh one (the face mesh pool)', () => {
    const r = rng(2718);
    for (let t = 0; t < 120; t++) {
      const img = randomImage(r, t % 2 === 0);
      for (const { map, side } of maps(r, img)) {
        for (const layout of layouts) {
          const channels = layout.order === 'gray' ? 1 : 3;
          const dirty = new Float32Array(channels * side * side).map(() => (r() < 0.1 ? Number.NaN : (r() - 0.5) * 1e6));
          const reused = warpToTensor(img, map, side, side, layout, dirty);
          expect(reused).toBe(dirty);
          expect(bytes(reused).equals(bytes(warpToTensorRef(img, map, side, side, layout))), `image ${t}, ${layout.order}`).toBe(true);
        }
      }
    }
  });

  it('detector input planes: random and real images, fresh and reused (dirty) tensors', () => {
    const r = rng(7);
    const inputs = [...Array.from({ length: 60 }, (_, t) => randomImage(r, t % 2 === 0)), ...real.filter((i) => i.width <= 640 && i.height <= 640)];
    for (const [t, img] of inputs.entries()) {
      const size = Math.max(img.width, img.height) <= 320 && r() < 0.5 ? 320 : 640;
      const a = new Float32Array(3 * size * size), b = new Float32Array(3 * size * size);
      // A reused tensor keeps what it held outside the picture: both must leave it alike.
      const junk = Math.floor(r() * 255);
      a.fill(junk);
      b.fill(junk);
      writeBgrPlanes(img, a, size);
      bgrPlanesRef(img, b, size);
      expect(bytes(a).equals(bytes(b)), `input ${t}`).toBe(true);
    }
  });

  it('laplacianVariance and moirePeakRatio: random and real images × random boxes (inside, across and past the edges)', () => {
    const r = rng(99);
    const inputs = [...Array.from({ length: 80 }, (_, t) => randomImage(r, t % 2 === 0)), ...real];
    let checked = 0;
    for (const [t, img] of inputs.entries()) {
      for (let b = 0; b < 12; b++) {
        const box = randomBox(r, img);
        expect(same(laplacianVariance(img, box), laplacianVarianceRef(img, box)), `laplacian ${t}/${b}`).toBe(true);
        if (b % 3 === 0) expect(same(moirePeakRatio(img, box), moirePeakRatioRef(img, box)), `moire ${t}/${b}`).toBe(true);
        checked++;
      }
    }
    expect(checked).toBe(inputs.length * 12);
  });
  it('screenBorders and screenFrame: random and real images × random boxes (small, large, off the image)', () => {
    const r = rng(404);
    const inputs = [...Array.from({ length: 80 }, (_, t) => randomImage(r, t % 2 === 0)), ...Array.from({ length: 20 }, () => randomImage(r, false)).map((i) => ({ ...i, width: Math.min(i.width, 6) } as RgbImage)).filter((i) => i.data.length >= i.width * i.height * 3), ...real];
    const sameAll = (p: object, q: object) => JSON.stringify(p, (_, v: unknown) => (typeof v === 'number' && Object.is(v, -0) ? '-0' : v)) === JSON.stringify(q, (_, v: unknown) => (typeof v === 'number' && Object.is(v, -0) ? '-0' : v));
    for (const [t, img] of inputs.entries()) {
      for (let b = 0; b < 8; b++) {
        const box = randomBox(r, img);
        const minLength = 0.3 + r();
        expect(sameAll(screenBorders(img, box, minLength), screenBordersRef(img, box, minLength)), `borders ${t}/${b}`).toBe(true);
        expect(sameAll(screenFrame(img, box), screenFrameRef(img, box)), `frame ${t}/${b}`).toBe(true);
      }
    }
  });
});
