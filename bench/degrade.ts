/**
 * Degradations shared by `bench/augment-real.ts` and the document engine 2.3 tests
 * (`engine/document/mrz/scan-v5.test.ts`): the MRZ glyph height of a capture, and a pale
 * security-print tint. Tooling only: never imported by runtime code.
 */
import { locateMrzBands } from '../engine/document/mrz/locate.js';

/** Height in source pixels of the MRZ glyphs: the band search's mean line height of its best band. */
export async function glyphHeight(rgb: Buffer, w: number, h: number): Promise<number | null> {
  const bands = await locateMrzBands({ data: rgb, width: w, height: h, channels: 3 }, { workSide: 1000, maxBands: 1 });
  return bands[0]?.lineHeight ?? null;
}

const TINTS: [number, number, number][] = [[172, 214, 226], [236, 188, 200], [214, 232, 168]];

/** Pale security-print colour with a wave pattern in the channels the colour darkens; ink stays dark. */
export function tint(rgb: Buffer, w: number, h: number, k: number): Buffer {
  const bg = TINTS[k % TINTS.length]!;
  const out = Buffer.alloc(rgb.length);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
    const i = (y * w + x) * 3;
    const lum = (0.299 * rgb[i]! + 0.587 * rgb[i + 1]! + 0.114 * rgb[i + 2]!) / 255;
    const wave = 0.5 + 0.5 * Math.sin(x / 3.1 + 4 * Math.sin(y / 17) + k);
    for (let c = 0; c < 3; c++) {
      // The wave darkens the channels the tint already darkens (a printed pattern of the same colour).
      const pat = bg[c]! - (255 - bg[c]!) * 0.9 * wave;
      out[i + c] = Math.max(0, Math.min(255, Math.round(30 + 0.8 * pat * lum)));
    }
  }
  return out;
}

