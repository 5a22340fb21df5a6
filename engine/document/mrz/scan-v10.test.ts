import { readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { isHeldOut } from '../../../bench/documents-real.js';
import { expectSyntheticPasses, PUBLIC_TUNING, publicTuningTruth, useDocumentEngine } from '../../../test/real-documents.js';
import { DOCUMENT_SETTINGS_V10, DOCUMENT_SETTINGS_V9 } from '../index.js';
import { checkDigit } from './check-digit.js';
import { interpret, splitTextLines, statesKnown, trimLineEdges } from './scan.js';

/**
 * Document engine 2.8 (`DOCUMENT_SETTINGS_V10`, `scan.lineRepair`): reads are fitted to the MRZ's
 * grid before they are judged. Pure-function cases use ICAO 9303 / peer test vectors (see
 * formats.test.ts for their sources); the image case is a real public TUNING image (held-out and
 * public unseen images stay out of every test).
 */
const NOW = new Date('2026-11-29T00:00:00Z');
const ocr = (...lines: string[]) => lines.map((text) => ({ text, confidence: 90 }));

// ICAO 9303-4 Appendix A specimen (Utopia), and the German specimen of formats.test.ts.
const UTO = ['P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<', 'L898902C36UTO7408122F1204159ZE184226B<<<<<10'];
const DEU = ['P<D<<MUSTERMANN<<ERIKA<<<<<<<<<<<<<<<<<<<<<<', 'C01X0006H1D<<6408125F1710319<<<<<<<<<<<<<<<0'];
const DEU_TD1 = ['IDD<<T220001293<<<<<<<<<<<<<<<', '6408125<2010315D<<<<<<<<<<<<<4', 'MUSTERMANN<<ERIKA<<<<<<<<<<<<<'];

describe('trimLineEdges (2.8)', () => {
  it('drops one or two stray characters before the document code of a line that is too long', () => {
    expect(trimLineEdges(['T' + UTO[0], UTO[1]!], 'TD3')[0]).toBe(UTO[0]);
    expect(trimLineEdges(['TB' + UTO[0], UTO[1]!], 'TD3')[0]).toBe(UTO[0]);
  });

  it('keeps a first line that begins like a document code, or one that is not too long', () => {
    // A read that begins like a code is kept even when too long: the extra character is elsewhere.
    expect(trimLineEdges(['P' + UTO[0], UTO[1]!], 'TD3')[0]).toBe('P' + UTO[0]);
    // Exactly 44 wide: nothing to drop, even though `TP` is no code (a misread of P is not a mark).
    const misread = 'T' + UTO[0]!.slice(1);
    expect(trimLineEdges([misread, UTO[1]!], 'TD3')[0]).toBe(misread);
    // Three characters of junk are more than a mark: left as read.
    expect(trimLineEdges(['XYZ' + UTO[0], UTO[1]!], 'TD3')[0]).toBe('XYZ' + UTO[0]);
  });

  it('drops a mark after the name line\'s last filler run (TD3 line 1, TD1 line 3), never a name', () => {
    expect(trimLineEdges([UTO[0]!.slice(0, 43) + 'J', UTO[1]!], 'TD3')[0]).toBe(UTO[0]!.slice(0, 43));
    expect(trimLineEdges([...DEU_TD1.slice(0, 2), DEU_TD1[2]!.slice(0, 28) + 'K1'], 'TD1')[2]).toBe(DEU_TD1[2]!.slice(0, 28));
    // A truncated name ends in a letter with no fillers before it, and `<<` separates names.
    const long = 'P<UTOABCDEFGHIJKLMNOPQRSTUVWXY<<ZABCDEFGHIJK';
    expect(trimLineEdges([long, UTO[1]!], 'TD3')[0]).toBe(long);
    expect(trimLineEdges(['P<UTOERIKSSON<<ANNA', UTO[1]!], 'TD3')[0]).toBe('P<UTOERIKSSON<<ANNA');
    // The data line is never touched: its check digits judge it.
    expect(trimLineEdges([UTO[0]!, 'L898902C36UTO7408122F1204159ZE184226B<<<<<10'], 'TD3')[1]).toBe(UTO[1]);
  });
});

describe('interpret with lineRepair (2.8)', () => {
  it('a stray mark before the code no longer shifts the state: 2.7 fails the read, 2.8 reads it', () => {
    const raw = ocr('T' + UTO[0], UTO[1]!);
    expect(interpret(raw, statesKnown)?.valid).toBe(false);
    const r = interpret(raw, statesKnown, true)!;
    expect(r.valid).toBe(true);
    expect(r.lines).toEqual(UTO);
    // The confirmation rule sees the trimmed line as printed.
    expect(r.rawLines[0]).toBe(UTO[0]);
  });

  it('fillers lost inside a data line are put back where the check digits say', () => {
    // The German number's two fillers after the nationality `D` read as one: `fit` would add the
    // missing filler at the end of the line and shift the birth date, expiry and their digits.
    const lost = DEU[1]!.replace('D<<6408', 'D<6408');
    expect(interpret(ocr(DEU[0]!, lost), statesKnown)?.valid).toBe(false);
    const r = interpret(ocr(DEU[0]!, lost), statesKnown, true)!;
    expect(r.valid).toBe(true);
    expect(r.lines).toEqual(DEU);
    expect(r.corrections).toBe(0);
  });

  it('a TD3 whose optional data lost eight fillers (36 wide, like TD2) is read as TD3', () => {
    // The Utopia specimen with a short personal number (`ZE1` and eleven fillers), its check digits
    // computed (ICAO 9303-3 4.9). An empty personal number would not do: fillers and a `0` weigh
    // nothing, so such a line also passes as TD2, which 2.7 already accepts.
    const head = 'L898902C36UTO7408122F1204159';
    const optional = 'ZE1' + '<'.repeat(11);
    const optCd = checkDigit(optional);
    const composite = checkDigit(head.slice(0, 10) + head.slice(13, 20) + head.slice(21, 28) + optional + optCd);
    const td3 = [UTO[0]!, head + optional + optCd + composite];
    expect(td3[1]).toHaveLength(44);
    const raw = ocr(td3[0]!.slice(0, 36), td3[1]!.replace('<'.repeat(11), '<<<'));
    expect(raw.every((l) => l.text.length === 36)).toBe(true);
    expect(interpret(raw, statesKnown)?.valid).toBe(false);
    const r = interpret(raw, statesKnown, true)!;
    expect(r.format).toBe('TD3');
    expect(r.valid).toBe(true);
    expect(r.lines).toEqual(td3);
  });

  it('never turns a misread into a pass: a wrong digit with a lost filler stays invalid', () => {
    const wrong = DEU[1]!.replace('D<<6408125', 'D<6408135');
    const r = interpret(ocr(DEU[0]!, wrong), statesKnown, true);
    expect(r?.valid).toBe(false);
  });
});

describe('data lines read with a mark at the edge (2.8)', () => {
  it('a card border read before a data line that is too long is dropped when the check digits say so', () => {
    // The German TD1 specimen's second line read with the card's edge as `I` in front.
    const raw = ocr(DEU_TD1[0]!, 'I' + DEU_TD1[1]!, DEU_TD1[2]!);
    expect(interpret(raw, statesKnown)?.valid).toBe(false);
    const r = interpret(raw, statesKnown, true)!;
    expect(r.valid).toBe(true);
    expect(r.lines).toEqual(DEU_TD1);
  });

  it('a line of the right width is never cut: a leading mark there is a misread, left to fail', () => {
    const raw = ocr(DEU_TD1[0]!, 'I' + DEU_TD1[1]!.slice(0, 29), DEU_TD1[2]!);
    expect(interpret(raw, statesKnown, true)?.valid).toBe(false);
  });
});

/** Two MRZ lines in OCR-B at 20 px, a printed rule between them and under them as on the 1987 German ID card. */
async function ruledMrz(rules: boolean): Promise<Buffer> {
  const text = (y: number, t: string) => `<text x="20" y="${y}" font-family="OCR B" font-size="28" fill="#111">${t.replace(/</g, '&lt;')}</text>`;
  const rule = (y: number) => (rules ? `<rect x="0" y="${y}" width="760" height="2" fill="#333"/>` : '');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="760" height="110"><rect width="760" height="110" fill="#f4f4ee"/>${text(40, 'IDD<<MUSTERMANN<<ERIKA')}${rule(52)}${text(88, '1220000016D<<4509121<9110018')}${rule(100)}</svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

describe('splitTextLines (2.8)', () => {
  it('cuts a ruled two-line band into its two text lines, rules left out of the count', async () => {
    const parts = await splitTextLines(await ruledMrz(true));
    expect(parts).toHaveLength(2);
    const heights = await Promise.all(parts!.map(async (p) => (await sharp(p).metadata()).height!));
    // Each a text line with its margin, well under the band's 110 px.
    for (const h of heights) expect(h).toBeLessThan(50);
  });

  it('gives nothing for one line of text', async () => {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="760" height="60"><rect width="760" height="60" fill="#fff"/><text x="20" y="40" font-family="OCR B" font-size="28">P&lt;UTOERIKSSON&lt;&lt;ANNA</text></svg>`;
    expect(await splitTextLines(await sharp(Buffer.from(svg)).png().toBuffer())).toBeNull();
  });
});

describe('document engine 2.8 on real images', () => {
  const v9 = useDocumentEngine(DOCUMENT_SETTINGS_V9);
  const v10 = useDocumentEngine(DOCUMENT_SETTINGS_V10);
  const FILE = 'nelsontkq__PassportCheck__src__passportcheck__passport.jpg';
  const truth = publicTuningTruth(FILE);

  it.skipIf(!truth)('a US passport specimen scan whose name line reads with a stray T before the code (public tuning)', async () => {
    expect(isHeldOut(truth!)).toBe(false);
    const bytes = readFileSync(path.join(PUBLIC_TUNING, FILE));
    const before = await v9().scanMrz(bytes);
    expect(before.valid).toBe(false);
    const after = await v10().scanMrz(bytes);
    expect(after.valid).toBe(true);
    expect(after.parsed?.lines).toEqual(truth!.mrz_lines);
  }, 120_000);

  it('reads a synthetic passport as 2.7 does', async () => {
    await expectSyntheticPasses(v10(), 'moz-passport', 'MOZ', 'passport', NOW);
  }, 120_000);
});
