import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { printedMrz } from '../../test/printed-mrz.js';
import { turnedPrint } from '../../bench/documents-real.js';
import { expectsMrz } from '../../domain/capture-advice.js';
import { sharedDir } from '../assets.js';
import { PUBLIC_TUNING, publicTuningTruth } from '../../test/real-documents.js';
import { availablePortraits, photograph, renderDocument } from '../../tools/corpus/index.js';
import { adviseCapture, CAPTURE_ADVICE, CAPTURE_ADVICE_BY_NAME, CAPTURE_ADVICE_V1_1, CAPTURE_ADVICE_V1_2, CAPTURE_ADVICE_V1_3, CAPTURE_ADVICE_V1_4, CAPTURE_ADVICE_V1_5, edgeGap, type CaptureAdviceSettings } from './advice.js';
import { mrzWorker, type OcrWorker } from './ocr/workers.js';
import { DOCUMENT_SETTINGS_V19, DOCUMENT_SETTINGS_V4 } from './settings.js';

const band = (angle: number, left: number, width: number, top: number, height: number) => ({ angle, left, width, top, height, lines: 2, lineHeight: 20, score: 1 });

describe('capture advice geometry', () => {
  it('measures the MRZ band’s distance to the photo edge in line heights', () => {
    expect(edgeGap(band(0, 100, 800, 500, 60), 1000, 600)).toBeCloseTo(3.5);
    // the band search clamped the box at the left edge: the text runs into it
    expect(edgeGap(band(0, 0, 500, 200, 60), 1000, 600)).toBe(0);
  });

  it('turns a band found in a sideways photo back into the photo’s own frame', () => {
    // 600×1000 portrait turned 90° clockwise: turned (xt, yt) is photo (yt, 1000 − xt)
    expect(edgeGap(band(90, 100, 800, 500, 60), 600, 1000)).toBeCloseTo(3.5);
    expect(edgeGap(band(90, 0, 800, 500, 60), 600, 1000)).toBe(0);
    expect(edgeGap(band(-90, 100, 800, 500, 60), 600, 1000)).toBeCloseTo(3.5);
  });
});

describe('where an MRZ is expected', () => {
  it('passport front, ID card and residence permit back; never a driving licence or an unknown type', () => {
    expect(expectsMrz('passport', 'document_front')).toBe(true);
    expect(expectsMrz('passport', 'document_back')).toBe(false);
    expect(expectsMrz('national_id', 'document_back')).toBe(true);
    expect(expectsMrz('national_id', 'document_front')).toBe(false);
    expect(expectsMrz('residence_permit', 'document_back')).toBe(true);
    expect(expectsMrz('driving_licence', 'document_front')).toBe(false);
    expect(expectsMrz(undefined, 'document_front')).toBe(false);
  });
});

/**
 * capture-advice 1.3 (current): 1.2 whose tesseract reads skip the inverted second pass over unsure
 * lines (document engine 3.14's `scan.noInvert`).
 */
