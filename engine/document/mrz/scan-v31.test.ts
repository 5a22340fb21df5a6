import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { keystonedPrint, lineHeightPrint } from '../../../bench/documents-real.js';
import { REAL_DOCUMENTS, realMrzTruth, useDocumentEngine } from '../../../test/real-documents.js';
import { DOCUMENT_SETTINGS_V29, DOCUMENT_SETTINGS_V30, DOCUMENT_SETTINGS_V31 } from '../index.js';
import { parseMrz } from './parse.js';
import { objectionOverruled, voteReads, type Interpreted } from './scan.js';

/**
 * A real UK specimen scan (tuning, `developer79433` `mrz_example_05`) made 8 px lines high and seen with
 * its top edge narrowed (`bench:documents --line-px 8 --keystone top:0.2`): three tesseract reads print
 * `AICHAEL` for `MICHAEL` in the name line, which no check digit covers; the MRZ recogniser prints it right.
 */
const TRUTH = ['P<GBRJENNINGS<<PAUL<MICHAEL<<<<<<<<<<<<<<<<<', '0123456784GBR5011025M0810050<<<<<<<<<<<<<<00'];
const MISREAD = [TRUTH[0]!.replace('MICHAEL', 'AICHAEL'), TRUTH[1]!];

const read = (lines: string[]): Interpreted => {
  const parsed = parseMrz(lines, { extended: true })!;
  return { format: parsed.format, lines, rawLines: lines, parsed, confidences: lines.map(() => 0.9), corrections: 0, valid: parsed.checkDigitsValid, checksOk: parsed.checks.filter((c) => c.ok).length };
};

/**
 * Document engine 3.19 (`DOCUMENT_SETTINGS_V31`): the MRZ recogniser's veto (3.0's `mrzVeto`, with
 * 3.10's excuse) holds against the per-character vote as it does against two agreeing tesseract reads
 * (`scan.voteVeto`).
 */
describe('document engine 3.19: the recogniser vetoes a vote as it vetoes a confirmation', () => {
  it('differs from 3.18 only in scan.voteVeto', () => {
    expect({ ...DOCUMENT_SETTINGS_V31, version: '', scan: { ...DOCUMENT_SETTINGS_V31.scan, voteVeto: undefined } })
      .toEqual({ ...DOCUMENT_SETTINGS_V30, version: '', scan: { ...DOCUMENT_SETTINGS_V30.scan, voteVeto: undefined } });
    expect(DOCUMENT_SETTINGS_V30.scan!.voteVeto).toBeFalsy();
    expect(DOCUMENT_SETTINGS_V31.scan!.voteVeto).toBe(true);
  });

  it('the vote itself lets a misread name through: the recogniser votes but never vetoes in it (3.0), and the misread passes every check digit', () => {
    const tesseract = [read(MISREAD), read(MISREAD), read(MISREAD)];
    const recogniser = read(TRUTH);
    expect(tesseract[0]!.valid && recogniser.valid).toBe(true);
    const vote = voteReads([...tesseract, recogniser], undefined, new Set([recogniser]));
    expect(vote?.lines).toEqual(MISREAD);
  });

  it('a third family overrules the objection only where it prints the vote with its own check holding there, or the whole uncovered line', () => {
    // A public tuning UK specimen at 6 px lines (Ayn-AI passport_good): tesseract's reads are right; the
    // recogniser misreads the number (`3334755T43`) with its check digit holding; the glyph reader
    // garbles the name and the nationality but prints the number right, its number check holding.
    const truth = ['P<GBRUK<SPECIMEN<<ANGELA<ZOE<<<<<<<<<<<<<<<<', '5334755143GBR8812049F2509286<<<<<<<<<<<<<<04'];
    const recogniser = read([truth[0]!, '3334755T43GBR8812049F2509286<<<<<<<<<<<<<<04']);
    expect(recogniser.valid).toBe(true);
    const glyph = ['P<QBRUK<SPFCIMIN<<ANGFLA<ZOE<<<<<<<<<<<<<<<<', '53347551434DA8812049T2509286<<<<<<<<<<<<<<04'];
    expect(objectionOverruled(recogniser, { format: 'TD3', lines: truth }, [glyph])).toBe(true);
    expect(objectionOverruled(recogniser, { format: 'TD3', lines: truth }, [])).toBe(false);
    // The same number with its check digit broken in the glyph read witnesses nothing.
    expect(objectionOverruled(recogniser, { format: 'TD3', lines: truth }, [[glyph[0]!, `533475514${'9'}${glyph[1]!.slice(10)}`]])).toBe(false);
    // The misread name: a third family must print the whole name line as the vote does.
    expect(objectionOverruled(read(TRUTH), { format: 'TD3', lines: MISREAD }, [['P<4AAJANAIM4S<<PAVL<MI<AAAL<<<<<<<<<<<<<<<<<', TRUTH[1]!]])).toBe(false);
    expect(objectionOverruled(read(TRUTH), { format: 'TD3', lines: MISREAD }, [MISREAD])).toBe(true);
  });

  const v30 = useDocumentEngine(DOCUMENT_SETTINGS_V30);
  const v31 = useDocumentEngine(DOCUMENT_SETTINGS_V31);
  const ref = useDocumentEngine(DOCUMENT_SETTINGS_V29);
  const SCAN = 'developer79433__passport_mrz_detector_cpp__test_data__mrz_example_05.jpg';
  it('the real scan at 8 px lines under top perspective (tuning): 3.18 reports the misread name valid, 3.19 leaves the band for review', async () => {
    expect(realMrzTruth(SCAN)).toEqual(TRUTH);
    const small = (await lineHeightPrint(readFileSync(path.join(REAL_DOCUMENTS, SCAN)), { px: 8, reference: ref() }))!;
    const slanted = (await keystonedPrint(small, 'top', 0.2))!;
    const [before, after] = [await v30().scanMrz(slanted), await v31().scanMrz(slanted)];
    expect(before.valid).toBe(true);
    expect(before.parsed?.lines).toEqual(MISREAD);
    expect(after.valid).toBe(false);
    expect(after.reason).toBe('mrz_unreadable');
  }, 120_000);

  it('the same scan as captured is still read valid and exact', async () => {
    const scan = await v31().scanMrz(readFileSync(path.join(REAL_DOCUMENTS, SCAN)));
    expect(scan.valid).toBe(true);
    expect(scan.parsed?.lines).toEqual(TRUTH);
  }, 120_000);
});
