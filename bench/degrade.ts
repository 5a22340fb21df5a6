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

type Box = { left: number; top: number; width: number; height: number; lineHeight: number };

/** Paints `c` at (x, y) with opacity `a` (no-op outside the frame). */
function paint(out: Buffer, w: number, h: number, x: number, y: number, c: [number, number, number], a = 1): void {
  if (x < 0 || y < 0 || x >= w || y >= h) return;
  const i = (Math.round(y) * w + Math.round(x)) * 3;
  for (let k = 0; k < 3; k++) out[i + k] = Math.round(out[i + k]! * (1 - a) + c[k]! * a);
}

/**
 * A camera-style focus crosshair over an MRZ band (`band` from the band search, upright): a
 * horizontal line through the first text line (it strikes the glyphs), a vertical line across the
 * band and a small square about the crossing; 2–3 px, dark grey, white or bright green by `k`.
 */
export function crosshair(rgb: Buffer, w: number, h: number, band: Box, k: number): Buffer {
  const out = Buffer.from(rgb);
  const colour = ([[70, 70, 70], [255, 255, 255], [60, 230, 80]] as [number, number, number][])[k % 3]!;
  const thick = 2 + (k % 2);
  const y0 = band.top + Math.round(band.lineHeight * 0.9), xm = band.left + Math.round(band.width * (0.35 + 0.1 * (k % 3)));
  for (let x = band.left - band.width * 0.1; x < band.left + band.width * 1.1; x++) for (let d = 0; d < thick; d++) paint(out, w, h, x, y0 + d, colour);
  for (let y = band.top - band.height; y < band.top + 2 * band.height; y++) for (let d = 0; d < thick; d++) paint(out, w, h, xm + d, y, colour);
  const r = Math.round(band.lineHeight * 1.5);
  for (let d = -r; d <= r; d++) for (let e = 0; e < thick; e++) {
    paint(out, w, h, xm + d, y0 - r + e, colour); paint(out, w, h, xm + d, y0 + r - e, colour);
    paint(out, w, h, xm - r + e, y0 + d, colour); paint(out, w, h, xm + r - e, y0 + d, colour);
  }
  return out;
}

/** A translucent bright green bar (alpha 0.45) over an MRZ band and green corner brackets about it (a vendor illustration's highlight). */
export function highlightBar(rgb: Buffer, w: number, h: number, band: Box): Buffer {
  const out = Buffer.from(rgb);
  const green: [number, number, number] = [110, 255, 60];
  for (let y = band.top; y < band.top + band.height; y++) for (let x = band.left - 20; x < band.left + band.width + 20; x++) paint(out, w, h, x, y, green, 0.45);
  const arm = Math.round(band.lineHeight * 2), th = Math.max(3, Math.round(band.lineHeight / 4));
  for (const [cx, cy, sx, sy] of [[band.left - 30, band.top - 10, 1, 1], [band.left + band.width + 30, band.top - 10, -1, 1], [band.left - 30, band.top + band.height + 10, 1, -1], [band.left + band.width + 30, band.top + band.height + 10, -1, -1]] as const) {
    for (let d = 0; d < arm; d++) for (let e = 0; e < th; e++) { paint(out, w, h, cx + sx * d, cy + sy * e, green); paint(out, w, h, cx + sx * e, cy + sy * d, green); }
  }
  return out;
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

