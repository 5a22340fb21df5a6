import { describe, expect, it } from 'vitest';
import { printedMrz } from '../../../test/printed-mrz.js';
import { useDocumentEngine } from '../../../test/real-documents.js';
import { DOCUMENT_SETTINGS_V33, DOCUMENT_SETTINGS_V34 } from '../index.js';
import { checkDigit } from './check-digit.js';
import { parseMrz } from './parse.js';
import { repairLines } from './repair.js';
import { interpret, settledBand, type Interpreted } from './scan.js';

/**
 * A Russian internal passport's MRZ in the MVD's "modernised Clair" encoding (Order of the MVD of
 * Russia No. 773 of 16 November 2020, appendix 24): ЯКОВЛЕВ ЭДУАРД ЁЛКИНИЧ is `8KOVLEV<<6DUARD<2LKINI3`,
 * the digits 8, 6, 2 being the letters Я, Э, Ё, which the type repair read as B, G, Z. The data line
 * is appintheair's published internal-passport vector (formats.test.ts, `testTD3RussianPassport`):
 * the name line carries no check digit, so any name fits it.
 */
const RUSSIAN = ['PNRUS8KOVLEV<<6DUARD<2LKINI3'.padEnd(44, '<'), '3919353498RUS7207233M<<<<<<<4151218910003<50'];

/**
 * An ICAO TD1 card whose every check digit holds but whose dates are impossible (`000000`, as on
 * specimen cards printed with zeros): the same lines every read, never `valid`.
 */
const ZEROS = (() => {
  const number = '000000000', optional = '<'.repeat(15);
  const l1 = `IDUTO${number}${checkDigit(number)}${optional}`;
  const l2a = `000000${checkDigit('000000')}F000000${checkDigit('000000')}UTO${'<'.repeat(11)}`;
  const composite = checkDigit(l1.slice(5, 30) + l2a.slice(0, 7) + l2a.slice(8, 15) + l2a.slice(18, 29));
  return [l1, l2a + composite, 'SPECIMEN<<SAMPLE'.padEnd(30, '<')];
})();

