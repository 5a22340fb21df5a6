import { readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { keystonedPrint, keystoneToSource, smallPrint } from '../../../bench/documents-real.js';
import { warp } from '../image/warp.js';
import { REAL_DOCUMENTS, realMrzTruth, useDocumentEngine } from '../../../test/real-documents.js';
import { DOCUMENT_SETTINGS_V28, DOCUMENT_SETTINGS_V29 } from '../index.js';
import { bandLines, rectifyingQuad, type BandLine } from './rectify.js';
import { bandInk, rectifiedBand } from './scan.js';

/** ICAO 9303 Part 4's TD3 specimen. */
const TD3 = ['P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<', 'L898902C36UTO7408122F1204159ZE184226B<<<<<10'];

/**
 * The specimen's two lines in OCR-B on white, as one grey band; `side` narrowed by 20 % as the
 * bench's perspective set narrows a frame, on paper (the band is cut from inside a document).
 */
async function band(side?: 'top' | 'bottom' | 'left' | 'right'): Promise<{ data: Buffer; width: number; height: number }> {
  const px = 28;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${Math.round(44 * px * 0.72) + 40}" height="${px * 4}"><rect width="100%" height="100%" fill="#ffffff"/>`
    + TD3.map((l, i) => `<text x="20" y="${Math.round(px * (1.5 + 1.6 * i))}" font-family="OCR B" font-size="${px}" fill="#151515">${l.replace(/</g, '&lt;')}</text>`).join('') + '</svg>';
  const { data, info } = await sharp(Buffer.from(svg)).greyscale().extractChannel(0).raw().toBuffer({ resolveWithObject: true });
  if (!side) return { data, width: info.width, height: info.height };
  const W = info.width, H = info.height;
  const out = warp({ data, width: W, height: H, channels: 1 }, keystoneToSource(W, H, side, 0.2), W, H, [255]);
  return { data: out.data, width: W, height: H };
}

/** The band's lines as `rectifiedBand` measures them. */
const linesOf = (b: { data: Buffer; width: number; height: number }): BandLine[] | null => bandLines(bandInk(b.data, b.width, b.height), b.width, b.height);

/**
 * Document engine 3.17 (`DOCUMENT_SETTINGS_V29`): a band whose lines show a slanted view is made a
 * rectangle again before it is read (`scan.retry.rectify`, `mrz/rectify.ts`).
 */
describe('document engine 3.17: bands under perspective made rectangles again', () => {
  it('differs from 3.16 only in scan.retry.rectify', () => {
    expect({ ...DOCUMENT_SETTINGS_V29, version: '', scan: { ...DOCUMENT_SETTINGS_V29.scan, retry: { ...DOCUMENT_SETTINGS_V29.scan!.retry!, rectify: undefined } } })
      .toEqual({ ...DOCUMENT_SETTINGS_V28, version: '', scan: { ...DOCUMENT_SETTINGS_V28.scan, retry: { ...DOCUMENT_SETTINGS_V28.scan!.retry!, rectify: undefined } } });
    expect(DOCUMENT_SETTINGS_V28.scan!.retry!.rectify).toBeFalsy();
    expect(DOCUMENT_SETTINGS_V29.scan!.retry!.rectify).toBe(true);
  });

  it('a band printed square is left as it is: two level lines of one extent, no quadrilateral, no redrawing', async () => {
    const b = await band();
    const lines = linesOf(b)!;
    expect(lines).toHaveLength(2);
    for (const l of lines) expect(Math.abs(l.b)).toBeLessThan(0.005);
    expect(Math.abs(lines[0]!.x0 - lines[1]!.x0)).toBeLessThan(0.5 * lines[0]!.height);
    expect(rectifyingQuad(lines)).toBeNull();
    expect(rectifiedBand(b.data, b.width, b.height)).toBeNull();
  });

  it('under perspective from each side the lines part (ends or angles) and the band is redrawn; redrawn, its lines are square again', async () => {
    for (const side of ['top', 'bottom', 'left', 'right'] as const) {
      const b = await band(side);
      const lines = linesOf(b)!;
      expect(lines, side).toHaveLength(2);
      expect(rectifyingQuad(lines), side).not.toBeNull();
      const r = rectifiedBand(b.data, b.width, b.height)!;
      expect(r, side).not.toBeNull();
      const after = linesOf(r)!;
      expect(after, side).toHaveLength(2);
      const [t, l] = after as [BandLine, BandLine];
      // Square again within a third of a glyph: starts and ends aligned, the lines parallel.
      expect(Math.abs(t.x0 - l.x0), side).toBeLessThan(0.35 * t.height);
      expect(Math.abs(t.x1 - l.x1), side).toBeLessThan(0.35 * t.height);
      expect(Math.abs(t.b - l.b) * (t.x1 - t.x0), side).toBeLessThan(0.25 * t.height);
    }
  });

  const v28 = useDocumentEngine(DOCUMENT_SETTINGS_V28);
  const v29 = useDocumentEngine(DOCUMENT_SETTINGS_V29);
  const PRADO = 'kundestyrt-gruppe-5-2022__passport-mrz-reader-public__data__images__PRADO_MRZ__25899.jpeg';
  it('a real MRZ crop (tuning) seen with its top edge narrowed (bench --keystone top): 3.16 reads nothing it can confirm, 3.17 rectifies the band and reads it valid and exact', async () => {
    const slanted = (await keystonedPrint(readFileSync(path.join(REAL_DOCUMENTS, PRADO)), 'top', 0.2))!;
    const [before, after] = [await v28().scanMrz(slanted), await v29().scanMrz(slanted)];
    expect(before.valid).toBe(false);
    expect(before.parsed?.lines).not.toEqual(realMrzTruth(PRADO));
    expect(after.valid).toBe(true);
    expect(after.parsed?.lines).toEqual(realMrzTruth(PRADO));
  }, 120_000);

  const CZE = 'DoubangoTelecom__ultimateMRZ-SDK__assets__images__Czech_passport_2005_MRZ_orient1_1300x1002.jpg';
  it('small print on a guilloche (the Czech specimen at 0.3 scale, tuning): fillers lost to the character filter do not pass for perspective; read valid and exact as under 3.16', async () => {
    const small = (await smallPrint(readFileSync(path.join(REAL_DOCUMENTS, CZE)), 0.3))!;
    const scan = await v29().scanMrz(small);
    expect(scan.valid).toBe(true);
    expect(scan.parsed?.lines).toEqual(realMrzTruth(CZE));
  }, 120_000);

  it('any band, however odd, gives a redrawn band of its own size or null, never an error: blank, black, noise, stripes, tiny', () => {
    let seed = 7;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const cases: [number, number, (i: number, w: number) => number][] = [
      [400, 60, () => 255], [400, 60, () => 0], [640, 90, () => Math.floor(rnd() * 256)],
      [640, 90, (i, w) => (Math.floor(i / w) % 12 < 4 ? 20 : 235)], [640, 90, (i) => (i % 9 < 3 ? 20 : 235)],
      [3, 2, () => 0], [1, 1, () => 128], [900, 12, () => Math.floor(rnd() * 256)],
    ];
    for (const [w, h, px] of cases) {
      const data = Buffer.from(Array.from({ length: w * h }, (_, i) => px(i, w)));
      const r = rectifiedBand(data, w, h);
      if (r) expect([r.width, r.height, r.data.length]).toEqual([w, h, w * h]);
    }
  });

  it('marks that are no characters (a document edge along a line, a rule) do not lengthen a line', async () => {
    const b = await band();
    const lines = linesOf(b)!;
    // A rule drawn along the first line's top, past both its ends.
    const withRule = Buffer.from(b.data);
    const y = Math.round(lines[0]!.a - 0.7 * lines[0]!.height);
    for (let x = 2; x < b.width - 2; x++) for (let dy = 0; dy < 2; dy++) withRule[(y + dy) * b.width + x] = 0;
    const ruled = linesOf({ ...b, data: withRule })!;
    expect(Math.abs(ruled[0]!.x0 - lines[0]!.x0)).toBeLessThan(2);
    expect(Math.abs(ruled[0]!.x1 - lines[0]!.x1)).toBeLessThan(2);
    expect(rectifiedBand(withRule, b.width, b.height)).toBeNull();
  });
});
