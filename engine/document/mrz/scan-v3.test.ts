import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { expectSyntheticPasses, REAL_DOCUMENTS, realMrzTruth, useDocumentEngine } from '../../../test/real-documents.js';
import { forgeDocument, photograph } from '../../../tools/corpus/index.js';
import { DOCUMENT_SETTINGS_V3 } from '../index.js';
import { flattenBackground, statesKnown, thinStrokes, voteReads, type Interpreted } from './scan.js';
import { parseMrz } from './parse.js';

/**
 * Document engine 2.1 (`DOCUMENT_SETTINGS_V3`): flattened-background reads, retry variants and
 * the per-character vote. Real tesseract on real TUNING images only (held-out ones stay out of
 * every test), plus degraded copies of them and the synthetic corpus.
 */
const REAL = REAL_DOCUMENTS;
const NOW = new Date('2026-11-21T00:00:00Z');
const documentEngine = useDocumentEngine(DOCUMENT_SETTINGS_V3);

const truth = realMrzTruth;

const UK = ['P<GBRPUDARSAN<<HENERT<<<<<<<<<<<<<<<<<<<<<<<', '7077979792GBR9505209M1704224<<<<<<<<<<<<<<00'];
const read = (lines: string[], raw = lines): Interpreted => {
  const parsed = parseMrz(lines, { extended: true });
  return { format: 'TD3', lines, rawLines: raw, parsed, confidences: [0.9, 0.9], corrections: 0, valid: !!parsed?.checkDigitsValid && statesKnown(parsed), checksOk: parsed?.checks.filter((c) => c.ok).length ?? 0 };
};
const swap = (l: string, i: number, c: string) => l.slice(0, i) + c + l.slice(i + 1);

describe('voteReads', () => {
  it('takes each character from the reads that agree on it, and the result must pass every check digit', () => {
    // Three reads, each wrong in a different place: no single read is valid, the vote is exact.
    const a = read([UK[0]!, swap(UK[1]!, 3, '8')]);
    const b = read([swap(UK[0]!, 8, 'O'), swap(UK[1]!, 15, '6')]);
    const c = read([UK[0]!, swap(UK[1]!, 16, '8')]);
    expect([a, b, c].some((r) => r.valid && r.lines.join() === UK.join())).toBe(false);
    const v = voteReads([a, b, c]);
    expect(v?.lines).toEqual(UK);
    expect(v?.valid).toBe(true);
  });

  it('gives nothing when a position has no two reads agreeing, or on one read alone', () => {
    const a = read([UK[0]!, swap(UK[1]!, 3, '8')]);
    const b = read([UK[0]!, swap(UK[1]!, 3, '6')]);
    expect(voteReads([a, b])).toBeNull();
    expect(voteReads([read(UK)])).toBeNull();
  });

  it('gives nothing when the agreed lines fail a check digit (two reads making the same error)', () => {
    const wrong = [UK[0]!, swap(UK[1]!, 3, '8')];
    expect(voteReads([read(wrong), read(wrong)])).toBeNull();
  });

  it('characters no check digit covers are taken whole, as two reads printed them, never voted piecemeal or repaired', () => {
    // Both reads printed `8` in the name and a repair made it `B`: the vote reports what was printed.
    const printed8 = [swap(UK[0]!, 5, '8'), UK[1]!];
    expect(voteReads([read(UK, printed8), read(UK, printed8)])?.lines).toEqual(printed8);
    // One read printed `8` (and misread a digit, so it is not valid itself); two printed the name as it is.
    const bad8 = [swap(UK[0]!, 5, '8'), swap(UK[1]!, 3, '8')];
    expect(voteReads([read(bad8), read(UK), read(UK)])?.lines).toEqual(UK);
    // Three reads each wrong at a different name position: no two printed the name alike.
    const n1 = read([swap(UK[0]!, 6, 'V'), UK[1]!]), n2 = read([swap(UK[0]!, 7, 'O'), UK[1]!]), n3 = read([swap(UK[0]!, 9, 'R'), UK[1]!]);
    expect(voteReads([n1, n2, n3])).toBeNull();
  });

  it('a stray character before the document code (line 1 shifted, state `<GB`) is never a vote result', () => {
    const shifted = ['I' + UK[0]!.slice(0, 43), UK[1]!];
    expect(statesKnown(parseMrz(shifted, { extended: true })!)).toBe(false);
    expect(voteReads([read(shifted), read(shifted), read(UK)], statesKnown)).toBeNull();
  });

  it('two valid reads against two other valid reads: no majority, no result', () => {
    const other = [UK[0]!.replace('HENERT<', 'HENERTT'), UK[1]!];
    expect(voteReads([read(other), read(other), read(UK), read(UK)], statesKnown)).toBeNull();
  });
});