describe('capture advice 1.3: no inverted second pass', () => {
  const tess = mrzWorker(DOCUMENT_SETTINGS_V4.tessdata.mrzSha256);
  afterAll(() => tess.close());

  it('differs from 1.2 only in noInvert', () => {
    expect({ ...CAPTURE_ADVICE_V1_3, version: '', noInvert: undefined }).toEqual({ ...CAPTURE_ADVICE_V1_2, version: '' });
    expect(CAPTURE_ADVICE_V1_3).toMatchObject({ version: 'capture-advice@1.3.0', noInvert: true });
    expect(CAPTURE_ADVICE_BY_NAME['1.3']).toBe(CAPTURE_ADVICE_V1_3);
  });

  it('every read of 1.3 turns the pass off and every read of 1.2 keeps it, with the same advice on a readable page', async () => {
    const lines = ['P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<', 'L898902C36UTO7408122F1204159ZE184226B<<<<<10'];
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1100" height="700"><rect width="100%" height="100%" fill="#f3efe6"/>`
      + `<text x="40" y="120" font-family="DejaVu Sans" font-size="36">PASSPORT</text>`
      + lines.map((l, i) => `<text x="40" y="${560 + i * 48}" font-family="OCR B" font-size="32">${l.replace(/</g, '&lt;')}</text>`).join('') + '</svg>';
    const page = await sharp(Buffer.from(svg)).jpeg({ quality: 92 }).toBuffer();
    for (const [settings, invert] of [[CAPTURE_ADVICE_V1_3, '0'], [CAPTURE_ADVICE_V1_2, '1']] as const) {
      const seen: string[] = [];
      // The real worker, with each read's parameters noted on the way.
      const recording = { recognize: (img: Buffer, params: Record<string, string>, ms: number, o?: { lines?: boolean }) => (seen.push(params.tessedit_do_invert!), tess.recognize(img, params, ms, o)) } as unknown as OcrWorker;
      const advice = await adviseCapture(page, true, recording, { ...settings, readTimeoutMs: 60_000 });
      expect(advice.issues, settings.version).toEqual([]);
      expect(seen.length, settings.version).toBeGreaterThan(0);
      expect(new Set(seen), settings.version).toEqual(new Set([invert]));
    }
  }, 120_000);
});

/**
 * capture-advice 1.4: document engine 3.21's second band search on a copy 1.4 times the size, while no
 * read has had an MRZ's shape, in frames larger than that copy (`fineSearch`).
 */
describe('capture advice 1.4: the second band search of document engine 3.21', () => {
  const tess = mrzWorker(DOCUMENT_SETTINGS_V4.tessdata.mrzSha256);
  afterAll(() => tess.close());

  it('differs from 1.3 only in fineSearch', () => {
    expect({ ...CAPTURE_ADVICE_V1_4, version: '', fineSearch: undefined }).toEqual({ ...CAPTURE_ADVICE_V1_3, version: '' });
    expect(CAPTURE_ADVICE_V1_4).toMatchObject({ version: 'capture-advice@1.4.0', fineSearch: 1.4 });
    expect(CAPTURE_ADVICE_BY_NAME['1.4']).toBe(CAPTURE_ADVICE_V1_4);
  });

  it('a synthetic passport photographed whole on a table, whose MRZ the Case reads (3.21): 1.3 tells the applicant it is unreadable, 1.4 gives no advice', async () => {
    const doc = await renderDocument({ template: 'moz-passport', seed: 1, portrait: availablePortraits()[0] });
    const img = await sharp((await photograph(doc.image, 1)).image).jpeg({ quality: 92 }).toBuffer();
    const [before, after] = [await adviseCapture(img, true, tess, { ...CAPTURE_ADVICE_V1_3, readTimeoutMs: 60_000 }), await adviseCapture(img, true, tess, { ...CAPTURE_ADVICE_V1_4, readTimeoutMs: 60_000 })];
    expect(before.issues).toEqual(['mrz_unreadable']);
    expect(after.issues).toEqual([]);
    expect(after.metrics.mrzChecks?.[0]).toBe(after.metrics.mrzChecks?.[1]);
  }, 120_000);
});

