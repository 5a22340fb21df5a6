import { readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { isHeldOut } from '../../../bench/documents-real.js';
import { expectSyntheticPasses, PUBLIC_TUNING, publicTuningTruth, useDocumentEngine } from '../../../test/real-documents.js';
import { DOCUMENT_SETTINGS_V10, DOCUMENT_SETTINGS_V11 } from '../index.js';
import { LINE_REC_PIN, LineRecognizer } from './rec.js';
import { sha256File } from '../ocr/workers.js';

/**
 * Document engine 2.9 (`DOCUMENT_SETTINGS_V11`, `scan.lineRec`): PaddleOCR's PP-OCRv4 line
 * recogniser beside tesseract. Real model, real images (public TUNING images only; held-out and
 * public unseen images stay out of every test).
 */
const NOW = new Date('2026-11-29T00:00:00Z');

/** One MRZ line rendered in OCR-B at 28 px (an advance of about 0.7 em) on a pale background. */
async function line(text: string): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${Math.round(text.length * 28 * 0.7) + 40}" height="56"><rect width="100%" height="100%" fill="#f2f1ea"/><text x="20" y="38" font-family="OCR B" font-size="28" fill="#151515">${text.replace(/</g, '&lt;')}</text></svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

describe('LineRecognizer (2.9)', () => {
  it('loads only the pinned files', async () => {
    const f = await LineRecognizer.files();
    expect(sha256File(f.model)).toBe(LINE_REC_PIN.modelSha256);
    expect(sha256File(f.dictionary)).toBe(LINE_REC_PIN.dictionarySha256);
  });

  it('reads rendered OCR-B MRZ lines, fillers included', async () => {
    const rec = await LineRecognizer.create();
    // ICAO 9303-4 Appendix A (Utopia). OCR-B's O and 0 are near one glyph: the recogniser prints
    // either, and the MRZ's type repair and check digits settle them (`repairLines`, `resolveTwins`).
    const twins = (t: string) => t.replace(/O/g, '0');
    expect(twins(await rec.read(await line('L898902C36UTO7408122F1204159ZE184226B<<<<<10')))).toBe(twins('L898902C36UTO7408122F1204159ZE184226B<<<<<10'));
    const name = await rec.read(await line('P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<'));
    // The filler count of a run is what a line reader gets wrong: the name and its separators are exact.
    expect(name.replace(/<+$/, '')).toBe('P<UTOERIKSSON<<ANNA<MARIA');
  }, 60_000);

  it('gives an empty string, not a crash, for a blank or tiny crop', async () => {
    const rec = await LineRecognizer.create();
    const blank = await sharp({ create: { width: 300, height: 40, channels: 3, background: '#ffffff' } }).png().toBuffer();
    expect(await rec.read(blank)).toBe('');
    const tiny = await sharp({ create: { width: 1, height: 1, channels: 3, background: '#000000' } }).png().toBuffer();
    expect(typeof (await rec.read(tiny))).toBe('string');
  }, 60_000);
});


describe('document engine 2.9 on real images', () => {
  const v10 = useDocumentEngine(DOCUMENT_SETTINGS_V10);
  const v11 = useDocumentEngine(DOCUMENT_SETTINGS_V11);
  const FILE = 'saiful9379__MRZ_DETECTION__data__I1-_INVALID.png';
  const truth = publicTuningTruth(FILE);

  it.skipIf(!truth)('the 1987 German ID card: read line by line, confirmed by the learned recogniser (public tuning)', async () => {
    expect(isHeldOut(truth!)).toBe(false);
    const bytes = readFileSync(path.join(PUBLIC_TUNING, FILE));
    const before = await v10().scanMrz(bytes);
    expect(before.valid).toBe(false);
    const after = await v11().scanMrz(bytes);
    expect(after.valid).toBe(true);
    expect(after.parsed?.lines).toEqual(truth!.mrz_lines);
    expect(after.attempts?.some((a) => a.source === 'rec')).toBe(true);
  }, 120_000);

  it('reads a synthetic passport as 2.8 does, and stamps the recogniser model', async () => {
    await expectSyntheticPasses(v11(), 'moz-passport', 'MOZ', 'passport', NOW);
    expect(v11().models.some((m) => m.sha256 === LINE_REC_PIN.modelSha256)).toBe(true);
  }, 120_000);
});
