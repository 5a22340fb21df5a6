import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { compareRows, isHeldOut, type RealRow } from '../../../bench/documents-real.js';
import { PUBLIC_TUNING, publicTuningTruth, useDocumentEngine } from '../../../test/real-documents.js';
import { DOCUMENT_SETTINGS_V37, DOCUMENT_SETTINGS_V38 } from '../index.js';
import { interpret, reportOutranks, scanPlausible, soundRead, type Interpreted } from './scan.js';

const ocr = (lines: string[]): Interpreted => {
  const r = interpret(lines.map((text) => ({ text, confidence: 90 })), plausible);
  if (!r) throw new Error(`no read of ${lines.join('|')}`);
  return r;
};
const plausible = scanPlausible({ retry: DOCUMENT_SETTINGS_V38.scan!.retry, icaoFields: DOCUMENT_SETTINGS_V38.scan!.icaoFields });

// Reads the scan made of a public TUNING image (the Japanese passport specimen GAIMU HANAKO turned 90°,
// GrandChefDotKong/ReactNative_hostelCheckinApp assets/passport.jpg; its check digits fail as printed):
// the MRZ recogniser's read, exact, and tesseract's read of the band turned 180°.
const EXACT = ['P<JPNGAIMU<<HANAKO<<<<<<<<<<<<<<<<<<<<<<<<<<', 'NH11060029JPN8805056F2011079<<<<<<<<<<<<<<08'];
const TURNED = ['OBO33333333333333GZJOLLOZ39SOSOBBNJIFGZOO9OL', '3333333333333333333333333303VNVHX30WIVDONJI3'];

/**
 * Document engine 3.26 (`DOCUMENT_SETTINGS_V38`): the read an unreadable scan reports for review is
 * chosen among reads that can be an MRZ of their format first (`scan.reportSound`), then by check
 * digits passed, as before.
 */
describe('document engine 3.26: a sound read is reported before one that cannot be the document', () => {
  it('differs from 3.25 only in scan.reportSound', () => {
    const strip = (s: typeof DOCUMENT_SETTINGS_V38) => ({ ...s, version: '', scan: { ...s.scan, reportSound: undefined } });
    expect(strip(DOCUMENT_SETTINGS_V38)).toEqual(strip(DOCUMENT_SETTINGS_V37));
    expect(DOCUMENT_SETTINGS_V37.scan!.reportSound).toBeFalsy();
    expect(DOCUMENT_SETTINGS_V38.scan!.reportSound).toBe(true);
  });

  it('the turned read passes more check digits by chance but cannot be a passport: 3.25 reports it, 3.26 the exact one', () => {
    const exact = ocr(EXACT), turned = ocr(TURNED);
    expect(exact.valid || turned.valid).toBe(false);
    expect(turned.checksOk).toBeGreaterThan(exact.checksOk);
    expect(soundRead(exact, plausible)).toBe(true);
    expect(soundRead(turned, plausible)).toBe(false);
    expect(turned.parsed?.structureErrors).toContain('invalid_birth_date');
    for (const parseBonus of [true, false]) {
      expect(reportOutranks(turned, exact, { reportSound: false, plausible, parseBonus })).toBe(true);
      expect(reportOutranks(turned, exact, { reportSound: true, plausible, parseBonus })).toBe(false);
      expect(reportOutranks(exact, turned, { reportSound: true, plausible, parseBonus })).toBe(true);
    }
  });

  it('between two sound reads, or two unsound ones, check digits decide as before and the earlier read wins a tie', () => {
    const utopia = ocr(['P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<', 'L898902C36UTO7408122F1204159ZE184226B<<<<<10']);
    const oneOff = ocr(['P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<', 'L898902C36UTO7408122F1204159ZE184226B<<<<<11']);
    expect(soundRead(utopia, plausible) && soundRead(oneOff, plausible)).toBe(true);
    expect(reportOutranks(utopia, oneOff, { reportSound: true, plausible, parseBonus: true })).toBe(true);
    expect(reportOutranks(oneOff, utopia, { reportSound: true, plausible, parseBonus: true })).toBe(false);
    expect(reportOutranks(utopia, utopia, { reportSound: true, plausible, parseBonus: true })).toBe(false);
    const turned = ocr(TURNED), turnedLess = ocr([TURNED[0]!, TURNED[1]!.replace('3303', '3304')]);
    expect(soundRead(turnedLess, plausible)).toBe(false);
    expect(reportOutranks(turned, turnedLess, { reportSound: true, plausible, parseBonus: true })).toBe(turned.checksOk > turnedLess.checksOk);
  });

  it('a Case template\'s rule counts: a read of a state the template does not accept is not sound', () => {
    const exact = ocr(EXACT);
    const onlyMoz = scanPlausible({ plausible: (p) => p.issuingState === 'MOZ', retry: DOCUMENT_SETTINGS_V38.scan!.retry, icaoFields: DOCUMENT_SETTINGS_V38.scan!.icaoFields });
    expect(soundRead(exact, onlyMoz)).toBe(false);
  });
});

