import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { DEFAULT_DOCUMENT_SETTINGS } from '../settings.js';
import { DocumentEngineError, mrzReadParams, mrzWorker, OCRB_FONT, verifyModels } from './workers.js';

describe('verifyModels: the stamp says what runs', () => {
  const sha = DEFAULT_DOCUMENT_SETTINGS.tessdata.mrzSha256;

  it('stamps the OCR-B font when the profile uses the glyph reader', () => {
    const stamps = verifyModels(sha, { glyphReader: true });
    expect(stamps.map((s) => s.name)).toContain('fonts-ocr-b/OCRB.otf');
    expect(stamps.find((s) => s.name === 'fonts-ocr-b/OCRB.otf')!.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('refuses to start (ocr_font_missing) rather than silently running without the glyph reader', () => {
    let err: unknown;
    try {
      verifyModels(sha, { glyphReader: true, fontPath: `${OCRB_FONT}.absent` });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(DocumentEngineError);
    expect((err as DocumentEngineError).code).toBe('ocr_font_missing');
    expect((err as Error).message).toMatch(/OCRB\.otf\.absent is missing/);
  });

  it('does not need the font when the profile has the glyph reader off', () => {
    const stamps = verifyModels(sha, { glyphReader: false, fontPath: `${OCRB_FONT}.absent` });
    expect(stamps.map((s) => s.name)).not.toContain('fonts-ocr-b/OCRB.otf');
  });
});

describe('OcrWorker closed under a read', () => {
  it('ends the read with ocr_closed, never a TypeError or a read that never answers, and reads again afterwards', async () => {
    const worker = mrzWorker(DEFAULT_DOCUMENT_SETTINGS.tessdata.mrzSha256);
    const strip = await sharp({ create: { width: 600, height: 80, channels: 3, background: '#ffffff' } }).png().toBuffer();
    // Thirty lines of MRZ text: a read of a second or more, so the close lands while it runs.
    const line = 'P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<';
    const page = await sharp(Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="1400" height="1500"><rect width="100%" height="100%" fill="white"/>${
      Array.from({ length: 30 }, (_, i) => `<text x="20" y="${45 + i * 48}" font-family="OCR B" font-size="40">${line.replace(/</g, '&lt;')}</text>`).join('')}</svg>`)).png().toBuffer();
    try {
      await worker.recognize(strip, mrzReadParams({}), 30_000);
      const read = worker.recognize(page, mrzReadParams({ noInvert: true }), 60_000);
      await new Promise((r) => setTimeout(r, 100));
      const closing = worker.close();
      const err = await read.then(() => null, (e: unknown) => e);
      expect(err).toBeInstanceOf(DocumentEngineError);
      expect((err as DocumentEngineError).code).toBe('ocr_closed');
      await closing;
      // A later read starts a fresh worker and sets its parameters again.
      expect((await worker.recognize(strip, mrzReadParams({ noInvert: true }), 30_000)).lines).toEqual([]);
    } finally {
      await worker.close();
    }
  });
});
