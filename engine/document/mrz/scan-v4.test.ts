import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { expectSyntheticPasses, REAL_DOCUMENTS, realMrzTruth, useDocumentEngine } from '../../../test/real-documents.js';
import { DOCUMENT_SETTINGS_V4 } from '../index.js';
import { homography, warp, type Point } from '../image/warp.js';
import { normalizeImage } from '../image/normalize.js';
import { GlyphReader } from './glyphs.js';
import { locateMrzBands, tiltedStacks, type TiltedLine } from './locate.js';
import { repairLines } from './repair.js';
import { parseMrz } from './parse.js';
import { bandCropper, resolveTwins, statesKnown, voteReads, type Interpreted } from './scan.js';

/**
 * Document engine 2.2 (`DOCUMENT_SETTINGS_V4`): band search at the angle of tilted MRZ-like line
 * stacks, the 180° read of the band itself, the OCR-B glyph reader as a second recogniser, read
 * budget 7. Real tesseract on real TUNING images only (held-out ones stay out of every test), on
 * perspective copies of them, and on the synthetic corpus.
 */
const REAL = REAL_DOCUMENTS;
const NOW = new Date('2026-11-21T00:00:00Z');
const documentEngine = useDocumentEngine(DOCUMENT_SETTINGS_V4);

const truth = realMrzTruth;

/** A keystone (the right side `shrink` shorter) and a roll of `rollDeg`, as a phone held at an angle gives. */
async function perspective(bytes: Buffer, shrink: number, rollDeg: number): Promise<Buffer> {
  const { data, info } = await sharp(bytes).rotate().removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const w = info.width, h = info.height;
  // Output canvas with a white margin; the document's corners move inwards on the right.
  const W = Math.round(w * 1.2), H = Math.round(h * 1.3);
  const a = (rollDeg * Math.PI) / 180, cx = W / 2, cy = H / 2;
  const rot = ([x, y]: Point): Point => [cx + (x - cx) * Math.cos(a) - (y - cy) * Math.sin(a), cy + (x - cx) * Math.sin(a) + (y - cy) * Math.cos(a)];
  const ox = (W - w) / 2, oy = (H - h) / 2, d = (h * shrink) / 2;
  const dst: Point[] = [rot([ox, oy]), rot([ox + w, oy + d]), rot([ox + w, oy + h - d]), rot([ox, oy + h])];
  const src: Point[] = [[0, 0], [w, 0], [w, h], [0, h]];
  const out = warp({ data, width: w, height: h, channels: 3 }, homography(dst, src), W, H, [255, 255, 255]);
  return sharp(out.data, { raw: { width: W, height: H, channels: 3 } }).jpeg({ quality: 85 }).toBuffer();
}

describe('tiltedStacks', () => {
  const line = (deg: number, x0: number, x1: number, cy: number, thickness = 10): TiltedLine => ({ deg, x0, x1, cy, thickness });

  it('two parallel tilted lines of one length, one above the other, give their angle', () => {
    const [s] = tiltedStacks([line(4, 100, 700, 500), line(4.4, 102, 698, 525)]);
    expect(s?.deg).toBeCloseTo(4.2, 5);
  });

  it('a single line, lines of other lengths or tilts, or lines too far apart or overlapping give nothing', () => {
    expect(tiltedStacks([line(4, 100, 700, 500)])).toEqual([]);
    expect(tiltedStacks([line(4, 100, 700, 500), line(4, 300, 600, 525)])).toEqual([]);
    expect(tiltedStacks([line(4, 100, 700, 500), line(7, 100, 700, 525)])).toEqual([]);
    expect(tiltedStacks([line(4, 100, 700, 500), line(4, 100, 700, 560)])).toEqual([]);
    expect(tiltedStacks([line(4, 100, 700, 500), line(4, 100, 700, 505)])).toEqual([]);
    // Pieces of one line at two thicknesses (what two closing sizes give) do not pair.
    expect(tiltedStacks([line(4, 100, 700, 500, 16), line(4, 100, 700, 519, 7)])).toEqual([]);
  });

  it('of several stacks, the one of the longest lines', () => {
    const [s] = tiltedStacks([line(9, 100, 300, 200), line(9, 100, 300, 225), line(5, 50, 800, 600), line(5, 52, 790, 625)]);
    expect(s?.deg).toBeCloseTo(5, 5);
  });
});