describe('document engine 3.26 on a real image', () => {
  const v37 = useDocumentEngine(DOCUMENT_SETTINGS_V37);
  const v38 = useDocumentEngine(DOCUMENT_SETTINGS_V38);
  const FILE = 'GrandChefDotKong__ReactNative_hostelCheckinApp__assets__passport.jpg';
  const truth = publicTuningTruth(FILE);

  it.skipIf(!truth)('the Japanese specimen turned 90° (public tuning): unreadable under both, reported as printed by 3.26 only, from the same reads', async () => {
    expect(isHeldOut(truth!)).toBe(false);
    const bytes = readFileSync(path.join(PUBLIC_TUNING, FILE));
    const before = await v37().scanMrz(bytes);
    const after = await v38().scanMrz(bytes);
    expect(before.valid || after.valid).toBe(false);
    expect(after.attempts.map((a) => [a.band, a.flipped, a.source, a.lines])).toEqual(before.attempts.map((a) => [a.band, a.flipped, a.source, a.lines]));
    expect(before.parsed?.lines).not.toEqual(truth!.mrz_lines);
    expect(after.parsed?.lines).toEqual(truth!.mrz_lines);
  }, 180_000);
});

/** The bench's report-by-report comparison, by which 3.26's and 3.27's changes were logged (`bench:documents --compare`). */
describe('bench:documents --compare (compareRows)', () => {
  const row = (file: string, reported: string[], valid: boolean, linesExact: number): RealRow => ({
    file, set: 'tuning', format: 'TD3', capture: 'scan', found: true, linesTotal: 2, linesExact, docExact: linesExact === 2, valid, silent: false,
    reason: valid ? null : 'mrz_unreadable', ms: 1, cpuMs: 1, attempts: 2, reported,
  });
  it('names every image whose report changed, and only those', () => {
    const before = [row('a.jpg', TURNED, false, 0), row('b.jpg', EXACT, true, 2), row('gone.jpg', EXACT, true, 2)];
    const after = [row('a.jpg', EXACT, false, 2), row('b.jpg', EXACT, true, 2), row('new.jpg', EXACT, true, 2)];
    const text = compareRows(before, after);
    expect(text).toContain('before: lines 4/6, documents 2/3, valid 2, silent 0');
    expect(text).toContain('after:  lines 6/6, documents 3/3, valid 2, silent 0');
    expect(text).toMatch(/- a\.jpg \(tuning\): reported .*OBO3.* -> .*GAIMU.*; linesExact 0 -> 2/);
    expect(text).not.toContain('b.jpg');
    expect(text).toContain('- only after: new.jpg');
    expect(text).toContain('- only before: gone.jpg');
    expect(compareRows(before, before)).toContain('no report changed');
  });
});
