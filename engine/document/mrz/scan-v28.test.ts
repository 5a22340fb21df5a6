import { readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { keystonedPrint, runRealBench, turnedPrint } from '../../../bench/documents-real.js';
import { REAL_DOCUMENTS, realMrzTruth, useDocumentEngine } from '../../../test/real-documents.js';
import { DOCUMENT_SETTINGS_V27, DOCUMENT_SETTINGS_V28, type DocumentEngine } from '../index.js';
import { bandSkew } from './scan.js';

/** ICAO 9303 Part 4's TD3 specimen. */
const TD3 = ['P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<', 'L898902C36UTO7408122F1204159ZE184226B<<<<<10'];

/** The specimen's two lines in OCR-B on white, turned `degrees` clockwise, as one grey image. */
async function tiltedBand(degrees: number): Promise<{ data: Buffer; width: number; height: number }> {
  const px = 28;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${Math.round(44 * px * 0.72) + 40}" height="${px * 4}"><rect width="100%" height="100%" fill="#ffffff"/>`
    + TD3.map((l, i) => `<text x="20" y="${Math.round(px * (1.5 + 1.6 * i))}" font-family="OCR B" font-size="${px}" fill="#151515">${l.replace(/</g, '&lt;')}</text>`).join('') + '</svg>';
  const { data, info } = await sharp(Buffer.from(svg)).greyscale().rotate(degrees, { background: '#ffffff' }).extractChannel(0).raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/**
 * Document engine 3.16 (`DOCUMENT_SETTINGS_V28`): every band is levelled by its own text angle before it
 * is read (`scan.retry.deskew`, built in 2.1 and off until now).
 */
describe('document engine 3.16: each band levelled by its own text angle', () => {
  it('differs from 3.15 only in scan.retry.deskew', () => {
    expect({ ...DOCUMENT_SETTINGS_V28, version: '', scan: { ...DOCUMENT_SETTINGS_V28.scan, retry: { ...DOCUMENT_SETTINGS_V28.scan!.retry!, deskew: undefined } } })
      .toEqual({ ...DOCUMENT_SETTINGS_V27, version: '', scan: { ...DOCUMENT_SETTINGS_V27.scan, retry: { ...DOCUMENT_SETTINGS_V27.scan!.retry!, deskew: undefined } } });
    expect(DOCUMENT_SETTINGS_V27.scan!.retry!.deskew).toBeFalsy();
    expect(DOCUMENT_SETTINGS_V28.scan!.retry!.deskew).toBe(true);
  });

  it('bandSkew measures a band turned by a degree or two, either way, to its quarter-degree step; a level band reads 0', async () => {
    for (const deg of [-2, -1, 1, 1.5, 2]) {
      const t = await tiltedBand(deg);
      expect(Math.abs((await bandSkew(t, 0, 0, t.width, t.height)) - deg)).toBeLessThanOrEqual(0.25);
    }
    const level = await tiltedBand(0);
    expect(await bandSkew(level, 0, 0, level.width, level.height)).toBe(0);
  });

  const v27 = useDocumentEngine(DOCUMENT_SETTINGS_V27);
  const v28 = useDocumentEngine(DOCUMENT_SETTINGS_V28);
  const CZE = 'DoubangoTelecom__ultimateMRZ-SDK__assets__images__Czech_passport_2005_MRZ_orient1_1300x1002.jpg';
  it('the Czech specimen turned 1° (real, tuning): its band is searched level, so 3.15 cuts the lines askew and only tesseract reads them; 3.16 levels the band first, valid and exact', async () => {
    const turned = (await turnedPrint(readFileSync(path.join(REAL_DOCUMENTS, CZE)), 1))!;
    const [before, after] = [await v27().scanMrz(turned), await v28().scanMrz(turned)];
    expect(before.valid).toBe(false);
    expect(after.valid).toBe(true);
    expect(after.parsed?.lines).toEqual(realMrzTruth(CZE));
    // Levelled, the MRZ recogniser reads the band too (3.15: nothing).
    expect(after.attempts.some((a) => a.source === 'mrz' && a.checksOk === a.checks && a.checks > 0)).toBe(true);
    expect(before.attempts.filter((a) => a.source === 'mrz').every((a) => a.checksOk < a.checks || a.checks === 0)).toBe(true);
  }, 120_000);

  it('the perspective stress set (bench --keystone): the narrowed edge leaves grey corners, the far edge stays whole; tuning side only', async () => {
    const white = await sharp({ create: { width: 400, height: 300, channels: 3, background: '#ffffff' } }).png().toBuffer();
    const px = async (img: Buffer, x: number, y: number) => { const { data, info } = await sharp(img).raw().toBuffer({ resolveWithObject: true }); return data[(y * info.width + x) * info.channels]!; };
    const top = (await keystonedPrint(white, 'top', 0.2))!;
    expect(Math.abs((await px(top, 3, 3)) - 128)).toBeLessThanOrEqual(3);
    expect(await px(top, 3, 296)).toBeGreaterThan(245);
    const right = (await keystonedPrint(white, 'right', 0.2))!;
    expect(Math.abs((await px(right, 396, 3)) - 128)).toBeLessThanOrEqual(3);
    expect(await px(right, 3, 3)).toBeGreaterThan(245);
    await expect(runRealBench(REAL_DOCUMENTS, {} as DocumentEngine, undefined, false, false, undefined, undefined, { side: 'top', k: 0.2 })).rejects.toThrow(/tuning images only/);
  });
});
