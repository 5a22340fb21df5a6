import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isHeldOut, smallPrint } from '../../../bench/documents-real.js';
import { expectSyntheticPasses, PUBLIC_TUNING, publicTuningTruth, REAL_DOCUMENTS, realMrzTruth, useDocumentEngine } from '../../../test/real-documents.js';
import { DOCUMENT_SETTINGS_V15, DOCUMENT_SETTINGS_V16, DOCUMENT_SETTINGS_V17 } from '../index.js';
import { parseMrz } from './parse.js';
import { completeComposite, interpret, sharedGuess, voteReads } from './scan.js';

/**
 * Document engines 3.4 and 3.5. 3.4 (`DOCUMENT_SETTINGS_V16`): 3.3 with the recogniser's filler at a composite
 * check digit taken as an unread digit and completed from the data (`scan.mrzCompositeErasure`). Real models on real TUNING images (held-out and unseen images
 * stay out of every test), scaled down to small print as bench:documents' `--scale` does.
 */
const NOW = new Date('2026-11-29T00:00:00Z');

// ICAO 9303 Part 4 Appendix A (TD3) and Part 5 Appendix A (TD1) specimens, as in parse.test.ts.
const TD3 = ['P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<', 'L898902C36UTO7408122F1204159ZE184226B<<<<<10'];
const TD1 = ['I<UTOD231458907<<<<<<<<<<<<<<<', '7408122F1204159UTO<<<<<<<<<<<6', 'ERIKSSON<<ANNA<MARIA<<<<<<<<<<'];
// Part 7 Appendix A (MRV-A): no composite and no personal-number check.
const MRVA = ['V<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<', 'L8988901C4XXX4009078F96121096ZE184226B<<<<<<'];

describe('completeComposite: a filler at the composite check digit is an unread digit', () => {
  it('TD3 and TD1: the one digit under which the composite holds', () => {
    expect(completeComposite([TD3[0]!, `${TD3[1]!.slice(0, 43)}<`], 'TD3')).toEqual(TD3);
    expect(completeComposite([TD1[0]!, `${TD1[1]!.slice(0, 29)}<`, TD1[2]!], 'TD1')).toEqual(TD1);
    const td2 = ['I<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<', 'D231458907UTO7408122F1204159<<<<<<<6'];
    expect(parseMrz(td2, { extended: true })!.checkDigitsValid).toBe(true);
    expect(completeComposite([td2[0]!, `${td2[1]!.slice(0, 35)}<`], 'TD2')).toEqual(td2);
  });

  it('changes nothing else: a digit already there (right or wrong), a visa (no composite), lines of other widths', () => {
    const wrong = [TD3[0]!, `${TD3[1]!.slice(0, 43)}3`];
    expect(completeComposite(wrong, 'TD3')).toBe(wrong);
    expect(completeComposite(TD3, 'TD3')).toBe(TD3);
    const visa = [MRVA[0]!, `${MRVA[1]!.slice(0, 43)}<`];
    expect(completeComposite(visa, 'TD3')).toBe(visa);
    const short = [TD3[0]!, TD3[1]!.slice(0, 42)];
    expect(completeComposite(short, 'TD3')).toBe(short);
  });
});

/** A Swedish passport specimen scan (tuning). */
const SWE = 'kundestyrt-gruppe-5-2022__passport-mrz-reader-public__data__images__PRADO_MRZ__28112.jpeg';
/** A Saudi ID card photo of the public tuning set (absent in CI, which does not fetch it). */
const SAU = 'saiful9379__MRZ_DETECTION__data__I1-_INVALID.png';
const sauTruth = publicTuningTruth(SAU);

describe('document engine 3.4 on real images (tuning)', () => {
  const v15 = useDocumentEngine(DOCUMENT_SETTINGS_V15);
  const v16 = useDocumentEngine(DOCUMENT_SETTINGS_V16);

  it('3.4 differs from 3.3 only in the composite erasure, and the Swedish image is a tuning image', () => {
    expect({ ...DOCUMENT_SETTINGS_V16, version: '', scan: { ...DOCUMENT_SETTINGS_V16.scan, mrzCompositeErasure: undefined } }).toEqual({ ...DOCUMENT_SETTINGS_V15, version: '', scan: { ...DOCUMENT_SETTINGS_V15.scan, mrzCompositeErasure: undefined } });
    expect(DOCUMENT_SETTINGS_V16.scan?.mrzCompositeErasure).toBe(true);
    expect(isHeldOut({ file: SWE, mrz_lines: realMrzTruth(SWE) } as never)).toBe(false);
  });

  it('the Swedish scan at 0.22: two tesseract reads agree on a misread whose errors offset under the number check; the recogniser still vetoes it', async () => {
    const truth = realMrzTruth(SWE);
    const img = (await smallPrint(readFileSync(path.join(REAL_DOCUMENTS, SWE)), 0.22))!;
    const r = await v16().scanMrz(img);
    expect(r.valid).toBe(false);
    expect(r.reason).toBe('mrz_unreadable');
    // Not a silent misread: whatever is reported is for review.
    if (r.parsed) expect(r.valid && r.parsed.lines.join() !== truth.join()).toBe(false);
  }, 120_000);

  it.skipIf(!sauTruth)('an ID card at 0.3 (public tuning): mrz-rec-3 drops the composite digit after the filler run; 3.4 completes it, and PP-OCRv4 printing the same lines confirms it', async () => {
    const img = (await smallPrint(readFileSync(path.join(PUBLIC_TUNING, SAU)), 0.3))!;
    const before = await v15().scanMrz(img);
    const after = await v16().scanMrz(img);
    expect(before.attempts?.find((a) => a.source === 'mrz')?.lines?.[1]?.at(-1)).toBe('<');
    expect(before.valid).toBe(false);
    expect(after.attempts?.find((a) => a.source === 'mrz')?.lines).toEqual(sauTruth!.mrz_lines);
    expect(after.attempts?.find((a) => a.source === 'rec')?.lines).toEqual(sauTruth!.mrz_lines);
    expect(after.valid).toBe(true);
    expect(after.parsed?.lines).toEqual(sauTruth!.mrz_lines);
  }, 120_000);

  it('reads a synthetic passport as 3.1 does', async () => {
    await expectSyntheticPasses(v16(), 'moz-passport', 'MOZ', 'passport', NOW);
  }, 120_000);
});

