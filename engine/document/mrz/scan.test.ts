import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectSyntheticPasses, REAL_DOCUMENTS, realMrzTruth, useDocumentEngine } from '../../../test/real-documents.js';
import { createDocumentEngine, DOCUMENT_SETTINGS_V2 } from '../index.js';

/**
 * Document engine 2.x on real specimen captures (`../shared/documents-real`, tuning images only:
 * the held-out ones stay out of every test and tuning loop) and on the synthetic corpus, whose
 * figures must not fall. Real tesseract, real images.
 */
const REAL = REAL_DOCUMENTS;
const NOW = new Date('2026-11-21T00:00:00Z');
const documentEngine = useDocumentEngine(DOCUMENT_SETTINGS_V2);

const truth = realMrzTruth;

describe.runIf(existsSync(REAL))('scanMrz on real specimen captures', () => {
  it.each([
    ['DoubangoTelecom__ultimateMRZ-SDK__assets__images__Czech_passport_2005_MRZ_orient6_1300x1002.jpg', 'EXIF-rotated stock photo'],
    ['DoubangoTelecom__ultimateMRZ-SDK__assets__images__Passport-Australia_1280x720_rotate+90.jpg', 'quarter-turned'],
    ['regulaforensics__DocumentReader-web-js-client__examples__basic__WHITE.jpg', 'a BMP file'],
    ['developer79433__passport_mrz_detector_cpp__test_data__mrz_example_05.jpg', 'low-resolution scan'],
  ])('%s (%s): exact and valid', async (file) => {
    const r = await documentEngine().scanMrz(readFileSync(path.join(REAL, file)));
    expect(r.parsed?.lines).toEqual(truth(file));
    expect(r.valid).toBe(true);
    expect(r.reason).toBeUndefined();
  });

  it('a card whose printed composite check digit is wrong is read exactly and reported mrz_check_digits_failed, never valid', async () => {
    const file = 'developer79433__passport_mrz_detector_cpp__test_data__mrz_example_04.jpg';
    const r = await documentEngine().scanMrz(readFileSync(path.join(REAL, file)));
    expect(r.parsed?.lines).toEqual(truth(file));
    expect(r.valid).toBe(false);
    expect(r.reason).toBe('mrz_check_digits_failed');
  });
});

describe('scanMrz without an MRZ', () => {
  it('a blank page is mrz_not_found or mrz_unreadable, never valid', async () => {
    const sharp = (await import('sharp')).default;
    const blank = await sharp({ create: { width: 800, height: 600, channels: 3, background: '#f4f1ea' } }).jpeg().toBuffer();
    const r = await documentEngine().scanMrz(blank);
    expect(r.valid).toBe(false);
    expect(['mrz_not_found', 'mrz_unreadable']).toContain(r.reason);
  });

  it('1.x settings have no scan', async () => {
    const old = await createDocumentEngine();
    await expect(old.scanMrz(Buffer.from('x'))).rejects.toMatchObject({ code: 'scan_unavailable' });
    await old.close();
  });
});

describe('2.x analyze on the synthetic corpus (figures must not fall)', () => {
  it.each([
    ['moz-passport', 'MOZ', 'passport'],
    ['mex-passport', 'MEX', 'passport'],
    ['mex-ine', 'MEX', 'national_id'],
    ['moz-bi', 'MOZ', 'national_id'],
  ] as const)('%s photographed passes both checks', async (template, country, type) => {
    const { doc, res } = await expectSyntheticPasses(documentEngine(), template, country, type, NOW);
    expect(res.extracted.document_number).toBe(doc.truth.identity.document_number);
    // Captions read with the document's language model (por / spa), not only located.
    const ev = res.ocr.evidence as { captions?: Record<string, { matched: boolean; text: string }>; captions_matched?: number; captions_total?: number };
    expect(ev.captions, 'captions evidence').toBeDefined();
    expect(ev.captions_matched!, JSON.stringify(ev.captions)).toBeGreaterThanOrEqual(Math.ceil(ev.captions_total! * 0.75));
    expect(res.ocr.models.map((m) => m.name)).toEqual(expect.arrayContaining(['tesseract-ocr-por/por.traineddata', 'tesseract-ocr-spa/spa.traineddata']));
  });
});

describe.runIf(existsSync(REAL))('quickQuality (capture-time advice)', () => {
  const file = path.join(REAL, 'DoubangoTelecom__ultimateMRZ-SDK__assets__images__Czech_passport_2005_MRZ_orient1_1300x1002.jpg');

  it('a sharp passport photo with its MRZ in view is fine', async () => {
    const r = await documentEngine().quickQuality(readFileSync(file), { expectMrz: true });
    expect(r.issues).toEqual([]);
    expect(r.ok).toBe(true);
  });

  it('the same photo heavily blurred is flagged blurry, with advice in en/pt/es', async () => {
    const sharp = (await import('sharp')).default;
    const r = await documentEngine().quickQuality(await sharp(readFileSync(file)).blur(6).jpeg().toBuffer(), { expectMrz: true });
    expect(r.issues).toContain('blurry');
    expect(r.messages.pt[0]).toMatch(/desfocada/);
    expect(r.messages.es[0]).toMatch(/borrosa/);
  });

  it('a page without an MRZ is mrz_not_found when one is expected, fine when not; garbage is unreadable_image', async () => {
    const sharp = (await import('sharp')).default;
    const page = await sharp({ create: { width: 900, height: 600, channels: 3, background: '#f4f1ea' } }).composite([{ input: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="900" height="600"><text x="40" y="100" font-size="40" font-family="DejaVu Sans">Some caption text</text></svg>') }]).jpeg().toBuffer();
    expect((await documentEngine().quickQuality(page, { expectMrz: true })).issues).toContain('mrz_not_found');
    expect((await documentEngine().quickQuality(page, { expectMrz: false })).issues).not.toContain('mrz_not_found');
    expect((await documentEngine().quickQuality(Buffer.from('not an image at all'), { expectMrz: true })).issues).toEqual(['unreadable_image']);
  });
});
