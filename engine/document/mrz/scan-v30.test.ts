import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { lineHeightPrint, runRealBench } from '../../../bench/documents-real.js';
import { PUBLIC_TUNING, publicTuningTruth, REAL_DOCUMENTS, useDocumentEngine } from '../../../test/real-documents.js';
import { DOCUMENT_SETTINGS_V29, DOCUMENT_SETTINGS_V30, type DocumentEngine } from '../index.js';
import { parseMrz } from './parse.js';
import { blindTwinsAgreed, BLIND_EIGHTS, narrowestCheck } from './scan.js';

/** ICAO 9303 Part 4's TD3 specimen. */
const TD3 = ['P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<', 'L898902C36UTO7408122F1204159ZE184226B<<<<<10'];

/**
 * The reads of a public tuning card (a German TD2 specimen, `saiful9379/MRZ_DETECTION` `I1- INVALID.png`)
 * made 6 px lines high (`bench:documents --line-px 6`), as 3.17 recorded them. Its optional data is all
 * fillers; tesseract's first read printed the last one `0`, which no check digit sees (`<` = 0).
 */
const TRUTH = ['IDD<<MUSTERMANN<<ERIKA<<<<<<<<<<<<<<', '1220000016D<<4509121<9110018<<<<<<<0'];
const TESSERACT = ['IDD<<MUSTERMANN<<ERIKA<<<<<<<<<<<<<<', '1220000016D<<4509121<9110018<<<<<<00'];
/** The glyph reader, one cell out of step at the end: `0` where the filler is, `<` where the composite is. */
const GLYPH = ['TDD<<MUSTERMANN<<CRIKA<<<<<<<<<<<<<<', 'TZ20000016D<<4509121<9110018<<<<<<0<'];
/** The MRZ recogniser, right. */
const MRZ_REC = TRUTH;

const version = (lines: string[]) => { const parsed = parseMrz(lines, { extended: true })!; return { format: parsed.format, lines, parsed }; };

/**
 * Document engine 3.18 (`DOCUMENT_SETTINGS_V30`): a check-blind character printed by tesseract is
 * witnessed by another family's read only where that read's own check digit over the place holds
 * (`scan.witnessChecks`).
 */
describe('document engine 3.18: a witness to a check-blind character must pass its own check there', () => {
  it('differs from 3.17 only in scan.witnessChecks', () => {
    expect({ ...DOCUMENT_SETTINGS_V30, version: '', scan: { ...DOCUMENT_SETTINGS_V30.scan, witnessChecks: undefined } })
      .toEqual({ ...DOCUMENT_SETTINGS_V29, version: '', scan: { ...DOCUMENT_SETTINGS_V29.scan, witnessChecks: undefined } });
    expect(DOCUMENT_SETTINGS_V29.scan!.witnessChecks).toBeFalsy();
    expect(DOCUMENT_SETTINGS_V30.scan!.witnessChecks).toBe(true);
  });

  it('the misread passes every check digit: the filler read as 0 is check-blind', () => {
    const misread = parseMrz(TESSERACT, { extended: true })!;
    expect(misread.checkDigitsValid).toBe(true);
    expect(misread.structureErrors).toEqual([]);
    expect(TESSERACT).not.toEqual(TRUTH);
  });

  it('narrowestCheck: each place answers to the narrowest check digit over it, the composite only when every check holds', () => {
    const icao = narrowestCheck(parseMrz(TD3, { extended: true })!);
    expect(icao(1, 3)).toBe(true); // document number
    expect(icao(1, 30)).toBe(true); // personal number
    expect(icao(1, 10)).toBeNull(); // nationality: no check digit
    expect(icao(0, 7)).toBeNull(); // name line
    // The number misread: its own check fails there, and so does the composite over the rest.
    const broken = narrowestCheck(parseMrz([TD3[0]!, `L898902C46${TD3[1]!.slice(10)}`], { extended: true })!);
    expect(broken(1, 3)).toBe(false);
    expect(broken(1, 16)).toBe(true); // birth date: its own check holds
    // The glyph read of the card: its composite fails, so its optional data witnesses nothing.
    const glyph = narrowestCheck(parseMrz(GLYPH, { extended: true })!);
    expect(glyph(1, 34)).toBe(false);
    expect(glyph(1, 14)).toBe(true); // birth date
  });

  it("3.17 took the out-of-step glyph read's 0 as a witness to tesseract's misread; 3.18 does not, and a read whose check holds there still witnesses", () => {
    // The band's other-family reads: the glyph reader's and the recogniser's (PP-OCRv4 printed no MRZ).
    const misread = version(TESSERACT);
    expect(blindTwinsAgreed(misread, [MRZ_REC], BLIND_EIGHTS, false)).toBe(false);
    expect(blindTwinsAgreed(misread, [GLYPH, MRZ_REC], BLIND_EIGHTS, false)).toBe(true);
    expect(blindTwinsAgreed(misread, [GLYPH, MRZ_REC], BLIND_EIGHTS, true)).toBe(false);
    // The truth, witnessed by the recogniser (its checks hold) at every check-blind place.
    expect(blindTwinsAgreed(version(TRUTH), [GLYPH, MRZ_REC], BLIND_EIGHTS, true)).toBe(true);
  });

  const v29 = useDocumentEngine(DOCUMENT_SETTINGS_V29);
  const v30 = useDocumentEngine(DOCUMENT_SETTINGS_V30);
  const CZE = 'DoubangoTelecom__ultimateMRZ-SDK__assets__images__Czech_passport_2005_MRZ_orient1_1300x1002.jpg';
  it('the line-height stress set (bench --line-px): a real scan made 8 px lines high measures 7-10 px; print already that small, or an image sharp cannot decode, is left as it is or out; tuning side only', async () => {
    const bytes = readFileSync(path.join(REAL_DOCUMENTS, CZE));
    const full = (await v29().scanMrz(bytes)).band!.lineHeight;
    expect(full).toBeGreaterThan(20);
    const small = (await lineHeightPrint(bytes, { px: 8, reference: v29() }))!;
    const measured = (await v29().scanMrz(small)).band!.lineHeight;
    expect(measured).toBeGreaterThanOrEqual(7);
    expect(measured).toBeLessThanOrEqual(10);
    expect(await lineHeightPrint(bytes, { px: Math.ceil(full), reference: v29() })).toBe(bytes);
    expect(await lineHeightPrint(Buffer.from('not an image'), { px: 8, reference: v29() })).toBeNull();
    await expect(runRealBench(REAL_DOCUMENTS, {} as DocumentEngine, undefined, false, false, undefined, undefined, undefined, { px: 8, reference: v29() })).rejects.toThrow(/tuning images only/);
  }, 120_000);

  const CARD = 'saiful9379__MRZ_DETECTION__data__I1-_INVALID.png';
  it.skipIf(!publicTuningTruth(CARD))('the card at 6 px lines (public tuning, bench --line-px 6): 3.17 reports the misread valid, 3.18 leaves it for review', async () => {
    const small = (await lineHeightPrint(readFileSync(path.join(PUBLIC_TUNING, CARD)), { px: 6, reference: v29() }))!;
    const [before, after] = [await v29().scanMrz(small), await v30().scanMrz(small)];
    expect(before.valid).toBe(true);
    expect(before.parsed?.lines).toEqual(TESSERACT);
    expect(after.valid).toBe(false);
    expect(after.reason).toBe('mrz_unreadable');
  }, 120_000);
});
