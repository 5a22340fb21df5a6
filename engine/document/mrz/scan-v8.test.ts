import { readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { crosshair, highlightBar } from '../../../bench/degrade.js';
import { REAL_DOCUMENTS, realMrzTruth, useDocumentEngine } from '../../../test/real-documents.js';
import { decodeBmp, isBmp } from '../image/bmp.js';
import { DOCUMENT_SETTINGS_V7, DOCUMENT_SETTINGS_V8 } from '../index.js';
import { locateMrzBands, stripMaskLines } from './locate.js';
import { loneMrzLine, removeOverlayLines } from './scan.js';

/**
 * Document engine 2.6 (`DOCUMENT_SETTINGS_V8`): thin lines drawn over the MRZ are taken out of the
 * band search's text mask and of each band's crop, a band read as one lone passport line is grown,
 * and enlarged bands share an image-wide read bound. Real tesseract on real TUNING images only
 * (held-out and public unseen images stay out of every test), with overlays drawn as
 * `bench/augment-real.ts --variants cross,bar` draws them.
 */
const REAL = REAL_DOCUMENTS;
const v8 = useDocumentEngine(DOCUMENT_SETTINGS_V8);
const v7 = useDocumentEngine(DOCUMENT_SETTINGS_V7);
const UK = 'sivakumar-mahalingam__fastmrz__data__passport_uk.jpg';
const AUS = 'DoubangoTelecom__ultimateMRZ-SDK__assets__images__Passport-Australia_1280x720.jpg';
const SERDAR1 = 'SerdarHelli__MRZ_Passport_Reader_From_Image__example1.jpg';

async function rgbOf(file: string) {
  const bytes = readFileSync(path.join(REAL, file));
  // Regula's sample is a BMP named .jpg: decoded as the engine decodes it.
  const bmp = isBmp(bytes) ? decodeBmp(bytes, 40_000_000) : null;
  const input = bmp ? sharp(bmp.data, { raw: { width: bmp.width, height: bmp.height, channels: 3 } }) : sharp(bytes);
  const { data, info } = await input.rotate().removeAlpha().toColourspace('srgb').raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/** The capture with an overlay drawn over its MRZ band (as the bench's `cross`/`bar` copies), JPEG q85. */
async function overlayCopy(file: string, kind: 'cross' | 'bar', k: number): Promise<Buffer> {
  const { data, width, height } = await rgbOf(file);
  const [band] = await locateMrzBands({ data, width, height, channels: 3 }, { workSide: 1000, maxBands: 1 });
  const drawn = kind === 'cross' ? crosshair(data, width, height, band!, k) : highlightBar(data, width, height, band!);
  return sharp(drawn, { raw: { width, height, channels: 3 } }).jpeg({ quality: 85 }).toBuffer();
}

describe('2.6 settings', () => {
  it('2.6 is 2.5 plus overlayLines, growLone and an image-wide bound on enlarged-band reads; 2.5 is unchanged', () => {
    const { overlayLines, growLone, enlargedBand, ...rest } = DOCUMENT_SETTINGS_V8.scan!;
    const { enlargedBand: old, ...restOld } = DOCUMENT_SETTINGS_V7.scan!;
    expect(overlayLines).toBe('crops');
    expect(growLone).toBe(true);
    expect(enlargedBand).toEqual({ ...old, imageReads: 6 });
    expect(rest).toEqual(restOld);
    expect(DOCUMENT_SETTINGS_V7.scan!.overlayLines).toBeUndefined();
    expect(DOCUMENT_SETTINGS_V7.scan!.enlargedBand!.imageReads).toBeUndefined();
    expect(DOCUMENT_SETTINGS_V8.version).toBe('document-engine@2.6.0');
  });
});

describe('2.6 line removal (units)', () => {
  it('a crop with no line is returned as it is; a dark line through a text line is taken out, the glyph strokes it crosses stay', () => {
    const w = 200, h = 40;
    const g = Buffer.alloc(w * h, 230);
    // Ten "glyphs": vertical strokes 3 px wide, rows 8..31 (line height 24).
    for (let c = 0; c < 10; c++) for (let y = 8; y < 32; y++) for (let x = 10 + 18 * c; x < 13 + 18 * c; x++) g[y * w + x] = 20;
    expect(removeOverlayLines(g, w, h, 24)).toBe(g);
    const lined = Buffer.from(g);
    for (let x = 0; x < w; x++) for (let y = 19; y < 21; y++) lined[y * w + x] = 40;
    const out = removeOverlayLines(lined, w, h, 24);
    expect(out).not.toBe(lined);
    // Between glyphs the line is gone; inside a glyph's stroke it stays dark.
    expect(out[20 * w + 5]).toBeGreaterThan(200);
    expect(out[20 * w + 11]).toBeLessThan(60);
  });

  it('the text mask: long thin runs go, separate marks stay, and a mask without such runs is the same object', () => {
    const w = 300, h = 60;
    const mask = new Uint8Array(w * h);
    for (let c = 0; c < 20; c++) for (let y = 20; y < 30; y++) for (let x = 10 + 14 * c; x < 17 + 14 * c; x++) mask[y * w + x] = 1;
    expect(stripMaskLines(mask, w, h)).toBe(mask);
    const crossed = Uint8Array.from(mask);
    for (let y = 0; y < h; y++) crossed[y * w + 150] = crossed[y * w + 151] = 1;
    const out = stripMaskLines(crossed, w, h);
    expect(out[5 * w + 150]).toBe(0);
    expect(out[25 * w + 12]).toBe(1);
  });

  it('a lone passport- or ID-width line with fillers is a lone MRZ line; two lines, a TD2-width line or a line without fillers are not', () => {
    const l1 = 'P<AUSCITIZEN<<JANE<<<<<<<<<<<<<<<<<<<<<<<<<<';
    expect(loneMrzLine([{ text: l1, confidence: 90 }])).toBe('TD3');
    expect(loneMrzLine([{ text: 'IDAUT10000999<6<<<<<<<<<<<<<<<', confidence: 90 }])).toBe('TD1');
    expect(loneMrzLine([{ text: l1, confidence: 90 }, { text: 'PA09404433AUS8406077F1903212<17332717P<<<<68', confidence: 90 }])).toBeNull();
    expect(loneMrzLine([{ text: 'PMCHESCHWEIZER<SAMPLE<<HELVETIA<<<<<<', confidence: 90 }])).toBeNull();
    expect(loneMrzLine([{ text: 'BUNDESREPUBLIK DEUTSCHLAND FEDERAL REPUBLIC OF', confidence: 90 }])).toBeNull();
  });
});

describe('2.6 on real tuning captures with overlays', () => {
  it('a focus crosshair through the name line (SerdarHelli specimen): 2.5 reads no line right; 2.6 reads both exactly from cleaned crops but does not call them valid (cleaned reads cannot vouch for the name line)', async () => {
    const bytes = await overlayCopy(SERDAR1, 'cross', 9);
    const old = await v7().scanMrz(bytes);
    expect(old.parsed?.lines ?? []).not.toEqual(realMrzTruth(SERDAR1));
    const r = await v8().scanMrz(bytes);
    expect(r.parsed?.lines).toEqual(realMrzTruth(SERDAR1));
    expect(r.valid).toBe(false);
    expect(r.reason).toBe('mrz_unreadable');
  });

  it('a translucent highlight bar over the Australian specimen\'s MRZ: the band holds line 1 only; 2.6 grows it and reads both lines exactly and valid', async () => {
    const bytes = await overlayCopy(AUS, 'bar', 2);
    const old = await v7().scanMrz(bytes);
    expect(old.valid).toBe(false);
    const r = await v8().scanMrz(bytes);
    expect(r.parsed?.lines).toEqual(realMrzTruth(AUS));
    expect(r.valid).toBe(true);
  });

  it('a capture with nothing drawn over it (UK passport) is read as under 2.5: same lines, validity and reads', async () => {
    const bytes = readFileSync(path.join(REAL, UK));
    const now = await v8().scanMrz(bytes);
    const old = await v7().scanMrz(bytes);
    expect(now.parsed?.lines).toEqual(realMrzTruth(UK));
    expect(now.valid).toBe(true);
    expect(now.attempts.map((a) => [a.source, a.lines])).toEqual(old.attempts.map((a) => [a.source, a.lines]));
  });
});
