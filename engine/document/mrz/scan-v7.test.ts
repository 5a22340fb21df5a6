import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { glyphHeight } from '../../../bench/degrade.js';
import { REPO_ROOT } from '../../assets.js';
import { REAL_DOCUMENTS, realMrzTruth, useDocumentEngine } from '../../../test/real-documents.js';
import { DOCUMENT_SETTINGS_V6, DOCUMENT_SETTINGS_V7, type MrzScan } from '../index.js';

/**
 * Document engine 2.5 (`DOCUMENT_SETTINGS_V7`): a small-glyph band is stopped once two of its reads
 * pass every check and disagree, and an unconfirmed read is `mrz_unreadable`. Real tesseract on
 * real TUNING images only (held-out and public unseen images stay out of every test), on copies
 * made as `bench/augment-real.ts` makes its `tiny`, `micro` and `blur` variants.
 */
const REAL = REAL_DOCUMENTS;
const v7 = useDocumentEngine(DOCUMENT_SETTINGS_V7);
const v6 = useDocumentEngine(DOCUMENT_SETTINGS_V6);
const truth = realMrzTruth;
const UK = 'sivakumar-mahalingam__fastmrz__data__passport_uk.jpg';
const CZECH = 'DoubangoTelecom__ultimateMRZ-SDK__assets__images__Czech_passport_2005_MRZ_orient1_1300x1002.jpg';
const GBR_JENNINGS = 'developer79433__passport_mrz_detector_cpp__examples__passport_05.jpg';
const AUT_MISPRINT = 'developer79433__passport_mrz_detector_cpp__examples__passport_04.jpg';
/** The public TUNING set (`npm run fetch-documents-real -- --set public-tuning`; tuning side of the fixed hash split). */
const PUBLIC_TUNING = path.join(REPO_ROOT, '.data', 'documents-public-tuning');
const BGR = 'regulaforensics__DocumentReader-Android__Authenticity__DocumentReader-authenticity-sample_kotlin__app__src__main__res__drawable__auth_doc_ipi.png';

