import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { REAL_DOCUMENTS } from '../../../test/real-documents.js';
import { mulberry32 } from '../../../tools/corpus/random.js';
import { components, textAngles, textMask, type Blob } from './locate.js';

/**
 * The flood fill that document engines up to 3.22 labelled masks with (locate.ts before the run
 * labelling), kept as the reference: released settings versions must find the same components in
 * the same order with the same labels, so the faster labelling is pinned to it exactly.
 */
function floodComponents(mask: Uint8Array, w: number, h: number, labels?: Int32Array): Blob[] {
  const label = labels ?? new Int32Array(w * h);
  const out: Blob[] = [];
  const stack: number[] = [];
  for (let i = 0; i < mask.length; i++) {
    if (!mask[i] || label[i]) continue;
    const b: Blob = { x0: w, y0: h, x1: 0, y1: 0, px: 0 };
    label[i] = out.length + 1;
    stack.push(i);
    while (stack.length) {
      const p = stack.pop()!;
      const x = p % w, y = (p - x) / w;
      b.px++;
      if (x < b.x0) b.x0 = x; if (x > b.x1) b.x1 = x; if (y < b.y0) b.y0 = y; if (y > b.y1) b.y1 = y;
      if (x > 0 && mask[p - 1] && !label[p - 1]) { label[p - 1] = out.length + 1; stack.push(p - 1); }
      if (x < w - 1 && mask[p + 1] && !label[p + 1]) { label[p + 1] = out.length + 1; stack.push(p + 1); }
      if (y > 0 && mask[p - w] && !label[p - w]) { label[p - w] = out.length + 1; stack.push(p - w); }
      if (y < h - 1 && mask[p + w] && !label[p + w]) { label[p + w] = out.length + 1; stack.push(p + w); }
    }
    out.push(b);
  }
  return out;
}

/** `textAngles` as 3.22 shipped it (every point's bin range tracked), the reference for the faster one. */
function textAnglesBefore(mask: Uint8Array, w: number, h: number): { first: number; second?: number } {
  const step = Math.max(1, Math.floor(Math.sqrt((w * h) / 400_000)));
  let count = 0;
  for (let y = 0; y < h; y += step) for (let x = 0; x < w; x += step) if (mask[y * w + x]) count++;
  if (count < 50) return { first: 0 };
  const xs = new Int32Array(count), ys = new Int32Array(count);
  for (let y = 0, n = 0; y < h; y += step) for (let x = 0; x < w; x += step) if (mask[y * w + x]) { xs[n] = x; ys[n] = y; n++; }
  const diag = Math.ceil(Math.hypot(w, h));
  const bins = new Float64Array(2 * diag + 2);
  const energy = (deg: number) => {
    const a = (deg * Math.PI) / 180, s = Math.sin(a), c = Math.cos(a);
    let lo = bins.length, hi = -1;
    for (let i = 0; i < count; i++) {
      const b = Math.round(ys[i]! * c - xs[i]! * s) + diag;
      bins[b]! += 1;
      if (b < lo) lo = b;
      if (b > hi) hi = b;
    }
    let e = 0;
    for (let i = lo; i <= hi; i++) { e += bins[i]! * bins[i]!; bins[i] = 0; }
    return e;
  };
  let best = 0, bestE = -1;
  const profile: number[] = [];
  for (let d = 0; d < 180; d += 2) { const e = energy(d); profile.push(e); if (e > bestE) { bestE = e; best = d; } }
  const coarse = best;
  for (let d = coarse - 2; d <= coarse + 2; d += 0.25) { const e = energy(d); if (e > bestE) { bestE = e; best = d; } }
  const first = ((best % 180) + 180) % 180;
  const apart = (a: number, b: number) => Math.min(Math.abs(a - b) % 180, 180 - (Math.abs(a - b) % 180));
  let peak = -1, peakE = -1;
  for (let k = 0; k < profile.length; k++) {
    const e = profile[k]!, d = 2 * k;
    if (apart(d, coarse) < 10 || e < profile[(k + profile.length - 1) % profile.length]! || e < profile[(k + 1) % profile.length]!) continue;
    if (e > peakE) { peakE = e; peak = d; }
  }
  if (peak < 0) return { first };
  let second = peak, secondE = peakE;
  for (let d = peak - 2; d <= peak + 2; d += 0.25) { const e = energy(d); if (e > secondE) { secondE = e; second = d; } }
  return { first, second: ((second % 180) + 180) % 180 };
}

