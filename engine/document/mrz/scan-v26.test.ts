import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { DOCUMENT_SETTINGS_V25, DOCUMENT_SETTINGS_V26 } from '../index.js';
import { mrzReadParams, mrzWorker } from '../ocr/workers.js';

/** ICAO 9303 Part 4's TD3 specimen. */
const TD3 = ['P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<', 'L898902C36UTO7408122F1204159ZE184226B<<<<<10'];

/** The specimen's two lines in OCR-B, `ink` on `paper`. */
async function band(ink: string, paper: string): Promise<Buffer> {
  const px = 28;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${Math.round(44 * px * 0.72) + 40}" height="${px * 4}"><rect width="100%" height="100%" fill="${paper}"/>`
    + TD3.map((l, i) => `<text x="20" y="${Math.round(px * (1.5 + 1.6 * i))}" font-family="OCR B" font-size="${px}" fill="${ink}">${l.replace(/</g, '&lt;')}</text>`).join('') + '</svg>';
  return sharp(Buffer.from(svg)).greyscale().png().toBuffer();
}

/**
 * Document engine 3.14 (`DOCUMENT_SETTINGS_V26`): the MRZ model's reads skip tesseract's inverted
 * second pass over unsure lines (`scan.noInvert`, `mrzReadParams`).
 */
describe('document engine 3.14: no inverted second pass', () => {
  const worker = mrzWorker(DOCUMENT_SETTINGS_V26.tessdata.mrzSha256);
  afterAll(() => worker.close());

  it('differs from 3.13 only in scan.noInvert', () => {
    expect({ ...DOCUMENT_SETTINGS_V26, version: '', scan: { ...DOCUMENT_SETTINGS_V26.scan, noInvert: undefined } }).toEqual({ ...DOCUMENT_SETTINGS_V25, version: '', scan: { ...DOCUMENT_SETTINGS_V25.scan } });
    expect(DOCUMENT_SETTINGS_V26.scan!.noInvert).toBe(true);
  });

  it('every MRZ read names the inversion setting, on or off', () => {
    expect(mrzReadParams({})).toEqual({ user_defined_dpi: '300', tessedit_do_invert: '1' });
    expect(mrzReadParams({ noInvert: false })).toEqual({ user_defined_dpi: '300', tessedit_do_invert: '1' });
    expect(mrzReadParams({ noInvert: true })).toEqual({ user_defined_dpi: '300', tessedit_do_invert: '0' });
  });

  it('dark print on light paper reads the same either way', async () => {
    const png = await band('#151515', '#f4f1ea');
    const on = await worker.recognize(png, mrzReadParams({}), 30_000);
    const off = await worker.recognize(png, mrzReadParams({ noInvert: true }), 30_000);
    expect(on.lines.map((l) => l.text)).toEqual(TD3);
    expect(off.lines.map((l) => l.text)).toEqual(TD3);
  });

  it('the setting takes effect, and a read under an older profile after a 3.14 read is back to inverting', async () => {
    // Light print on dark: only the inverted pass can read it, so it shows which setting ran.
    const png = await band('#f4f1ea', '#151515');
    expect((await worker.recognize(png, mrzReadParams({}), 30_000)).lines.map((l) => l.text)).toEqual(TD3);
    expect((await worker.recognize(png, mrzReadParams({ noInvert: true }), 30_000)).lines.map((l) => l.text)).not.toEqual(TD3);
    // tesseract keeps a parameter's last value on the worker; the old profile's read names its own.
    expect((await worker.recognize(png, mrzReadParams({}), 30_000)).lines.map((l) => l.text)).toEqual(TD3);
  });
});
