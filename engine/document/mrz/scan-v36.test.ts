import { describe, expect, it } from 'vitest';
import { printedMrz } from '../../../test/printed-mrz.js';
import { useDocumentEngine } from '../../../test/real-documents.js';
import { DOCUMENT_SETTINGS_V34, DOCUMENT_SETTINGS_V36 } from '../index.js';
import { repairLines } from './repair.js';
import { interpret } from './scan.js';

// French national identity cards (1988–2021, 2x36), the peer vectors of formats.test.ts:
// [cheminfo frenchNationalId 'valid MRZ'] and [cheminfo frenchNationalId 'valid MRZ with no administrative code'].
const FR = ['IDFRATEST<NAME<<<<<<<<<<<<<<<<0CHE02', '1710GVA123451ROBERTA<<<<<<<9112311F2'];
const FR_NO_OFFICE = ['IDFRABERTHIER<<<<<<<<<<<<<<<<<<<<<<<', '9409923102854CORINNE<<<<<<<6512068F4'];
// ICAO 9303 Part 6 TD2 specimen: a 2x36 document that is not the French card.
const TD2 = ['I<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<', 'D231458907UTO7408122F1204159<<<<<<<6'];
const ocr = (lines: string[]) => lines.map((text) => ({ text, confidence: 90 }));
const NATIONAL = { russianNames: true, frenchId: true };

/**
 * Document engine 3.24 (`DOCUMENT_SETTINGS_V36`): 2x36 lines beginning `IDFRA` are typed as the French
 * national identity card prints its fields, not as TD2's (`scan.frenchId`).
 */
describe('document engine 3.24: the French national identity card typed as itself', () => {
  it('differs from 3.22 only in scan.frenchId', () => {
    const strip = (s: typeof DOCUMENT_SETTINGS_V36) => ({ ...s, version: '', scan: { ...s.scan, frenchId: undefined } });
    expect(strip(DOCUMENT_SETTINGS_V36)).toEqual(strip(DOCUMENT_SETTINGS_V34));
    expect(DOCUMENT_SETTINGS_V34.scan!.frenchId).toBeFalsy();
    expect(DOCUMENT_SETTINGS_V36.scan!.frenchId).toBe(true);
  });

  it("TD2's typing turns the card's given names and department into digits; the card's own keeps them", () => {
    expect(repairLines(FR, 'TD2')).not.toEqual(FR);
    expect(repairLines(FR, 'TD2')[1]).toBe('1710GVA1234SIR08ER1A<<<<<<<9112311F2');
    expect(repairLines(FR, 'TD2', NATIONAL)).toEqual(FR);
    expect(repairLines(FR_NO_OFFICE, 'TD2', NATIONAL)).toEqual(FR_NO_OFFICE);
    // OCR confusions go back by the card's field types: O/0 in the number's date and sequence, 0/O in a name.
    expect(repairLines(['1DFRATEST<NAME<<<<<<<<<<<<<<<<0CHE02', '171OGVA1234S1R0BERTA<<<<<<<9112311F2'], 'TD2', NATIONAL)).toEqual(FR);
  });

  it('interprets the peer vectors, as printed and as misread, valid and exact only with the card typed as itself', () => {
    for (const lines of [FR, FR_NO_OFFICE]) {
      expect(interpret(ocr(lines))?.valid).toBe(false);
      const r = interpret(ocr(lines), undefined, false, NATIONAL)!;
      expect(r.valid).toBe(true);
      expect(r.lines).toEqual(lines);
      expect(r.parsed?.kind).toBe('FR-ID');
    }
    const misread = interpret(ocr(['IDFRATEST<NAME<<<<<<<<<<<<<<<<0CHE02', '171OGVA12345IR0BERTA<<<<<<<9112311F2']), undefined, false, NATIONAL)!;
    expect({ valid: misread.valid, lines: misread.lines }).toEqual({ valid: true, lines: FR });
  });

  it('leaves every other 2x36 document typed as TD2', () => {
    expect(repairLines(TD2, 'TD2', NATIONAL)).toEqual(repairLines(TD2, 'TD2'));
    const misread = ['I<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<', 'D231458907UTO74O8122F12O4159<<<<<<<6'];
    expect(repairLines(misread, 'TD2', NATIONAL)).toEqual(repairLines(misread, 'TD2'));
    expect(interpret(ocr(misread), undefined, false, NATIONAL)).toEqual(interpret(ocr(misread)));
  });

  const v34 = useDocumentEngine(DOCUMENT_SETTINGS_V34);
  const v36 = useDocumentEngine(DOCUMENT_SETTINGS_V36);
  it('a clean print of the card in OCR-B: 3.22 reads it for review with its names in digits; 3.24 reads it valid and exact', async () => {
    for (const lines of [FR, FR_NO_OFFICE]) {
      const img = await printedMrz(lines);
      const [before, after] = [await v34().scanMrz(img), await v36().scanMrz(img)];
      expect(before.valid).toBe(false);
      expect(before.parsed?.lines).not.toEqual(lines);
      expect(after.valid).toBe(true);
      expect(after.parsed?.lines).toEqual(lines);
      expect(after.parsed?.kind).toBe('FR-ID');
    }
  }, 120_000);
});
