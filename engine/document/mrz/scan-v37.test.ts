import { describe, expect, it } from 'vitest';
import { DOCUMENT_SETTINGS_V36, DOCUMENT_SETTINGS_V37 } from '../index.js';
import { interpret, uncoveredVote, type Interpreted } from './scan.js';

// ICAO 9303 Part 4 TD3 specimen (Utopia), the lines every test of this engine starts from.
const TD3 = ['P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<', 'L898902C36UTO7408122F1204159ZE184226B<<<<<10'];
const families = new Map<Interpreted, string>();
/** A read of the band as `family` (tesseract, the MRZ recogniser, the glyph reader...) would print it. */
const read = (name: string, data = TD3[1]!, family = 'tesseract'): Interpreted => {
  const r = interpret([name, data].map((text) => ({ text, confidence: 90 })));
  if (!r) throw new Error(`no read of ${name}`);
  families.set(r, family);
  return r;
};
const familyOf = (x: Interpreted) => families.get(x)!;

/**
 * Document engine 3.25 (`DOCUMENT_SETTINGS_V37`): an unreadable band's reported read takes, at each place
 * no check digit covers, the character most of the band's aligned reads print (`scan.reportVote`).
 */
describe('document engine 3.25: the reported read voted where no check digit covers it', () => {
  it('differs from 3.24 only in scan.reportVote', () => {
    const strip = (s: typeof DOCUMENT_SETTINGS_V37) => ({ ...s, version: '', scan: { ...s.scan, reportVote: undefined } });
    expect(strip(DOCUMENT_SETTINGS_V37)).toEqual(strip(DOCUMENT_SETTINGS_V36));
    expect(DOCUMENT_SETTINGS_V36.scan!.reportVote).toBeFalsy();
    expect(DOCUMENT_SETTINGS_V37.scan!.reportVote).toBe(true);
  });

  it('reads of other families that each miss a different letter of the name report it whole', () => {
    const top = read('P<UTOERIKSSON<<ANNA<MAPIA<<<<<<<<<<<<<<<<<<<');
    const reads = [top, read(TD3[0]!.replace('ANNA', 'ANMA'), TD3[1], 'mrz'), read(TD3[0]!.replace('ERIKSSON', 'ERIKSSQN'), TD3[1], 'glyph')];
    expect(top.lines[0]).not.toBe(TD3[0]);
    expect(uncoveredVote(top, reads, familyOf)?.lines).toEqual(TD3);
  });

  it('reads of one family count once: two tesseract reads printing one letter alike do not outvote', () => {
    const top = read('P<UTOERIKSSON<<ANNA<MAPIA<<<<<<<<<<<<<<<<<<<', TD3[1], 'mrz');
    expect(uncoveredVote(top, [top, read(TD3[0]!), read(TD3[0]!)], familyOf)).toBeNull();
    expect(uncoveredVote(top, [top, read(TD3[0]!), read(TD3[0]!, TD3[1], 'glyph')], familyOf)?.lines).toEqual(TD3);
  });

  it('a tie, a single witness or agreement with the reported read changes nothing', () => {
    const top = read('P<UTOERIKSSON<<ANNA<MAPIA<<<<<<<<<<<<<<<<<<<');
    // One family prints R, one prints P as the reported read does: R has no majority.
    expect(uncoveredVote(top, [top, read(TD3[0]!, TD3[1], 'mrz')], familyOf)).toBeNull();
    // Two families print R, two print P: a tie.
    expect(uncoveredVote(top, [top, read(TD3[0]!, TD3[1], 'mrz'), read(TD3[0]!, TD3[1], 'glyph'), read('P<UTOERIKSSON<<ANNA<MAPIA<<<<<<<<<<<<<<<<<<<', TD3[1], 'rec')], familyOf)).toBeNull();
  });

  it('reads shifted against the reported one do not vote (a dropped character misaligns every place after it)', () => {
    const top = read('P<UTOERIKSSON<<ANNA<MAPIA<<<<<<<<<<<<<<<<<<<');
    const shifted = (family: string) => read('P<UTORIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<<', TD3[1], family);
    expect(uncoveredVote(top, [top, shifted('mrz'), shifted('glyph')], familyOf)).toBeNull();
    // A document number read one place off leaves the nationality after it where the number's last
    // digits were: aligned only on the few uncovered places, it is no witness of the nationality.
    const top2 = read(TD3[0]!, TD3[1]!.replace('UTO', 'UTD'));
    const off = (family: string) => {
      const r: Interpreted = { ...top2, lines: [TD3[0]!, `${TD3[1]!.slice(0, 5)}9${TD3[1]!.slice(5, 43)}`] };
      families.set(r, family);
      return r;
    };
    expect(top2.lines[1]!.slice(10, 13)).toBe('UTD');
    expect(off('mrz').lines[1]!.slice(10, 13)).toBe('6UT');
    expect(uncoveredVote(top2, [top2, off('mrz'), off('glyph')], familyOf)).toBeNull();
  });

  it('never changes a character a check digit covers', () => {
    const top = read(TD3[0]!.replace('MARIA', 'MAPIA'));
    // Two reads agree on another document number: covered by its check digit, so not voted.
    const other = (family: string) => read(TD3[0]!, TD3[1]!.replace('L898902C3', 'L898902G3'), family);
    const v = uncoveredVote(top, [top, other('mrz'), other('glyph')], familyOf);
    expect(v?.lines).toEqual(TD3);
  });
});