async function rgbOf(file: string) {
  const { data, info } = await sharp(readFileSync(path.join(REAL, file))).rotate().removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/** The capture scaled so its MRZ glyphs are `px` high (measured by the band search), JPEG q75. */
async function tinyCopy(file: string, px: number): Promise<Buffer> {
  const { data, width, height } = await rgbOf(file);
  const f = Math.min(1, px / (await glyphHeight(data, width, height))!);
  return sharp(data, { raw: { width, height, channels: 3 } }).resize(Math.max(8, Math.round(width * f)), Math.max(8, Math.round(height * f)), { kernel: 'lanczos3' }).jpeg({ quality: 75 }).toBuffer();
}

const tesseract = (r: MrzScan) => r.attempts.filter((a) => a.source.startsWith('tesseract'));
/** Distinct line sets printed by tesseract reads that passed every check digit. */
const validVersions = (r: MrzScan) => new Set(tesseract(r).filter((a) => a.lines && a.checks > 0 && a.checksOk === a.checks).map((a) => a.lines!.join('|')));

describe('2.5 settings', () => {
  it('2.5 is 2.4 plus conflictStop (small print only), honestReason and faintSearch; 2.4 is unchanged', () => {
    const { conflictStop, honestReason, faintSearch, ...rest } = DOCUMENT_SETTINGS_V7.scan!;
    expect(conflictStop).toBe('enlarged');
    expect(honestReason).toBe(true);
    expect(faintSearch).toBe(0.5);
    expect(rest).toEqual(DOCUMENT_SETTINGS_V6.scan);
    expect(DOCUMENT_SETTINGS_V6.scan!.conflictStop).toBeUndefined();
    expect(DOCUMENT_SETTINGS_V6.scan!.honestReason).toBeUndefined();
    expect(DOCUMENT_SETTINGS_V7.version).toBe('document-engine@2.5.0');
  });
});

describe('2.5 on real tuning captures made harder', () => {
  it('6 px glyphs (UK passport): two reads pass every check with different names; 2.5 stops there, 2.4 reads on; neither is valid', async () => {
    const bytes = await tinyCopy(UK, 6);
    const now = await v7().scanMrz(bytes);
    const old = await v6().scanMrz(bytes);
    // The phenomenon: reads that pass all check digits and print different lines (a name line
    // no check digit covers). No later read can make such a band valid under the 2.1 rules.
    expect(validVersions(now).size).toBe(2);
    expect(now.valid).toBe(false);
    expect(old.valid).toBe(false);
    expect(now.reason).toBe('mrz_unreadable');
    expect(tesseract(now).length).toBeLessThan(tesseract(old).length);
  });

  it('8 px glyphs (Czech specimen): a valid misread and a valid right read stop the band with fewer reads than 2.4', async () => {
    const bytes = await tinyCopy(CZECH, 8);
    const now = await v7().scanMrz(bytes);
    const old = await v6().scanMrz(bytes);
    expect(now.valid).toBe(false);
    expect(old.valid).toBe(false);
    expect(tesseract(now).length).toBeLessThan(tesseract(old).length);
  });

  it('an unconfirmed read is mrz_unreadable under 2.5 (2.4 called it mrz_check_digits_failed)', async () => {
    const bytes = await tinyCopy(CZECH, 6.5);
    const now = await v7().scanMrz(bytes);
    const old = await v6().scanMrz(bytes);
    expect(now.valid).toBe(false);
    expect(now.nameConfirmed).toBe(false);
    expect(now.reason).toBe('mrz_unreadable');
    expect(old.reason).toBe('mrz_check_digits_failed');
  });

  it('a check digit the card misprints (Austrian ID specimen), read alike twice, is still mrz_check_digits_failed', async () => {
    const r = await v7().scanMrz(readFileSync(path.join(REAL, AUT_MISPRINT)));
    expect(r.parsed?.lines).toEqual(truth(AUT_MISPRINT));
    expect(r.valid).toBe(false);
    expect(r.reason).toBe('mrz_check_digits_failed');
  });

  it('normal-size print keeps the 2:1 confirmation: a blurred GBR specimen (one read prints BICHAEL) is valid and exact', async () => {
    const { data, width, height } = await rgbOf(GBR_JENNINGS);
    const bytes = await sharp(data, { raw: { width, height, channels: 3 } }).blur(1.6).jpeg({ quality: 35 }).toBuffer();
    const r = await v7().scanMrz(bytes);
    expect(r.parsed?.lines).toEqual(truth(GBR_JENNINGS));
    expect(r.valid).toBe(true);
  });

  it('a real capture as taken (UK passport) reads exactly and valid', async () => {
    const r = await v7().scanMrz(readFileSync(path.join(REAL, UK)));
    expect(r.parsed?.lines).toEqual(truth(UK));
    expect(r.valid).toBe(true);
  });

  // Needs the public tuning set on disk; skipped (and reported skipped) where it was not fetched.
  it.skipIf(!existsSync(path.join(PUBLIC_TUNING, BGR)))('a pale MRZ under bold overlay lettering (Bulgarian specimen, public tuning): 2.4 finds no band, 2.5\'s faint search reads it exactly and valid', async () => {
    const bytes = readFileSync(path.join(PUBLIC_TUNING, BGR));
    const want = readFileSync(path.join(PUBLIC_TUNING, 'ground_truth.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { file: string; mrz_lines: string[] }).find((r) => r.file === BGR)!.mrz_lines;
    const old = await v6().scanMrz(bytes);
    expect(old.reason).toBe('mrz_not_found');
    const r = await v7().scanMrz(bytes);
    expect(r.parsed?.lines).toEqual(want);
    expect(r.valid).toBe(true);
  });
});