describe('document engine 3.22: Russian internal passport names, and settled bands', () => {
  it('differs from 3.21 only in scan.russianNames and scan.settledStop', () => {
    const strip = (s: typeof DOCUMENT_SETTINGS_V34) => ({ ...s, version: '', scan: { ...s.scan, russianNames: undefined, settledStop: undefined } });
    expect(strip(DOCUMENT_SETTINGS_V34)).toEqual(strip(DOCUMENT_SETTINGS_V33));
    expect(DOCUMENT_SETTINGS_V34.scan).toMatchObject({ russianNames: true, settledStop: true });
    expect(DOCUMENT_SETTINGS_V33.scan!.russianNames).toBeUndefined();
  });

  it('the test lines are what they claim: the Russian MRZ passes every check digit, the zero-dated card too but with impossible dates', () => {
    expect(RUSSIAN[0]).toHaveLength(44);
    expect(parseMrz(RUSSIAN, { extended: true })!.checkDigitsValid).toBe(true);
    const z = parseMrz(ZEROS, { extended: true })!;
    expect(z.kind).toBe('TD1');
    expect(z.checkDigitsValid).toBe(true);
    expect(z.structureErrors).toEqual(expect.arrayContaining(['invalid_birth_date', 'invalid_expiry_date']));
  });

  it('repairLines keeps the encoding digits in a PNRUS name only, and still reads 0, 1, 5 there as O, I, S', () => {
    expect(repairLines(RUSSIAN, 'TD3')[0]).toBe('PNRUSBKOVLEV<<GDUARD<ZLKINI3'.padEnd(44, '<'));
    expect(repairLines(RUSSIAN, 'TD3', { russianNames: true })[0]).toBe(RUSSIAN[0]);
    // 0, 1 and 5 are no letter of the encoding: still the type repair's O, I, S.
    const misread = ['PNRUS8K0VLEV<<6DUARD<2LK1N53'.padEnd(44, '<'), RUSSIAN[1]!];
    expect(repairLines(misread, 'TD3', { russianNames: true })[0]).toBe('PNRUS8KOVLEV<<6DUARD<2LKINS3'.padEnd(44, '<'));
    // Any other passport: a digit in the name is a misread letter, as before.
    const other = ['P<GBR8KOVLEV<<6DUARD'.padEnd(44, '<'), RUSSIAN[1]!];
    expect(repairLines(other, 'TD3', { russianNames: true })[0]).toBe('P<GBRBKOVLEV<<GDUARD'.padEnd(44, '<'));
    // The data line is repaired as before (its digits are digits).
    expect(repairLines(RUSSIAN, 'TD3', { russianNames: true })[1]).toBe(repairLines(RUSSIAN, 'TD3')[1]);
  });

  it('interpret: the read keeps the printed name, so it is a read "as printed" that can confirm another', () => {
    const ocr = RUSSIAN.map((text) => ({ text, confidence: 90 }));
    const before = interpret(ocr)!;
    const after = interpret(ocr, undefined, false, { russianNames: true })!;
    expect(before.valid && after.valid).toBe(true);
    expect(before.lines[0]).not.toBe(before.rawLines[0]);
    expect(after.lines).toEqual(RUSSIAN);
    expect(after.lines[0]).toBe(after.rawLines[0]);
  });

  it('settledBand: three reads, two families, one version; not with one family, two reads, or a second version', () => {
    const read = (lines: string[]) => interpret(lines.map((text) => ({ text, confidence: 90 })))!;
    const fam = new Map<Interpreted, string>();
    const [a, b, c] = [read(ZEROS), read(ZEROS), read(ZEROS)];
    fam.set(b, 'mrz');
    const familyOf = (x: Interpreted) => fam.get(x) ?? 'tesseract';
    expect(settledBand([a, b, c], familyOf)).toBe(true);
    expect(settledBand([a, b], familyOf)).toBe(false);
    expect(settledBand([a, c, read(ZEROS)], familyOf)).toBe(false);
    const other = read([ZEROS[0]!, ZEROS[1]!, 'SPECIMEN<<SAMPLF'.padEnd(30, '<')]);
    expect(settledBand([a, b, c, other], familyOf)).toBe(false);
    expect(settledBand([a, a, b], familyOf)).toBe(false);
  });

  const v33 = useDocumentEngine(DOCUMENT_SETTINGS_V33);
  const v34 = useDocumentEngine(DOCUMENT_SETTINGS_V34);
  it('a printed Russian internal passport MRZ: 3.21 repairs the name and cannot confirm it; 3.22 reads it valid and exact', async () => {
    const img = await printedMrz(RUSSIAN);
    const [before, after] = [await v33().scanMrz(img), await v34().scanMrz(img)];
    expect(before.valid).toBe(false);
    expect(after.valid).toBe(true);
    expect(after.parsed?.lines).toEqual(RUSSIAN);
    expect(after.attempts.length).toBeLessThan(before.attempts.length);
  }, 120_000);

  it('the Case analysis compares a claimed name with the Russian internal passport\'s name decoded: Cyrillic or ICAO Latin claims match, another name does not', async () => {
    const front = await printedMrz(RUSSIAN);
    const analyze = (surnames: string, given_names: string) => v34().analyze({
      front, declared: { country: 'RUS', type: 'passport' }, accepted: [{ country: 'RUS', types: ['passport'] }],
      applicant: { surnames, given_names }, now: new Date('2026-12-01T00:00:00Z'),
    });
    const verdicts = async (surnames: string, given_names: string) => {
      const r = await analyze(surnames, given_names);
      expect(r.extracted.surnames).toBe('8KOVLEV');
      return ((r.ocr.evidence as { applicant_vs_document: { field: string; verdict: string }[] }).applicant_vs_document).map((c) => `${c.field}:${c.verdict}`);
    };
    expect(await verdicts('Яковлев', 'Эдуард Ёлкинич')).toEqual(['surnames:match', 'given_names:match']);
    expect(await verdicts('IAKOVLEV', 'EDUARD ELKINICH')).toEqual(['surnames:match', 'given_names:match']);
    expect(await verdicts('Петров', 'Эдуард Ёлкинич')).toEqual(['surnames:mismatch', 'given_names:match']);
  }, 120_000);

  it('a printed card with impossible dates: 3.22 reports what 3.21 reports, after three reads instead of the whole budget', async () => {
    const img = await printedMrz(ZEROS, 30);
    const [before, after] = [await v33().scanMrz(img), await v34().scanMrz(img)];
    expect(before.valid).toBe(false);
    expect(after.valid).toBe(false);
    expect(after.reason).toBe(before.reason);
    expect(after.parsed?.lines).toEqual(ZEROS);
    expect(before.parsed?.lines).toEqual(ZEROS);
    expect(after.attempts.length).toBe(3);
    expect(before.attempts.length).toBeGreaterThan(3);
  }, 120_000);
});
