import { describe, expect, it } from 'vitest';
import { publicTuningTruth, scanTuningPair, useDocumentEngine } from '../../../test/real-documents.js';
import { DOCUMENT_SETTINGS_V38, DOCUMENT_SETTINGS_V39 } from '../index.js';
import { familyMajorityRead, interpret, type Interpreted } from './scan.js';

/** ICAO 9303 Part 4's TD3 specimen. */
const TD3 = ['P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<', 'L898902C36UTO7408122F1204159ZE184226B<<<<<10'];
/** The same with the number's `C` misread `G` and the check digit and composite moved to match: a conflict outside the name line. */
const NUMBER_OFF = [TD3[0]!, 'L898902G38UTO7408122F1204159ZE184226B<<<<<16'];
/** The same with the name misread (no check digit covers it). */
const NAME_OFF = ['P<UTOERIKSSON<<ANNA<HARIA<<<<<<<<<<<<<<<<<<<', TD3[1]!];

const read = (lines: string[]): Interpreted => interpret(lines.map((text) => ({ text, confidence: 90 })))!;

/** The winner among `reads`, each with its reader family, under 3.15's rule (`nameMajority`) with or without 3.27's. */
function settle(reads: [string[], string][], dividedDissent: boolean): string[] | null {
  const families = new Map<Interpreted, string>();
  const pool = reads.map(([lines, family]) => {
    const r = read(lines);
    families.set(r, family);
    return r;
  });
  return familyMajorityRead(pool, (x) => families.get(x)!, true, dividedDissent)?.lines ?? null;
}

/**
 * Document engine 3.27 (`DOCUMENT_SETTINGS_V39`, `scan.dividedDissent`): a band's check-valid versions
 * are settled by two reader families printing one of them when every other version is printed only by
 * a family that also prints that one; any other conflict is settled as under 3.26 (three families, or
 * two for a name line).
 */
describe('document engine 3.27: a dissent from a family that contradicts itself', () => {
  it('differs from 3.26 only in scan.dividedDissent', () => {
    const strip = (s: typeof DOCUMENT_SETTINGS_V39) => ({ ...s, version: '', scan: { ...s.scan, dividedDissent: undefined } });
    expect(strip(DOCUMENT_SETTINGS_V39)).toEqual(strip(DOCUMENT_SETTINGS_V38));
    expect(DOCUMENT_SETTINGS_V38.scan!.dividedDissent).toBeFalsy();
    expect(DOCUMENT_SETTINGS_V39.scan!.dividedDissent).toBe(true);
  });

  it('the test reads are what they claim: each passes every check digit', () => {
    for (const lines of [TD3, NUMBER_OFF, NAME_OFF]) expect(read(lines).valid).toBe(true);
  });

  it('a number tesseract prints two ways, the MRZ recogniser one of them: that one is the read (3.26 leaves the band unreadable)', () => {
    const reads: [string[], string][] = [[NUMBER_OFF, 'tesseract'], [TD3, 'mrz'], [TD3, 'tesseract']];
    expect(settle(reads, false)).toBeNull();
    expect(settle(reads, true)).toEqual(TD3);
  });

  it('the dissent with a family of its own, as many reads, or a second family still stands', () => {
    // The glyph reader prints the dissent and does not print the majority's version.
    expect(settle([[NUMBER_OFF, 'glyph'], [TD3, 'mrz'], [TD3, 'tesseract']], true)).toBeNull();
    // As many reads behind the dissent.
    expect(settle([[NUMBER_OFF, 'tesseract'], [NUMBER_OFF, 'tesseract'], [TD3, 'mrz'], [TD3, 'tesseract']], true)).toBeNull();
    // Two families behind the dissent, both also printing the majority's version.
    expect(settle([[NUMBER_OFF, 'tesseract'], [NUMBER_OFF, 'mrz'], [TD3, 'mrz'], [TD3, 'tesseract'], [TD3, 'tesseract'], [TD3, 'mrz']], true)).toBeNull();
  });

  it('one family is never enough, however divided the other versions are', () => {
    expect(settle([[NUMBER_OFF, 'tesseract'], [TD3, 'tesseract'], [TD3, 'tesseract']], true)).toBeNull();
  });

  it('a name-line conflict is settled as under 3.15, with or without 3.27', () => {
    const reads: [string[], string][] = [[NAME_OFF, 'tesseract'], [TD3, 'mrz'], [TD3, 'tesseract']];
    expect(settle(reads, false)).toEqual(TD3);
    expect(settle(reads, true)).toEqual(TD3);
  });

  const v38 = useDocumentEngine(DOCUMENT_SETTINGS_V38);
  const v39 = useDocumentEngine(DOCUMENT_SETTINGS_V39);
  const FILE = 'WintonetekOCR__Sinosecu-Passport-Reader-SDK-X64__lib__res__13__0140101__UV.jpg';
  const truth = publicTuningTruth(FILE);
  it.skipIf(!truth)('a French passport specimen under UV light (public tuning): tesseract\'s grey read offsets B for 6 and P for 0 in the number; 3.26 reports it exactly for review, 3.27 valid and exact, from the same reads', async () => {
    const [before, after] = await scanTuningPair(FILE, truth!, v38, v39);
    expect(before.valid).toBe(false);
    expect(before.parsed?.lines).toEqual(truth!.mrz_lines);
    expect(after.valid).toBe(true);
    expect(after.parsed?.lines).toEqual(truth!.mrz_lines);
    expect(after.attempts.map((a) => [a.source, a.lines])).toEqual(before.attempts.map((a) => [a.source, a.lines]));
  }, 180_000);
});
