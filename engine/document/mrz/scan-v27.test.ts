import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { turnedPrint } from '../../../bench/documents-real.js';
import { REAL_DOCUMENTS, realMrzTruth, useDocumentEngine } from '../../../test/real-documents.js';
import { DOCUMENT_SETTINGS_V26, DOCUMENT_SETTINGS_V27 } from '../index.js';
import { familyMajorityRead, interpret, type Interpreted } from './scan.js';

/** ICAO 9303 Part 4's TD3 specimen. */
const TD3 = ['P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<', 'L898902C36UTO7408122F1204159ZE184226B<<<<<10'];
/** The same with one letter of the name misread (no check digit covers it). */
const NAME_OFF = ['P<UTOERIKSSON<<ANNA<HARIA<<<<<<<<<<<<<<<<<<<', TD3[1]!];
/** The same with the number's `C` misread `G` and the check digit and composite moved to match: another line differs. */
const NUMBER_OFF = [TD3[0]!, 'L898902G38UTO7408122F1204159ZE184226B<<<<<16'];

/** A read of `lines` as tesseract or another reader family would give it (every line as printed). */
const read = (lines: string[]): Interpreted => interpret(lines.map((text) => ({ text, confidence: 90 })))!;

/** The winner among `reads` with each read's family given alongside it. */
function settle(reads: [string[], string][], nameMajority: boolean): string[] | null {
  const families = new Map<Interpreted, string>();
  const pool = reads.map(([lines, family]) => {
    const r = read(lines);
    families.set(r, family);
    return r;
  });
  return familyMajorityRead(pool, (x) => families.get(x)!, nameMajority)?.lines ?? null;
}

/**
 * Document engine 3.15 (`DOCUMENT_SETTINGS_V27`): check-valid versions that differ in the name line
 * only are settled by two reader families (`scan.nameMajority`); any other conflict still needs
 * three, as under 3.10's `familyMajority`.
 */
describe('document engine 3.15: name-line conflicts settled by two reader families', () => {
  it('differs from 3.14 only in scan.nameMajority', () => {
    expect({ ...DOCUMENT_SETTINGS_V27, version: '', scan: { ...DOCUMENT_SETTINGS_V27.scan, nameMajority: undefined } }).toEqual({ ...DOCUMENT_SETTINGS_V26, version: '', scan: { ...DOCUMENT_SETTINGS_V26.scan } });
    expect(DOCUMENT_SETTINGS_V27.scan!.nameMajority).toBe(true);
  });

  it('the test reads are what they claim: each passes every check digit', () => {
    for (const lines of [TD3, NAME_OFF, NUMBER_OFF]) expect(read(lines).valid).toBe(true);
  });

  it('a name version tesseract and the MRZ recogniser print alike wins over one tesseract alone prints, by fewer reads', () => {
    const reads: [string[], string][] = [[NAME_OFF, 'tesseract'], [TD3, 'mrz'], [TD3, 'tesseract'], [TD3, 'tesseract'], [NAME_OFF, 'tesseract']];
    expect(settle(reads, true)).toEqual(TD3);
    // 3.10 alone asks for three families.
    expect(settle(reads, false)).toBeNull();
  });

  it('stays unreadable when the dissent has as many reads, or a second family behind it', () => {
    expect(settle([[NAME_OFF, 'tesseract'], [NAME_OFF, 'tesseract'], [TD3, 'mrz'], [TD3, 'tesseract']], true)).toBeNull();
    expect(settle([[NAME_OFF, 'tesseract'], [NAME_OFF, 'glyph'], [TD3, 'mrz'], [TD3, 'tesseract'], [TD3, 'tesseract']], true)).toBeNull();
  });

  it('a conflict outside the name line still needs three families', () => {
    const reads: [string[], string][] = [[NUMBER_OFF, 'tesseract'], [TD3, 'mrz'], [TD3, 'tesseract'], [TD3, 'tesseract']];
    expect(settle(reads, true)).toBeNull();
    expect(settle([...reads, [TD3, 'glyph']], true)).toEqual(TD3);
  });

  it('one family is never enough, however many of its reads agree', () => {
    expect(settle([[NAME_OFF, 'tesseract'], [TD3, 'tesseract'], [TD3, 'tesseract'], [TD3, 'tesseract']], true)).toBeNull();
  });

  const v26 = useDocumentEngine(DOCUMENT_SETTINGS_V26);
  const v27 = useDocumentEngine(DOCUMENT_SETTINGS_V27);
  const CZE = 'DoubangoTelecom__ultimateMRZ-SDK__assets__images__Czech_passport_2005_MRZ_orient1_1300x1002.jpg';
  it('the Czech specimen turned 15° (real, tuning): the first tesseract read has a stray S in the name line filler, the recogniser and the flattened tesseract read print it exactly; 3.14 leaves it for review, 3.15 valid and exact', async () => {
    const turned = (await turnedPrint(readFileSync(path.join(REAL_DOCUMENTS, CZE)), 15))!;
    const [before, after] = [await v26().scanMrz(turned), await v27().scanMrz(turned)];
    expect(before.valid).toBe(false);
    expect(before.parsed?.lines).toEqual(realMrzTruth(CZE));
    expect(after.valid).toBe(true);
    expect(after.parsed?.lines).toEqual(realMrzTruth(CZE));
    // The same reads: only how their conflict is settled changed.
    expect(after.attempts.map((a) => a.source)).toEqual(before.attempts.map((a) => a.source));
  }, 120_000);
});