describe('capture advice 1.5: the French national identity card typed as document engine 3.24 types it', () => {
  const tess = mrzWorker(DOCUMENT_SETTINGS_V4.tessdata.mrzSha256);
  afterAll(() => tess.close());

  it('differs from 1.4 only in national, and is what the api runs', () => {
    expect({ ...CAPTURE_ADVICE_V1_5, version: '', national: undefined }).toEqual({ ...CAPTURE_ADVICE_V1_4, version: '' });
    expect(CAPTURE_ADVICE_V1_5).toMatchObject({ version: 'capture-advice@1.5.0', national: { frenchId: true } });
    expect(CAPTURE_ADVICE).toBe(CAPTURE_ADVICE_V1_5);
    expect(CAPTURE_ADVICE_BY_NAME['1.5']).toBe(CAPTURE_ADVICE_V1_5);
  });

  // cheminfo/mrz's French identity card vectors (formats.test.ts).
  it.each([
    [['IDFRATEST<NAME<<<<<<<<<<<<<<<<0CHE02', '1710GVA123451ROBERTA<<<<<<<9112311F2']],
    [['IDFRABERTHIER<<<<<<<<<<<<<<<<<<<<<<<', '9409923102854CORINNE<<<<<<<6512068F4']],
  ])('a clean print of the card %j: 1.4 tells the applicant its MRZ is unreadable, 1.5 gives no advice', async (lines) => {
    const img = await printedMrz(lines);
    const [before, after] = [await adviseCapture(img, true, tess, { ...CAPTURE_ADVICE_V1_4, readTimeoutMs: 60_000 }), await adviseCapture(img, true, tess, { ...CAPTURE_ADVICE_V1_5, readTimeoutMs: 60_000 })];
    expect(before.issues).toEqual(['mrz_unreadable']);
    expect(after.issues).toEqual([]);
    expect(after.metrics.mrzChecks).toEqual([3, 3]);
  }, 60_000);
});

const UK = path.join(sharedDir(), 'documents-real', 'sivakumar-mahalingam__fastmrz__data__passport_uk.jpg');

/**
 * capture-advice 1.2: the band search across the dominant text (document engine 3.7's `scan.acrossText`),
 * on the real UK specimen (tuning split) turned as `bench:capture-advice --rotate` turns it. Its upper
 * page is printed sideways: a quarter turn off, the dominant text runs along the frame and the MRZ across it.
 */
describe.runIf(existsSync(UK))('capture advice 1.2: the search across the text (real tuning photo)', () => {
  const tess = mrzWorker(DOCUMENT_SETTINGS_V4.tessdata.mrzSha256);
  afterAll(() => tess.close());
  const adviseFast = (bytes: Buffer, s: CaptureAdviceSettings) => adviseCapture(bytes, true, tess, { ...s, readTimeoutMs: 60_000 });

  it('differs from 1.1 in searching, cutting and reading as document engine 3.7 does', () => {
    const scan = DOCUMENT_SETTINGS_V19.scan!;
    const bare = (x: CaptureAdviceSettings) => ({ ...x, version: '', acrossText: undefined, bandSearch: undefined, moreBands: undefined, crop: undefined });
    expect(bare(CAPTURE_ADVICE_V1_2)).toEqual(bare(CAPTURE_ADVICE_V1_1));
    expect(CAPTURE_ADVICE_V1_2.crop).toEqual({ upscale: scan.upscale, splitLines: scan.splitLines });
    expect(scan.overlayLines).toBeUndefined();
    expect(CAPTURE_ADVICE_V1_2.bandSearch).toEqual({ tilt: scan.tilt, adaptiveJoin: scan.adaptiveJoin, extendFirst: scan.extendFirst, quarterTurns: true, faintSearch: scan.faintSearch });
    expect(scan.acrossText).toBe(true);
    expect(CAPTURE_ADVICE_V1_2).toMatchObject({ version: 'capture-advice@1.2.0', acrossText: true });
    expect(CAPTURE_ADVICE_BY_NAME['1.1']).toBe(CAPTURE_ADVICE_V1_1);
  });

  it('a quarter turn off: 1.1 calls the MRZ unreadable, 1.2 finds it across the text and reads it', async () => {
    for (const deg of [90, 270]) {
      const turned = (await turnedPrint(readFileSync(UK), deg))!;
      const old = await adviseFast(turned, CAPTURE_ADVICE_V1_1);
      expect(old.issues, `${deg}°`).toEqual(['mrz_unreadable']);
      const now = await adviseFast(turned, CAPTURE_ADVICE_V1_2);
      expect(now.issues, `${deg}°`).toEqual([]);
      // the band across the text read right: at least half its check digits hold
      expect(now.metrics.mrzChecks![0]).toBeGreaterThanOrEqual(now.metrics.mrzChecks![1] / 2);
      expect(now.metrics.mrzReads).toBeGreaterThan(old.metrics.mrzReads);
    }
  }, 120_000);

  it('upright it reads the first band and searches no further, as 1.1; cut off, it says so without reading other text; a photo without an MRZ is still told so', async () => {
    const up = readFileSync(UK);
    const [a, b] = [await adviseFast(up, CAPTURE_ADVICE_V1_1), await adviseFast(up, CAPTURE_ADVICE_V1_2)];
    expect([a.issues, b.issues]).toEqual([[], []]);
    expect([a.metrics.mrzReads, b.metrics.mrzReads]).toEqual([1, 1]);
    // the right 40 % cut away: the best band runs into the edge and reads nothing, so no other text is read
    const { width, height } = await sharp(up).metadata();
    const cut = await sharp(up).extract({ left: 0, top: 0, width: Math.round(width! * 0.6), height: height! }).jpeg({ quality: 90 }).toBuffer();
    const cutAdvice = await adviseFast(cut, CAPTURE_ADVICE_V1_2);
    expect(cutAdvice.issues).toEqual(['document_cut_off']);
    expect(cutAdvice.metrics.mrzEdgeGap).toBe(0);
    expect(cutAdvice.metrics.mrzReads).toBeLessThanOrEqual(4);
    // a plain grey card: no band at the text's angle nor across it
    const blank = await sharp({ create: { width: 1200, height: 800, channels: 3, background: '#8a8f95' } }).jpeg().toBuffer();
    const none = await adviseFast(blank, CAPTURE_ADVICE_V1_2);
    expect(none.issues).toContain('mrz_not_found');
    expect(none.metrics.mrzReads).toBe(0);
  }, 120_000);
});

