import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { readAllCoefficients, readLumaCoefficients } from '../image/jpeg-coefficients.js';
import { createRng } from '../../../tools/authenticity/training/rng.js';
import { analyzeCompressionHistory } from './compression-history.js';
import { dct8x8 } from './dct8.js';
import { fdctIslow, quantizeIslow } from './islow-dct.js';

/** A camera-like frame: smooth shapes, texture and sensor noise, as raw RGB. */
function cameraFrame(width: number, height: number, seed: number): Buffer {
  const rng = createRng(seed);
  const rgb = Buffer.alloc(width * height * 3);
  const blobs = Array.from({ length: 12 }, () => ({ x: rng.range(0, width), y: rng.range(0, height), r: rng.range(30, 160), c: [rng.int(20, 235), rng.int(20, 235), rng.int(20, 235)] }));
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let base = [120 + 40 * Math.sin(x / 37) * Math.cos(y / 53), 110, 100 + 30 * Math.sin((x + y) / 29)];
      for (const b of blobs) if ((x - b.x) ** 2 + (y - b.y) ** 2 < b.r ** 2) base = b.c;
      const shared = rng.gauss() * 1.6;
      for (let c = 0; c < 3; c++) rgb[(y * width + x) * 3 + c] = Math.max(0, Math.min(255, Math.round(base[c]! + shared + rng.gauss() * 2)));
    }
  }
  return rgb;
}

/** Orthonormal inverse 8×8 DCT of one stored block, + 128. */
function idctBlock(c: Int16Array, base: number, table: Uint16Array): Float64Array {
  const basis = (u: number, x: number) => 0.5 * (u === 0 ? Math.SQRT1_2 : 1) * Math.cos(((2 * x + 1) * u * Math.PI) / 16);
  const out = new Float64Array(64);
  for (let y = 0; y < 8; y++) {
    for (let x = 0; x < 8; x++) {
      let s = 0;
      for (let u = 0; u < 8; u++) for (let v = 0; v < 8; v++) s += basis(u, y) * basis(v, x) * c[base + u * 8 + v]! * table[u * 8 + v]!;
      out[y * 8 + x] = s + 128;
    }
  }
  return out;
}

const W = 640;
const H = 480;
const raw = { raw: { width: W, height: H, channels: 3 as const } };

async function nativeOf(jpeg: Buffer) {
  const { data } = await sharp(jpeg).raw().toBuffer({ resolveWithObject: true });
  return { width: W, height: H, left: 0, top: 0, rgb: new Uint8Array(data.buffer, data.byteOffset, data.length) };
}

describe('JPEG coefficient reader', () => {
  it('reads the luma coefficients a baseline encoder wrote (4:2:0 and 4:4:4): their inverse DCT is the decoded image', async () => {
    const frame = cameraFrame(W, H, 1);
    for (const chromaSubsampling of ['4:2:0', '4:4:4'] as const) {
      const jpeg = await sharp(frame, raw).jpeg({ quality: 90, chromaSubsampling }).toBuffer();
      const coef = readLumaCoefficients(jpeg)!;
      expect(coef).not.toBeNull();
      expect([coef.blocksWide, coef.blocksHigh]).toEqual([W / 8, H / 8]);
      const native = await nativeOf(jpeg);
      // Inverse DCT of the dequantised coefficients reproduces the decoder's luma (colour
      // conversion rounding aside); the neighbouring block's coefficients do not.
      const luma = (i: number) => 0.299 * native.rgb[3 * i]! + 0.587 * native.rgb[3 * i + 1]! + 0.114 * native.rgb[3 * i + 2]!;
      let err = 0;
      let errWrong = 0;
      let n = 0;
      for (let by = 0; by < H / 8; by += 3) {
        for (let bx = 0; bx < W / 8 - 1; bx += 3) {
          const own = idctBlock(coef.coefficients, (by * coef.blocksWide + bx) * 64, coef.table);
          const next = idctBlock(coef.coefficients, (by * coef.blocksWide + bx + 1) * 64, coef.table);
          for (let y = 0; y < 8; y++) {
            for (let x = 0; x < 8; x++) {
              const v = luma((by * 8 + y) * W + bx * 8 + x);
              err += Math.abs(own[y * 8 + x]! - v);
              errWrong += Math.abs(next[y * 8 + x]! - v);
              n++;
            }
          }
        }
      }
      expect(err / n).toBeLessThan(0.6);
      expect(errWrong / n).toBeGreaterThan(5);
    }
  });

  it('reads a progressive file (spectral selection and successive approximation) to exactly the baseline coefficients', async () => {
    // 250×170: partial MCUs on both axes.
    const w = 250;
    const h = 170;
    const frame = cameraFrame(w, h, 2);
    const input = { raw: { width: w, height: h, channels: 3 as const } };
    for (const chromaSubsampling of ['4:2:0', '4:4:4'] as const) {
      const baseline = readLumaCoefficients(await sharp(frame, input).jpeg({ quality: 92, chromaSubsampling }).toBuffer())!;
      for (const options of [{ progressive: true }, { progressive: true, optimiseScans: true }]) {
        const progressive = readLumaCoefficients(await sharp(frame, input).jpeg({ quality: 92, chromaSubsampling, ...options }).toBuffer());
        expect(progressive).not.toBeNull();
        expect([progressive!.blocksWide, progressive!.blocksHigh]).toEqual([baseline.blocksWide, baseline.blocksHigh]);
        let differ = 0;
        for (let i = 0; i < baseline.coefficients.length; i++) if (progressive!.coefficients[i] !== baseline.coefficients[i]) differ++;
        expect(differ).toBe(0);
      }
    }
  });

  it('reads the chroma planes too (settings v7): progressive equals baseline, luma equals the luma reader', async () => {
    const w = 250;
    const h = 170;
    const frame = cameraFrame(w, h, 2);
    const input = { raw: { width: w, height: h, channels: 3 as const } };
    for (const chromaSubsampling of ['4:2:0', '4:4:4'] as const) {
      const baselineBytes = await sharp(frame, input).jpeg({ quality: 92, chromaSubsampling }).toBuffer();
      const baseline = readAllCoefficients(baselineBytes)!;
      expect(baseline).toHaveLength(3);
      expect(Buffer.from(baseline[0]!.coefficients.buffer).equals(Buffer.from(readLumaCoefficients(baselineBytes)!.coefficients.buffer))).toBe(true);
      const half = chromaSubsampling === '4:2:0' ? 2 : 1;
      expect([baseline[1]!.blocksWide, baseline[1]!.blocksHigh]).toEqual([Math.ceil(Math.ceil(w / half) / 8), Math.ceil(Math.ceil(h / half) / 8)]);
      const progressive = readAllCoefficients(await sharp(frame, input).jpeg({ quality: 92, chromaSubsampling, progressive: true, optimiseScans: true }).toBuffer())!;
      for (let c = 1; c < 3; c++) {
        expect(baseline[c]!.coefficients.some((v) => v !== 0)).toBe(true);
        expect(Buffer.from(progressive[c]!.coefficients.buffer).equals(Buffer.from(baseline[c]!.coefficients.buffer))).toBe(true);
      }
    }
  });

  it('returns null for non-JPEG and truncated bytes', async () => {
    const frame = cameraFrame(128, 96, 2);
    expect(readLumaCoefficients(await sharp(frame, { raw: { width: 128, height: 96, channels: 3 } }).png().toBuffer())).toBeNull();
    expect(readLumaCoefficients(Buffer.from('not a jpeg'))).toBeNull();
    const jpeg = await sharp(frame, { raw: { width: 128, height: 96, channels: 3 } }).jpeg().toBuffer();
    expect(readLumaCoefficients(jpeg.subarray(0, 300))).toBeNull();
  });
});