describe('resolveTwins (glyph reads: O and 0 are one OCR-B glyph)', () => {
  const UK = ['P<GBRPUDARSAN<<HENERT<<<<<<<<<<<<<<<<<<<<<<<', '7077979792GBR9505209M1704224<<<<<<<<<<<<<<00'];
  it('picks the O/0 combination under which every check digit holds', () => {
    expect(resolveTwins([UK[0]!, UK[1]!.replace(/00$/, 'O0').replace('7077', '7O77')], 'TD3')).toEqual(UK);
  });
  it('falls back to the digit where no combination holds', () => {
    const r = resolveTwins([UK[0]!, '7O77979792GBR9505209M1704224<<<<<<<<<<<<<<<9'], 'TD3');
    expect(r[1]!.startsWith('7077')).toBe(true);
  });

  it('returns every other character as read, unrepaired: a digit printed in a name stays a digit', () => {
    // Russian internal passports print digits in names (`IM8REK`): the rule that names must have
    // been printed as they stand needs the glyph read's own characters, not the type repair's `B`.
    const lines = ['PNRUSIM8REK<<EVGENIQ<ALEKSANDROVI3<<<<<<<<<<', '11OO000000RUS8209120M<<<<<<<4041217292000<46'];
    const r = resolveTwins(lines, 'TD3');
    expect(r[0]).toBe(lines[0]);
    expect(r[1]).toBe('1100000000RUS8209120M<<<<<<<4041217292000<46');
  });
});

describe('voteReads with weak reads (experiment `glyphWeak`)', () => {
  const UK = ['P<GBRPUDARSAN<<HENERT<<<<<<<<<<<<<<<<<<<<<<<', '7077979792GBR9505209M1704224<<<<<<<<<<<<<<00'];
  const read = (lines: string[]): Interpreted => {
    const parsed = parseMrz(lines, { extended: true });
    return { format: 'TD3', lines, rawLines: lines, parsed, confidences: [0.9, 0.9], corrections: 0, valid: !!parsed?.checkDigitsValid && statesKnown(parsed), checksOk: parsed?.checks.filter((c) => c.ok).length ?? 0 };
  };
  it('a valid read with another name vetoes the vote, unless it is weak', () => {
    const glyph = read([UK[0]!.replace('HENERT', 'HLNERT'), UK[1]!]);
    expect(glyph.valid).toBe(true);
    const pool = [read(UK), read(UK), glyph];
    expect(voteReads(pool, statesKnown)).toBeNull();
    expect(voteReads(pool, statesKnown, new Set([glyph]))?.lines).toEqual(UK);
  });
});

