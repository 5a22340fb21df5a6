import { describe, expect, it } from 'vitest';
import { fallbackConfirmed } from '../analyze.js';
import { DOCUMENT_SETTINGS_V24, DOCUMENT_SETTINGS_V25 } from '../index.js';
import { checkDigit } from './check-digit.js';
import type { MrzRead } from './read.js';
import { BLIND_EIGHTS, BLIND_TWINS, blindTwinsAgreed, interpret, type MrzScan } from './scan.js';

/** ICAO 9303 Part 4's TD3 specimen: its number L898902C3 holds two 8s. */
const TD3 = ['P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<', 'L898902C36UTO7408122F1204159ZE184226B<<<<<10'];
const read = (lines: string[]) => interpret(lines.map((text) => ({ text, confidence: 90 })))!;
const put = (lines: string[], li: number, k: number, c: string) => lines.map((l, i) => (i === li ? l.slice(0, k) + c + l.slice(k + 1) : l));

/**
 * Document engine 3.13 (`DOCUMENT_SETTINGS_V25`): `8` and `S` join 3.10's check-blind twins
 * (`scan.blindEights`).
 */
describe('document engine 3.13: 8 and S are check-blind twins', () => {
  it('differs from 3.12 only in scan.blindEights', () => {
    expect({ ...DOCUMENT_SETTINGS_V25, version: '', scan: { ...DOCUMENT_SETTINGS_V25.scan, blindEights: undefined } }).toEqual({ ...DOCUMENT_SETTINGS_V24, version: '', scan: { ...DOCUMENT_SETTINGS_V24.scan } });
  });

  it('S is worth what 8 is to every check digit, so a number misread that way still passes', () => {
    expect(checkDigit('L8989')).toBe(checkDigit('LS989'));
    expect(checkDigit('L898902C3')).toBe(checkDigit('LS98902C3'));
    const misread = read(put(TD3, 1, 1, 'S'));
    expect(misread.valid).toBe(true);
    expect(misread.lines[1]).toBe('LS98902C36UTO7408122F1204159ZE184226B<<<<<10');
  });

  it('blindTwinsAgreed with BLIND_EIGHTS: each 8 or S of the number must be printed alike by another family; 3.10\'s set lets them pass', () => {
    const v = read(TD3);
    const exceptFirstEight = put(TD3, 1, 1, 'S');
    expect(blindTwinsAgreed(v, [exceptFirstEight])).toBe(true);
    expect(blindTwinsAgreed(v, [exceptFirstEight], BLIND_TWINS)).toBe(true);
    expect(blindTwinsAgreed(v, [exceptFirstEight], BLIND_EIGHTS)).toBe(false);
    expect(blindTwinsAgreed(v, [TD3], BLIND_EIGHTS)).toBe(true);
    // a misread S stands only where another family prints the S too
    const s = read(exceptFirstEight);
    expect(blindTwinsAgreed(s, [TD3], BLIND_EIGHTS)).toBe(false);
    expect(blindTwinsAgreed(s, [exceptFirstEight], BLIND_EIGHTS)).toBe(true);
    // 8s in the dates are not check-blind (digits only there)
    expect([...BLIND_EIGHTS].filter((c) => !BLIND_TWINS.has(c)).sort()).toEqual(['8', 'S']);
  });

  it('fallbackConfirmed with BLIND_EIGHTS: a template read whose number\'s 8 the glyph reader prints as S does not stand in for the scan', () => {
    const glyphS = put(TD3, 1, 1, 'S');
    const banded: MrzRead = {
      parsed: read(TD3).parsed, valid: true, stable: true, reader: 'tesseract', nameCrossChecked: false, confidence: 0.3,
      attempts: [{ variant: 'glyph', lines: glyphS, valid: true, confidence: 0.3, ms: 1 }, { variant: 'v1', lines: TD3, valid: true, confidence: 0.3, ms: 1 }, { variant: 'v2', lines: TD3, valid: true, confidence: 0.3, ms: 1 }],
    };
    const scan: MrzScan = { parsed: null, valid: false, reason: 'mrz_unreadable', lineConfidence: [], confidence: 0, nameConfirmed: false, corrections: 0, bandsFound: 1, attempts: [] };
    expect(fallbackConfirmed(banded, scan, true)).toBe(true);
    expect(fallbackConfirmed(banded, scan, true, BLIND_EIGHTS)).toBe(false);
    expect(fallbackConfirmed({ ...banded, attempts: [{ ...banded.attempts[0]!, lines: TD3 }, ...banded.attempts.slice(1)] }, scan, true, BLIND_EIGHTS)).toBe(true);
  });
});