describe('band preprocessing', () => {
  it('flattenBackground removes a brightness ramp: paper ends up the same grey on both sides', () => {
    const w = 200, h = 30, g = Buffer.alloc(w * h);
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) g[y * w + x] = Math.round(60 + 180 * (x / (w - 1)));
    const f = flattenBackground(g, w, h);
    expect(Math.abs(f[15 * w + 20]! - f[15 * w + 180]!)).toBeLessThan(15);
  });

  it('thinStrokes narrows a dark stroke by a pixel', () => {
    const w = 10, h = 3, g = Buffer.alloc(w * h, 255);
    for (let y = 0; y < h; y++) for (let x = 3; x < 7; x++) g[y * w + x] = 0;
    const t = thinStrokes(g, w, h);
    expect([...t.subarray(w, 2 * w)].filter((v) => v === 0).length).toBe(3);
  });
});

describe.runIf(existsSync(REAL))('2.1 scanMrz on real tuning captures', () => {
  it.each([
    ['sivakumar-mahalingam__fastmrz__data__passport_uk.jpg'],
    ['DoubangoTelecom__ultimateMRZ-SDK__assets__images__Passport-Australia_1280x720_rotate+90.jpg'],
    ['regulaforensics__DocumentReader-web-js-client__examples__basic__WHITE.jpg'],
    ['developer79433__passport_mrz_detector_cpp__test_data__mrz_example_05.jpg'],
  ])('%s: exact and valid', async (file) => {
    const r = await documentEngine().scanMrz(readFileSync(path.join(REAL, file)));
    expect(r.parsed?.lines).toEqual(truth(file));
    expect(r.valid).toBe(true);
  });

  it('the same photo under a strong shading ramp (35 % to 100 % light, half contrast) is still read exactly and valid', async () => {
    const file = 'SerdarHelli__MRZ_Passport_Reader_From_Image__example1.jpg';
    const { data, info } = await sharp(readFileSync(path.join(REAL, file))).rotate().resize(1400).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    const out = Buffer.alloc(data.length);
    for (let y = 0; y < info.height; y++) for (let x = 0; x < info.width; x++) {
      const gain = 0.35 + 0.65 * (x / (info.width - 1));
      for (let c = 0; c < 3; c++) { const i = (y * info.width + x) * 3 + c; out[i] = Math.round((128 + (data[i]! - 128) * 0.5) * gain); }
    }
    const shaded = await sharp(out, { raw: { width: info.width, height: info.height, channels: 3 } }).jpeg({ quality: 80 }).toBuffer();
    const r = await documentEngine().scanMrz(shaded);
    expect(r.parsed?.lines).toEqual(truth(file));
    expect(r.valid).toBe(true);
  });

  it('a misprinted composite check digit is still mrz_check_digits_failed, never valid', async () => {
    const file = 'developer79433__passport_mrz_detector_cpp__test_data__mrz_example_04.jpg';
    const r = await documentEngine().scanMrz(readFileSync(path.join(REAL, file)));
    expect(r.parsed?.lines).toEqual(truth(file));
    expect(r.valid).toBe(false);
    expect(r.reason).toBe('mrz_check_digits_failed');
  });

  it('the bold infrared capture is never reported valid with wrong lines', async () => {
    const r = await documentEngine().scanMrz(readFileSync(path.join(REAL, 'regulaforensics__DocumentReader-web-python-client__example__IR.jpg')));
    if (r.valid) expect(r.parsed?.lines).toEqual(truth('regulaforensics__DocumentReader-web-python-client__example__IR.jpg'));
  });
});

describe('2.1 analyze on the synthetic corpus (figures must not fall)', () => {
  it.each([
    ['moz-passport', 'MOZ', 'passport'],
    ['mex-ine', 'MEX', 'national_id'],
  ] as const)('%s photographed passes both checks', async (template, country, type) => {
    await expectSyntheticPasses(documentEngine(), template, country, type, NOW);
  });

  it('a forged broken check digit fails template_match with mrz_check_digit_mismatch (2.0 left it unreadable)', async () => {
    const doc = await forgeDocument('broken_check_digit', { template: 'moz-passport', seed: 3 });
    const front = (await photograph(doc.image, 1)).image;
    const res = await documentEngine().analyze({ front, declared: { country: 'MOZ', type: 'passport' }, accepted: [{ country: 'MOZ', types: ['passport'] }], now: NOW });
    expect(res.template.status).toBe('failed');
    expect(res.template.reasons).toContain('mrz_check_digit_mismatch');
  });
});