describe.runIf(existsSync(REAL))('2.2 on real tuning captures', () => {
  it('the 180° read turns the band itself (2.0/2.1 cut the mirrored region of the frame)', async () => {
    const img = await normalizeImage(readFileSync(path.join(REAL, 'DoubangoTelecom__ultimateMRZ-SDK__assets__images__Passport-Australia_1280x720_rotate+90.jpg')), { ...DOCUMENT_SETTINGS_V4, acceptBmp: true });
    const [band] = await locateMrzBands(img, { workSide: 1000, maxBands: 1, angles: [-90] });
    // Compared at a quarter of the size: the two pipelines resample a sub-pixel apart.
    const grey = (png: Buffer) => sharp(png).extractChannel(0).resize(318, 36, { fit: 'fill' }).raw().toBuffer();
    const upright = await bandCropper(img, 30, false, false, true)(band!, false, 'grey');
    const turnedHere = await sharp(upright).rotate(180).png().toBuffer();
    // Pearson correlation: the pipelines' contrast stretches differ a little, the content must not.
    const corr = (a: Buffer, b: Buffer) => {
      const ma = a.reduce((s, v) => s + v, 0) / a.length, mb = b.reduce((s, v) => s + v, 0) / b.length;
      let ab = 0, aa = 0, bb = 0;
      for (let i = 0; i < a.length; i++) { ab += (a[i]! - ma) * (b[i]! - mb); aa += (a[i]! - ma) ** 2; bb += (b[i]! - mb) ** 2; }
      return ab / Math.sqrt(aa * bb);
    };
    const exact = await grey(await bandCropper(img, 30, false, false, true)(band!, true, 'grey'));
    const old = await grey(await bandCropper(img, 30, false, false, false)(band!, true, 'grey'));
    const want = await grey(turnedHere);
    expect(corr(exact, want)).toBeGreaterThan(0.85);
    expect(corr(old, want), String(corr(old, want))).toBeLessThan(0.5);
  });

  it('the glyph reader at glyph scale reads a real passport crop exactly where line scale misreads the `<` runs', async () => {
    const file = 'sivakumar-mahalingam__fastmrz__data__passport_uk.jpg';
    const img = await normalizeImage(readFileSync(path.join(REAL, file)), { ...DOCUMENT_SETTINGS_V4, acceptBmp: true });
    const [band] = await locateMrzBands(img, { workSide: 1000, maxBands: 1 });
    const crop = await bandCropper(img, 30, false, false, true)(band!, false, 'grey');
    const reader = await GlyphReader.create(2.54 * 12);
    const boxed = await reader.read(crop, 2, 44, 0, true);
    const lineOnly = await reader.read(crop, 2, 44, 0, false);
    expect(resolveTwins(boxed!.lines.map((l) => l.text), 'TD3')).toEqual(truth(file));
    expect(repairLines(lineOnly!.lines.map((l) => l.text), 'TD3')).not.toEqual(truth(file));
  });

  it.each([
    ['sivakumar-mahalingam__fastmrz__data__passport_uk.jpg'],
    ['DoubangoTelecom__ultimateMRZ-SDK__assets__images__Passport-Australia_1280x720_rotate+90.jpg'],
    ['developer79433__passport_mrz_detector_cpp__test_data__mrz_example_05.jpg'],
  ])('%s: exact and valid', async (file) => {
    const r = await documentEngine().scanMrz(readFileSync(path.join(REAL, file)));
    expect(r.parsed?.lines).toEqual(truth(file));
    expect(r.valid).toBe(true);
  });

  it('a clean scan is confirmed by the glyph reader: one tesseract read', async () => {
    const r = await documentEngine().scanMrz(readFileSync(path.join(REAL, 'sivakumar-mahalingam__fastmrz__data__passport_uk.jpg')));
    expect(r.valid).toBe(true);
    expect(r.attempts.map((a) => a.source)).toEqual(['tesseract:grey', 'glyph']);
  });

  it('a passport photographed with keystone and roll, its MRZ off the dominant (sideways) text angle, is found and read exactly', async () => {
    const file = 'sivakumar-mahalingam__fastmrz__data__passport_uk.jpg';
    const r = await documentEngine().scanMrz(await perspective(readFileSync(path.join(REAL, file)), 0.18, -8));
    expect(r.parsed?.lines).toEqual(truth(file));
    expect(r.valid).toBe(true);
  });

  it('an ID card back under keystone and roll is found; its misprinted composite stays mrz_check_digits_failed', async () => {
    const file = 'developer79433__passport_mrz_detector_cpp__examples__passport_04.jpg';
    const r = await documentEngine().scanMrz(await perspective(readFileSync(path.join(REAL, file)), 0.18, -8));
    expect(r.parsed?.lines).toEqual(truth(file));
    expect(r.valid).toBe(false);
    expect(r.reason).toBe('mrz_check_digits_failed');
  });

  it('the bold infrared capture is never reported valid with wrong lines, within the read budget', async () => {
    const file = 'regulaforensics__DocumentReader-web-python-client__example__IR.jpg';
    const r = await documentEngine().scanMrz(readFileSync(path.join(REAL, file)));
    if (r.valid) expect(r.parsed?.lines).toEqual(truth(file));
    expect(r.attempts.filter((a) => a.source.startsWith('tesseract')).length).toBeLessThanOrEqual(DOCUMENT_SETTINGS_V4.scan!.maxReads + 1);
  });
});

describe('2.2 analyze on the synthetic corpus (figures must not fall)', () => {
  it.each([
    ['moz-passport', 'MOZ', 'passport'],
    ['mex-ine', 'MEX', 'national_id'],
  ] as const)('%s photographed passes both checks', async (template, country, type) => {
    await expectSyntheticPasses(documentEngine(), template, country, type, NOW);
  });
});
