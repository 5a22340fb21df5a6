import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { DocumentEngineError } from '../ocr/workers.js';
import { MRZ_REC_1 } from '../settings.js';
import { MRZ_REC_DIR, MrzLineRecognizer } from './mrzrec.js';
import { splitTextLines } from './scan.js';

/**
 * The project's MRZ recogniser (`mrzrec.ts`, document engine 3.0): the committed model, pinned;
 * real ONNX Runtime on rendered lines. Its accuracy on real captures is bench:documents' business.
 */

/**
 * An MRZ band rendered in OCR-B (`px` px font, the MRZ's line spacing), JPEG-compressed. The
 * recogniser reads what `splitTextLines` cuts from a band (a third of a line height above and
 * below the ink), the only framing it was trained on, so the tests cut the band the same way.
 */
async function band(lines: string[], px = 28, quality = 90): Promise<Buffer> {
  const w = Math.round(Math.max(...lines.map((l) => l.length)) * px * 0.72) + 2 * px;
  const h = Math.round(px * (1.2 + 1.6 * lines.length));
  const text = lines.map((l, i) => `<text x="${px}" y="${Math.round(px * (1.6 + 1.6 * i))}" font-family="OCR B" font-size="${px}" fill="#1a1a1a">${l.replace(/</g, '&lt;')}</text>`).join('');
  return sharp(Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}"><rect width="100%" height="100%" fill="#eceadf"/>${text}</svg>`)).jpeg({ quality }).toBuffer();
}

async function readBand(rec: MrzLineRecognizer, png: Buffer): Promise<string[]> {
  const parts = await splitTextLines(png);
  expect(parts).not.toBeNull();
  const out: string[] = [];
  for (const part of parts!) {
    const got = await rec.read(part);
    expect(got.confidence).toBeGreaterThan(0);
    expect(got.confidence).toBeLessThanOrEqual(1);
    out.push(got.text);
  }
  return out;
}

// ICAO 9303-4 Appendix A (Utopia passport) and ICAO 9303-5's TD1 specimen (Utopia).
const TD3 = ['P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<', 'L898902C36UTO7408122F1204159ZE184226B<<<<<10'];
const TD1 = ['I<UTOD231458907<<<<<<<<<<<<<<<', '7408122F1204159UTO<<<<<<<<<<<6', 'ERIKSSON<<ANNA<MARIA<<<<<<<<<<'];

describe('MrzLineRecognizer (3.0)', () => {
  it('reads rendered OCR-B MRZ lines exactly, filler runs included', async () => {
    const rec = await MrzLineRecognizer.create(MRZ_REC_1);
    expect(await readBand(rec, await band(TD3))).toEqual(TD3);
    expect(await readBand(rec, await band(TD1))).toEqual(TD1);
    await rec.release();
  }, 60_000);

  it('reads small print: the band scaled to about 10 px characters and compressed', async () => {
    const rec = await MrzLineRecognizer.create(MRZ_REC_1);
    const big = await band(TD3);
    const meta = await sharp(big).metadata();
    const small = await sharp(big).resize(Math.round(meta.width! * 14 / 28)).jpeg({ quality: 60 }).toBuffer();
    expect(await readBand(rec, small)).toEqual(TD3);
    await rec.release();
  }, 60_000);

  it('gives an empty read, not a crash, for a blank or tiny crop', async () => {
    const rec = await MrzLineRecognizer.create(MRZ_REC_1);
    const blank = await sharp({ create: { width: 300, height: 40, channels: 3, background: '#ffffff' } }).png().toBuffer();
    expect((await rec.read(blank)).text).toBe('');
    const tiny = await sharp({ create: { width: 1, height: 1, channels: 3, background: '#000000' } }).png().toBuffer();
    expect(typeof (await rec.read(tiny)).text).toBe('string');
    await rec.release();
  }, 60_000);

  it('refuses a model whose bytes are not the pinned ones, and a missing one', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'mrzrec-'));
    await expect(MrzLineRecognizer.create(MRZ_REC_1, dir)).rejects.toMatchObject({ code: 'ocr_model_missing' });
    const bytes = readFileSync(path.join(MRZ_REC_DIR, MRZ_REC_1.model));
    bytes[bytes.length - 1] ^= 1;
    writeFileSync(path.join(dir, MRZ_REC_1.model), bytes);
    const err = await MrzLineRecognizer.create(MRZ_REC_1, dir).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DocumentEngineError);
    expect(err).toMatchObject({ code: 'ocr_model_mismatch' });
    copyFileSync(path.join(MRZ_REC_DIR, MRZ_REC_1.model), path.join(dir, MRZ_REC_1.model));
    await (await MrzLineRecognizer.create(MRZ_REC_1, dir)).release();
  }, 60_000);
});