/**
 * The public tuning photos (absent in CI: `npm run fetch-documents-real -- --set public-tuning`) that
 * the full scan reads and 1.1 told to retake, upright: each for another reason 1.2 follows the full scan in.
 */
const FALSE_ALARMS_1_1 = {
  // a tight crop of a card's MRZ in large print: found by the adaptive join
  'digital-voting-pass__polling-station-app__app__src__main__assets__testimages__id_mrz_2.jpg': 'mrz_not_found',
  // faint print: found by the faint search
  'regulaforensics__DocumentReader-Android__Authenticity__DocumentReader-authenticity-sample_kotlin__app__src__main__res__drawable__auth_doc_ipi.png': 'mrz_not_found',
  // a name line broken at its fillers: paired by the filler-grown spans
  'Oriolrt__SIDTD_Dataset__Fake_Generator__Test_Example__Samples_Test__MIDV2020__aze_passport__images__00.jpg': 'mrz_not_found',
  'Oriolrt__SIDTD_Dataset__Fake_Generator__Test_Example__Samples_Test__MIDV2020__aze_passport__images__01.jpg': 'mrz_not_found',
  // a card whose name block outranks its MRZ: the next bands, read line by line
  'saiful9379__MRZ_DETECTION__data__I1-_INVALID.png': 'mrz_unreadable',
} as const;
const publicPhotos = Object.keys(FALSE_ALARMS_1_1).filter((f) => publicTuningTruth(f));

describe.runIf(publicPhotos.length > 0)('capture advice 1.2 on the public tuning photos 1.1 falsely advised', () => {
  const tess = mrzWorker(DOCUMENT_SETTINGS_V4.tessdata.mrzSha256);
  afterAll(() => tess.close());
  it('1.1 advised a retake on each; 1.2, as the full scan, finds and reads the MRZ', async () => {
    for (const f of publicPhotos) {
      const bytes = readFileSync(path.join(PUBLIC_TUNING, f));
      const old = await adviseCapture(bytes, true, tess, { ...CAPTURE_ADVICE_V1_1, readTimeoutMs: 60_000 });
      expect(old.issues, f).toEqual([FALSE_ALARMS_1_1[f as keyof typeof FALSE_ALARMS_1_1]]);
      const now = await adviseCapture(bytes, true, tess, { ...CAPTURE_ADVICE_V1_2, readTimeoutMs: 60_000 });
      expect(now.issues, f).toEqual([]);
    }
  }, 120_000);
});
