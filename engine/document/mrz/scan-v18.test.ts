import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../assets.js';
import { expectSyntheticPasses, REAL_DOCUMENTS, useDocumentEngine } from '../../../test/real-documents.js';
import { DOCUMENT_SETTINGS_V17, DOCUMENT_SETTINGS_V18 } from '../index.js';
import { parseMrz } from './parse.js';
import { icaoFieldsFit, interpret, scanPlausible } from './scan.js';

/**
 * Document engine 3.6 (`DOCUMENT_SETTINGS_V18`): the scan without a template holds a read to the
 * fields ICAO fixes for every document and no check digit covers (the document code's first letter
 * for the read's family, the sex letter), as a Case's template already did.
 */
const NOW = new Date('2026-11-29T00:00:00Z');
const parse = (lines: string[]) => parseMrz(lines, { extended: true })!;

// ICAO 9303 specimens: Part 4 Appendix A (TD3), Part 5 (TD1), Part 6 (TD2), Part 7 (MRV-A, MRV-B).
const TD3 = ['P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<', 'L898902C36UTO7408122F1204159ZE184226B<<<<<10'];
const TD1 = ['I<UTOD231458907<<<<<<<<<<<<<<<', '7408122F1204159UTO<<<<<<<<<<<6', 'ERIKSSON<<ANNA<MARIA<<<<<<<<<<'];
const TD2 = ['I<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<', 'D231458907UTO7408122F1204159<<<<<<<6'];
const MRVA = ['V<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<', 'L8988901C4XXX4009078F96121096ZE184226B<<<<<<'];
const MRVB = ['V<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<', 'L8988901C4XXX4009078F9612109<<<<<<<<'];
// The French national ID card (2×36, its own layout): cheminfo/mrz frenchNationalId 'valid MRZ', as in formats.test.ts.
const FRID = ['IDFRATEST<NAME<<<<<<<<<<<<<<<<0CHE02', '1710GVA123451ROBERTA<<<<<<<9112311F2'];
/**
 * A real read (bench:mrz-reads, the Swiss passport specimen of the public tuning set at x0.22, tesseract's
 * grey crop): both lines of a TD3 with their filler runs cut short to 36, which parses as a TD2 whose
 * every check digit holds (a `<` counts 0, so the composite is the same).
 */
const SWISS_AS_TD2 = ['PMCHESCHWEIZER<SAMPLE<<HELVETIA<<<<<', 'S0A00B39<5CHE9508015F3209251<<<<<<04'];
const withLine = (lines: string[], li: number, at: number, c: string) => lines.map((l, i) => (i === li ? l.slice(0, at) + c + l.slice(at + 1) : l));