/**
 * Document engine 3.5 (`DOCUMENT_SETTINGS_V17`): a character a check-digit-guided swap chose is a
 * guess. The UK specimen's data line (a tuning image's MRZ) with one misread: `7` read as `T`.
 */
const UK = ['P<GBRPUDARSAN<<HENERT<<<<<<<<<<<<<<<<<<<<<<<', '7077979792GBR9505209M1704224<<<<<<<<<<<<<<00'];
const misread = (i: number, c: string) => interpret([{ text: UK[0]!, confidence: 90 }, { text: UK[1]!.slice(0, i) + c + UK[1]!.slice(i + 1), confidence: 90 }])!;

describe('check-digit swaps are guesses (3.5)', () => {
  it('interpret records where the swap chose: right for a confusable misread, wrong when the misread is elsewhere', () => {
    // `O` for the `0` at column 1: the one swap that satisfies the check digits is the right one.
    const right = misread(1, 'O');
    expect(right.lines).toEqual(UK);
    expect(right.guessed).toEqual(['1:1']);
    // `T` for the `7` at column 3: the one swap that satisfies them is the 7 at column 7, turned into
    // another `T`: the two errors cancel under the number's check digit and the composite.
    const wrong = misread(3, 'T');
    expect(wrong.valid).toBe(true);
    expect(wrong.lines[1]!.slice(0, 10)).toBe('707T979T92');
    expect(wrong.guessed).toEqual(['1:7']);
    // A read with no misread has nothing guessed.
    expect(interpret(UK.map((text) => ({ text, confidence: 90 })))!.guessed).toEqual([]);
  });

  it('two reads confirm each other only if one of them printed each chosen character as it stands', () => {
    const a = misread(3, 'T');
    const b = misread(3, 'T');
    expect(sharedGuess(a, b)).toBe(true);
    // A read that printed `707T979T92` itself chose nothing: with it, the version is confirmed as read.
    const printed = interpret([{ text: UK[0]!, confidence: 90 }, { text: a.lines[1]!, confidence: 90 }])!;
    expect(printed.guessed).toEqual([]);
    expect(sharedGuess(a, printed)).toBe(false);
    expect(sharedGuess(printed, a)).toBe(false);
  });

  it('in the per-character vote a chosen character has no vote', () => {
    const reads = [misread(3, 'T'), misread(3, 'T')];
    // Before 3.5 the two identical swaps out-vote nothing and make the wrong read the vote's.
    expect(voteReads(reads)?.lines[1]?.slice(0, 10)).toBe('707T979T92');
    expect(voteReads(reads, undefined, undefined, true)).toBeNull();
  });
});

describe('document engine 3.5 on a real image (tuning): the swap guard stops the Swedish silent misread by itself', () => {
  // Both versions with 3.0's recogniser veto switched off, so that only the swap guard is compared.
  const noVeto = (v: typeof DOCUMENT_SETTINGS_V16) => ({ ...v, scan: { ...v.scan!, mrzVeto: undefined } });
  const v16 = useDocumentEngine(noVeto(DOCUMENT_SETTINGS_V16));
  const v17 = useDocumentEngine(noVeto(DOCUMENT_SETTINGS_V17));

  it('3.5 differs from 3.4 only in swapAsRead', () => {
    expect({ ...DOCUMENT_SETTINGS_V17, version: '', scan: { ...DOCUMENT_SETTINGS_V17.scan, swapAsRead: undefined } }).toEqual({ ...DOCUMENT_SETTINGS_V16, version: '' });
  });

  it('the Swedish scan at 0.22: two tesseract reads make the same check-digit swap (0 -> Q) that cancels a misread; 3.4 without the veto confirms it, 3.5 without the veto does not', async () => {
    const truth = realMrzTruth(SWE);
    const img = (await smallPrint(readFileSync(path.join(REAL_DOCUMENTS, SWE)), 0.22))!;
    const before = await v16().scanMrz(img);
    expect(before.valid).toBe(true);
    expect(before.parsed?.lines).not.toEqual(truth);
    expect(before.parsed?.lines[1]?.slice(0, 8)).toBe('990Q7Z99');
    const after = await v17().scanMrz(img);
    expect(after.valid).toBe(false);
    expect(after.reason).toBe('mrz_unreadable');
  }, 120_000);
});
