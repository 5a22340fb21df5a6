import { readdirSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { REAL_DOCUMENTS } from '../../../test/real-documents.js';
import { normaliseGrey, stretchBounds } from './stretch.js';

/**
 * `normaliseGrey` stands in for sharp's `normalise()` in every band crop the scan cuts, so it must give
 * the same bytes: here it is held to sharp itself on crops of real photos and scans cut as the scan
 * cuts them (extract, resize with either kernel, and the `binary` crop's sharpen and threshold).
 */
const pseudoRandom = (seed: number) => () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);

describe('normaliseGrey: sharp normalise() without the CIELAB round trip', () => {
  it('gives sharp normalise()\'s PNG bytes on crops of real photos and scans', async () => {
    const files = readdirSync(REAL_DOCUMENTS).filter((f) => /\.(jpe?g|png)$/i.test(f)).sort().slice(0, 12);
    expect(files.length).toBe(12);
    const rnd = pseudoRandom(11);
    const L = await lightness();
    let compared = 0;
    const tried = new Set<string>();
    for (const file of files) {
      const { data: grey, info } = await sharp(path.join(REAL_DOCUMENTS, file)).greyscale().extractChannel(0).raw().toBuffer({ resolveWithObject: true });
      for (let k = 0; k < 12; k++) {
        const w = Math.max(20, Math.floor(rnd() * info.width * 0.5)), h = Math.max(8, Math.floor(rnd() * info.height * 0.1));
        const left = Math.floor(rnd() * (info.width - w)), top = Math.floor(rnd() * (info.height - h));
        const f = 0.4 + rnd() * 2.5;
        const crop = () => {
          const s = sharp(grey, { raw: { width: info.width, height: info.height, channels: 1 } }).extract({ left, top, width: w, height: h })
            .resize(Math.max(8, Math.round(w * f)), Math.max(8, Math.round(h * f)), { kernel: k % 2 ? 'cubic' : 'lanczos3' });
          return k % 3 === 0 ? s.sharpen({ sigma: 1 }).threshold(128) : s;
        };
        const expected = await crop().normalise().png().toBuffer();
        const { data, info: at } = await crop().extractChannel(0).raw().toBuffer({ resolveWithObject: true });
        const actual = await sharp(await normaliseGrey(data, at.width, at.height), { raw: { width: at.width, height: at.height, channels: 1 } }).png().toBuffer();
        expect(actual.equals(expected), `${file} crop ${k}`).toBe(true);
        const hist = new Uint32Array(256);
        for (const p of data) hist[p]!++;
        tried.add(JSON.stringify(stretchBounds(hist, L)));
        compared++;
      }
    }
    expect(compared).toBe(144);
    // The crops span many stretches, not one table.
    expect(tried.size).toBeGreaterThan(40);
  });

  it('takes the lower bound from libvips\'s scaled histogram and the upper from the brightest bin', async () => {
    const L = await lightness();
    // Grey 90 has L* 38.24, grey 134 L* 55.93 (libvips's float32 values).
    expect(Math.trunc(L[90]!)).toBe(38);
    expect(Math.trunc(L[134]!)).toBe(55);
    // 98 % of pixels at 90..100, 1 % brighter, one at 134: sharp stretches to the brightest bin + 1, not the 99th percentile.
    const hist = new Uint32Array(256);
    hist[60] = 5; hist[90] = 500; hist[95] = 98_000; hist[110] = 1_000; hist[134] = 1;
    const b = stretchBounds(hist, L);
    expect(b.top).toBe(55);
    expect(b.upper).toBe(56);
    expect(b.lower).toBe(Math.trunc(L[95]!));
    // And sharp agrees, pixel for pixel: grey 134 comes out near white, the darkest 1 % black.
    const img = Buffer.alloc(99_506);
    let i = 0;
    for (const [v, n] of [[60, 5], [90, 500], [95, 98_000], [110, 1_000], [134, 1]] as const) for (let k = 0; k < n; k++) img[i++] = v;
    const ours = await normaliseGrey(img, img.length, 1);
    const { data: theirs, info } = await sharp(img, { raw: { width: img.length, height: 1, channels: 1 } }).normalise().raw().toBuffer({ resolveWithObject: true });
    expect(info.channels).toBe(3);
    expect(ours.every((v, k) => v === theirs[k * 3])).toBe(true);
    expect(ours[99_505]).toBeGreaterThan(240);
    expect(ours[0]).toBe(0);
  });

  it('leaves an image sharp leaves alone alone (bounds one bin apart)', async () => {
    const img = Buffer.alloc(1000, 128);
    img[0] = 129;
    const out = await normaliseGrey(img, 1000, 1);
    expect([...out.subarray(0, 3)]).toEqual([129, 128, 128]);
  });
});

async function lightness(): Promise<Float32Array> {
  const ramp = Buffer.from(Array.from({ length: 256 }, (_, v) => v));
  const { data } = await sharp(ramp, { raw: { width: 256, height: 1, channels: 1 } }).toColourspace('lab').raw({ depth: 'float' }).toBuffer({ resolveWithObject: true });
  const lab = new Float32Array(data.buffer, data.byteOffset, data.length / 4);
  return Float32Array.from({ length: 256 }, (_, v) => lab[v * 3]!);
}