describe('icaoFieldsFit: ICAO fields no check digit covers', () => {
  it('every family of specimen fits, the French card and a Mexican INE card (sex H) included', () => {
    for (const lines of [TD3, TD1, TD2, MRVA, MRVB, FRID]) {
      expect(parse(lines).checkDigitsValid, lines[0]).toBe(true);
      expect(icaoFieldsFit(parse(lines)), lines[0]).toBe(true);
    }
    const ine = parse([...TD1.slice(0, 2).map((l) => l.replace('UTO', 'MEX')), TD1[2]!].map((l, i) => (i === 0 ? `ID${l.slice(2)}` : l)));
    expect(icaoFieldsFit({ ...ine, sex: 'H' })).toBe(true);
    expect(icaoFieldsFit({ ...parse(TD3), sex: 'X' })).toBe(true);
    expect(icaoFieldsFit({ ...parse(TD3), sex: '<' })).toBe(true);
  });

  it('refuses a passport read as a TD2, a card code that is not A, C or I, a V as a card\'s second letter, a sex letter ICAO does not have', () => {
    const swiss = parse(SWISS_AS_TD2);
    expect(swiss.kind).toBe('TD2');
    expect(swiss.checkDigitsValid && swiss.structureErrors.length === 0).toBe(true);
    expect(icaoFieldsFit(swiss)).toBe(false);
    // A card's `I` read as `L` (bench:mrz-reads, a German ID card of the public tuning set).
    expect(icaoFieldsFit(parse(withLine(TD2, 0, 0, 'L')))).toBe(false);
    expect(icaoFieldsFit(parse(withLine(TD1, 0, 1, 'V')))).toBe(false);
    expect(icaoFieldsFit(parse(withLine(TD3, 0, 0, 'I')))).toBe(false);
    // `F` read as `T` (bench:mrz-reads, a French passport specimen); sex is outside every check digit.
    const t = parse(withLine(TD3, 1, 20, 'T'));
    expect(t.checkDigitsValid).toBe(true);
    expect(icaoFieldsFit(t)).toBe(false);
    // H is the INE's letter, not everyone's.
    expect(icaoFieldsFit({ ...parse(TD3), sex: 'H' })).toBe(false);
  });

  it('refuses no document of the real sets: every ground-truth MRZ fits (real, public tuning and public unseen manifests)', () => {
    const truths = [
      ...readFileSync(path.join(REAL_DOCUMENTS, 'ground_truth.jsonl'), 'utf8').trim().split('\n'),
      ...['documents-public.manifest.jsonl', 'documents-public-tuning.manifest.jsonl'].flatMap((f) => readFileSync(path.join(REPO_ROOT, 'bench', f), 'utf8').trim().split('\n')),
    ].map((l) => JSON.parse(l) as { file: string; mrz_lines: string[]; mrz_alternatives?: string[][] });
    expect(truths.length).toBeGreaterThan(60);
    for (const t of truths) for (const lines of [t.mrz_lines, ...(t.mrz_alternatives ?? [])]) expect(icaoFieldsFit(parse(lines)), t.file).toBe(true);
  });
});

describe('document engine 3.6', () => {
  it('differs from 3.5 only in scan.icaoFields', () => {
    expect({ ...DOCUMENT_SETTINGS_V18, version: '', scan: { ...DOCUMENT_SETTINGS_V18.scan, icaoFields: undefined } }).toEqual({ ...DOCUMENT_SETTINGS_V17, version: '', scan: { ...DOCUMENT_SETTINGS_V17.scan, icaoFields: undefined } });
    expect(DOCUMENT_SETTINGS_V18.scan?.icaoFields).toBe(true);
  });

  it('the Swiss passport read as a TD2 is a valid read under 3.5 and not under 3.6', () => {
    const v17 = scanPlausible(DOCUMENT_SETTINGS_V17.scan!);
    const v18 = scanPlausible(DOCUMENT_SETTINGS_V18.scan!);
    const read = (plausible?: (p: ReturnType<typeof parse>) => boolean) => interpret(SWISS_AS_TD2.map((text) => ({ text, confidence: 90 })), plausible)!;
    expect(read(v17).valid).toBe(true);
    expect(read(v18).valid).toBe(false);
    // The state codes of 2.1 still apply under 3.6, and so does a caller's (a template's) rule.
    expect(v18!(parse(withLine(TD3, 1, 10, 'Q')))).toBe(false);
    expect(scanPlausible({ ...DOCUMENT_SETTINGS_V18.scan!, plausible: () => false })!(parse(TD3))).toBe(false);
    // Settings that ask for neither rule keep the caller's own, unchanged.
    const outer = () => true;
    expect(scanPlausible({ plausible: outer })).toBe(outer);
  });

  const v18 = useDocumentEngine(DOCUMENT_SETTINGS_V18);
  it('reads a synthetic Mexican INE card (sex H, template and ICAO rules together) and a passport as 3.5 does', async () => {
    await expectSyntheticPasses(v18(), 'mex-ine', 'MEX', 'national_id', NOW);
    await expectSyntheticPasses(v18(), 'moz-passport', 'MOZ', 'passport', NOW);
  }, 240_000);
});
