import { describe, expect, it } from 'vitest';
import { createRng } from '../../../tools/authenticity/training/rng.js';
import { detectCopyMove } from './copy-move.js';
import { dct8x8 } from './dct8.js';
import { fft1d } from './fft.js';
import { spectralFeatures } from './spectral.js';

function noiseImage(w: number, h: number, seed: number): Float32Array {
  const rng = createRng(seed);
  const img = new Float32Array(w * h);
  // Smooth-ish random texture: noise plus a blurred copy, like a natural image.
  for (let i = 0; i < img.length; i++) img[i] = 128 + 40 * rng.gauss();
  const out = new Float32Array(w * h);
  for (let y = 1; y < h - 1; y++) for (let x = 1; x < w - 1; x++) out[y * w + x] = (img[y * w + x]! * 2 + img[y * w + x - 1]! + img[y * w + x + 1]! + img[(y - 1) * w + x]! + img[(y + 1) * w + x]!) / 6;
  return out;
}

describe('numeric kernels', () => {
  it('FFT matches a direct DFT', () => {
    const n = 16;
    const re = Float64Array.from({ length: n }, (_, i) => Math.sin(i * 0.7) + (i % 3));
    const im = new Float64Array(n);
    const x = Float64Array.from(re);
    fft1d(re, im);
    for (let k = 0; k < n; k++) {
      let sr = 0;
      let si = 0;
      for (let t = 0; t < n; t++) {
        sr += x[t]! * Math.cos((-2 * Math.PI * k * t) / n);
        si += x[t]! * Math.sin((-2 * Math.PI * k * t) / n);
      }
      expect(re[k]).toBeCloseTo(sr, 9);
      expect(im[k]).toBeCloseTo(si, 9);
    }
  });

  it('8×8 DCT is orthonormal: a flat block has only DC = 8 × (v − 128)', () => {
    const img = new Float32Array(64).fill(138);
    const out = new Float32Array(64);
    dct8x8(img, 8, 0, 0, out);
    expect(out[0]).toBeCloseTo(80, 4);
    for (let i = 1; i < 64; i++) expect(Math.abs(out[i]!)).toBeLessThan(1e-4);
  });
});

describe('copy-move', () => {
  it('finds a region copied within the image and not in the original', () => {
    const w = 320;
    const h = 240;
    const img = noiseImage(w, h, 3);
    const before = detectCopyMove(img, w, h);
    for (let y = 0; y < 60; y++) for (let x = 0; x < 80; x++) img[(150 + y) * w + 200 + x] = img[(20 + y) * w + 30 + x]!;
    const after = detectCopyMove(img, w, h);
    expect(after.votes).toBeGreaterThan(100);
    expect(after.score).toBeGreaterThan(before.score * 5);
    expect(after.shift).toEqual([170, 130]);
  });
});

describe('spectral recapture cues', () => {
  it('sees a screen-like pixel grid as isolated spectral peaks', () => {
    const w = 512;
    const h = 512;
    const base = noiseImage(w, h, 5);
    const plain = new Uint8Array(w * h * 3);
    const grid = new Uint8Array(w * h * 3);
    for (let i = 0; i < w * h; i++) {
      const v = Math.max(0, Math.min(255, base[i]!));
      const x = i % w;
      const y = Math.floor(i / w);
      const g = (x % 3 === 2 ? 0.6 : 1) * (y % 3 === 2 ? 0.6 : 1);
      for (let c = 0; c < 3; c++) {
        plain[i * 3 + c] = v;
        grid[i * 3 + c] = Math.round(v * g);
      }
    }
    const a = spectralFeatures({ width: w, height: h, rgb: plain });
    const b = spectralFeatures({ width: w, height: h, rgb: grid });
    expect(b.lumaPeakMax).toBeGreaterThan(a.lumaPeakMax + 3);
  });
});
