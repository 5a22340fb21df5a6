import { describe, expect, it } from 'vitest';
import { DEFAULT_DOCUMENT_SETTINGS } from '../settings.js';
import { DocumentEngineError, OCRB_FONT, verifyModels } from './workers.js';

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