describe('islow DCT', () => {
  it('matches the orthonormal float DCT × 8 within rounding', () => {
    const rng = createRng(5);
    const block = new Int32Array(64);
    const img = new Float32Array(64);
    for (let i = 0; i < 64; i++) {
      const v = rng.int(0, 255);
      block[i] = v - 128;
      img[i] = v;
    }
    const ref = new Float32Array(64);
    dct8x8(img, 8, 0, 0, ref);
    fdctIslow(block);
    for (let i = 0; i < 64; i++) expect(Math.abs(block[i]! / 8 - ref[i]!)).toBeLessThan(0.6);
    expect(quantizeIslow(8 * 10, 4)).toBe(3); // 2.5 rounds away from zero
    expect(quantizeIslow(-8 * 10, 4)).toBe(-3);
  });
});

describe('compression history', () => {
  it('separates one save from two saves on the same grid, with a different and with the same table', async () => {
    const frame = cameraFrame(W, H, 3);
    const once = await sharp(frame, raw).jpeg({ quality: 95 }).toBuffer();
    const first = await sharp(frame, raw).jpeg({ quality: 88 }).toBuffer();
    const decoded = await sharp(first).raw().toBuffer();
    const twiceOther = await sharp(decoded, raw).jpeg({ quality: 95 }).toBuffer();
    const firstSame = await sharp(frame, raw).jpeg({ quality: 95 }).toBuffer();
    const twiceSame = await sharp(await sharp(firstSame).raw().toBuffer(), raw).jpeg({ quality: 95 }).toBuffer();

    const single = analyzeCompressionHistory(readLumaCoefficients(once), await nativeOf(once));
    const other = analyzeCompressionHistory(readLumaCoefficients(twiceOther), await nativeOf(twiceOther));
    const same = analyzeCompressionHistory(readLumaCoefficients(twiceSame), await nativeOf(twiceSame));
    expect(single.available).toBe(true);
    // Quality 88 then 95: the first table's lattice shows in the histograms.
    expect(other.histRoughMean).toBeGreaterThan(5 * Math.max(0.5, single.histRoughMean));
    expect(other.histRoughShare).toBeGreaterThan(single.histRoughShare);
    // Same table twice: no lattice, but the re-encode changes fewer coefficients.
    expect(same.recompressChanged).toBeLessThan(single.recompressChanged / 2);
    expect(same.recompressIdentical).toBeGreaterThan(single.recompressIdentical);
  });

  it('is unavailable without coefficients (PNG, progressive)', () => {
    const h = analyzeCompressionHistory(null, { width: 8, height: 8, left: 0, top: 0, rgb: new Uint8Array(192) });
    expect(h.available).toBe(false);
    expect(h.histRoughMean).toBe(0);
  });
});