function expectSame(mask: Uint8Array, w: number, h: number) {
  const a = new Int32Array(w * h), b = new Int32Array(w * h);
  const want = floodComponents(mask, w, h, a);
  expect(components(mask, w, h, b)).toEqual(want);
  expect(Buffer.from(b.buffer).equals(Buffer.from(a.buffer))).toBe(true);
  // Without a label array: the same blobs.
  expect(components(mask, w, h)).toEqual(want);
}

describe('components (run labelling) against the flood fill', () => {
  it('random masks of every density and shape, spirals and combs included', () => {
    const rnd = mulberry32(20261201).next;
    for (let t = 0; t < 400; t++) {
      const w = 1 + Math.floor(rnd() * 60), h = 1 + Math.floor(rnd() * 60), p = rnd();
      const mask = new Uint8Array(w * h);
      for (let i = 0; i < mask.length; i++) mask[i] = rnd() < p ? 1 : 0;
      expectSame(mask, w, h);
    }
    // A comb (teeth joined only at the bottom: the components merge late, their numbers stay early)
    // and a spiral (one component whose runs meet in many orders).
    const w = 41, h = 41;
    const comb = new Uint8Array(w * h);
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x += 2) comb[y * w + x] = 1;
    comb.fill(1, (h - 1) * w, h * w);
    expectSame(comb, w, h);
    const spiral = new Uint8Array(w * h);
    let x0 = 0, y0 = 0, x1 = w - 1, y1 = h - 1;
    while (x0 <= x1 && y0 <= y1) {
      for (let x = x0; x <= x1; x++) spiral[y0 * w + x] = 1;
      for (let y = y0; y <= y1; y++) spiral[y * w + x1] = 1;
      for (let x = x0; x <= x1; x++) spiral[y1 * w + x] = 1;
      for (let y = y0 + 2; y <= y1; y++) spiral[y * w + x0] = 1;
      if (x0 + 1 < w) spiral[(y0 + 2) * w + x0 + 1] = 1;
      x0 += 2; y0 += 2; x1 -= 2; y1 -= 2;
    }
    expectSame(spiral, w, h);
    expectSame(new Uint8Array(0), 0, 0);
  });

  const file = path.join(REAL_DOCUMENTS, 'DoubangoTelecom__ultimateMRZ-SDK__assets__images__Passport-Australia_1280x720_rotate+90.jpg');
  it.runIf(existsSync(file))('the text mask of a real passport photo (tuning)', async () => {
    const { data, info } = await sharp(readFileSync(file)).greyscale().raw().toBuffer({ resolveWithObject: true });
    const mask = textMask({ data: new Uint8Array(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height });
    expect(mask.reduce((a, v) => a + v, 0)).toBeGreaterThan(1000);
    expectSame(mask, info.width, info.height);
    expect(textAngles(mask, info.width, info.height)).toEqual(textAnglesBefore(mask, info.width, info.height));
  });

  it('textAngles: the same angles as 3.22 on random masks and on tilted stripes', () => {
    const rnd = mulberry32(7).next;
    for (let t = 0; t < 60; t++) {
      const w = 20 + Math.floor(rnd() * 300), h = 20 + Math.floor(rnd() * 300), deg = rnd() * 180, p = rnd() * 0.3;
      const mask = new Uint8Array(w * h);
      const a = (deg * Math.PI) / 180;
      // Stripes along `deg` (text lines) over random specks, so the profile has a peak to find.
      for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) mask[y * w + x] = (Math.floor((y * Math.cos(a) - x * Math.sin(a)) / 6) % 2 === 0 && rnd() < 0.7) || rnd() < p ? 1 : 0;
      expect(textAngles(mask, w, h)).toEqual(textAnglesBefore(mask, w, h));
    }
  });
});
