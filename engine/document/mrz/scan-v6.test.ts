import { readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { glyphHeight, tint } from '../../../bench/degrade.js';
import { REAL_DOCUMENTS, realMrzTruth, useDocumentEngine } from '../../../test/real-documents.js';
import { DOCUMENT_SETTINGS_V5, DOCUMENT_SETTINGS_V6 } from '../index.js';

/**
 * Document engine 2.4 (`DOCUMENT_SETTINGS_V6`): a bounded cost for enlarged (small-glyph) bands
 * that cannot be read. Real tesseract on real TUNING images only (held-out and public unseen
 * images stay out of every test), on copies of them made smaller or tinted.
 */
const REAL = REAL_DOCUMENTS;
const v6 = useDocumentEngine(DOCUMENT_SETTINGS_V6);
const v5 = useDocumentEngine(DOCUMENT_SETTINGS_V5);
const truth = realMrzTruth;
const PRADO = 'kundestyrt-gruppe-5-2022__passport-mrz-reader-public__data__images__PRADO_MRZ__25899.jpeg';
const CZECH = 'DoubangoTelecom__ultimateMRZ-SDK__assets__images__Czech_passport_2005_MRZ_orient1_1300x1002.jpg';

async function rgbOf(file: string) {
  const { data, info } = await sharp(readFileSync(path.join(REAL, file))).rotate().removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/** The capture scaled so its MRZ glyphs are `px` high (measured by the band search), JPEG q75. */
async function tinyCopy(file: string, px: number): Promise<Buffer> {
  const { data, width, height } = await rgbOf(file);
  const f = px / (await glyphHeight(data, width, height))!;
  return sharp(data, { raw: { width, height, channels: 3 } }).resize(Math.round(width * f), Math.round(height * f), { kernel: 'lanczos3' }).jpeg({ quality: 75 }).toBuffer();
}

/** The capture with glyphs at most 12 px, under a pale security-print tint (`bench/degrade.ts`), JPEG q70. */
async function tintedCopy(file: string, k: number): Promise<Buffer> {
  const src = await rgbOf(file);
  const f = Math.min(1, 12 / (await glyphHeight(src.data, src.width, src.height))!);
  const { data, info } = await sharp(src.data, { raw: { width: src.width, height: src.height, channels: 3 } })
    .resize(Math.round(src.width * f), Math.round(src.height * f), { kernel: 'lanczos3' }).raw().toBuffer({ resolveWithObject: true });
  return sharp(tint(data, info.width, info.height, k), { raw: { width: info.width, height: info.height, channels: 3 } }).jpeg({ quality: 70 }).toBuffer();
}

const tesseractReads = (r: { attempts: { source: string }[] }) => r.attempts.filter((a) => a.source.startsWith('tesseract')).length;

describe('2.4 settings', () => {
  it('2.4 is 2.3 plus the enlarged-band bounds; 2.3 is unchanged', () => {
    const { enlargedBand, ...rest } = DOCUMENT_SETTINGS_V6.scan!;
    expect(enlargedBand).toEqual({ maxReads: 5, stopApart: true, keepTurn: true });
    expect(rest).toEqual(DOCUMENT_SETTINGS_V5.scan);
    expect(DOCUMENT_SETTINGS_V5.scan!.enlargedBand).toBeUndefined();
    expect(DOCUMENT_SETTINGS_V6.version).toBe('document-engine@2.4.0');
  });
});

describe('2.4 on real tuning captures made harder', () => {
  it('print too small to read (6 px glyphs): 2.4 spends fewer reads than 2.3 and neither reports it valid', async () => {
    const bytes = await tinyCopy(PRADO, 6);
    const now = await v6().scanMrz(bytes);
    const old = await v5().scanMrz(bytes);
    expect(now.valid).toBe(false);
    expect(old.valid).toBe(false);
    expect(tesseractReads(now)).toBeLessThan(tesseractReads(old));
  });

  it('7 px glyphs (PRADO French passport MRZ) are still read exactly and valid', async () => {
    const r = await v6().scanMrz(await tinyCopy(PRADO, 7));
    expect(r.parsed?.lines).toEqual(truth(PRADO));
    expect(r.valid).toBe(true);
  });

  it('a tinted, patterned Czech specimen is still read exactly and valid', async () => {
    const r = await v6().scanMrz(await tintedCopy(CZECH, 1));
    expect(r.parsed?.lines).toEqual(truth(CZECH));
    expect(r.valid).toBe(true);
  });

  it('a real capture as taken (UK passport) reads exactly and valid', async () => {
    const file = 'sivakumar-mahalingam__fastmrz__data__passport_uk.jpg';
    const r = await v6().scanMrz(readFileSync(path.join(REAL, file)));
    expect(r.parsed?.lines).toEqual(truth(file));
    expect(r.valid).toBe(true);
  });
});
