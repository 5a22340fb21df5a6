import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isHeldOut, smallPrint } from '../../../bench/documents-real.js';
import { expectSyntheticPasses, REAL_DOCUMENTS, realMrzTruth, useDocumentEngine } from '../../../test/real-documents.js';
import { DOCUMENT_SETTINGS_V12, DOCUMENT_SETTINGS_V13 } from '../index.js';

/**
 * Document engine 3.1 (`DOCUMENT_SETTINGS_V13`, `scan.reportBest`): what an unreadable scan reports
 * for review is its best-supported read. Real models, real TUNING images of ../shared/documents-real
 * scaled down to small print as bench:documents' `--scale` does (held-out images stay out of every test).
 */
const NOW = new Date('2026-11-29T00:00:00Z');

async function small(file: string, scale: number): Promise<Buffer> {
  return (await smallPrint(readFileSync(path.join(REAL_DOCUMENTS, file)), scale))!;
}

/** An Austrian ID card specimen whose printed MRZ fails one check digit (a misprint): never `valid`. */
const AUT = 'developer79433__passport_mrz_detector_cpp__test_data__mrz_example_04.jpg';
const CZE8 = 'DoubangoTelecom__ultimateMRZ-SDK__assets__images__Czech_passport_2005_MRZ_orient8_1300x1002.jpg';

describe('document engine 3.1 on real images (tuning)', () => {
  const v12 = useDocumentEngine(DOCUMENT_SETTINGS_V12);
  const v13 = useDocumentEngine(DOCUMENT_SETTINGS_V13);

  it('the test images are tuning images', () => {
    for (const file of [AUT, CZE8]) expect(isHeldOut({ file, mrz_lines: realMrzTruth(file) } as never)).toBe(false);
  });

  it('a card at 0.3 scale that no read passes: the recogniser\'s read, which passes more check digits than any tesseract read, is reported; still not valid', async () => {
    const truth = realMrzTruth(AUT);
    const img = await small(AUT, 0.3);
    const before = await v12().scanMrz(img);
    const after = await v13().scanMrz(img);
    expect(before.valid || after.valid).toBe(false);
    // 3.0 reported a tesseract read with the name misread (the recogniser's read was left out of the choice)...
    expect(before.parsed?.lines).not.toEqual(truth);
    // ...3.1 reports the recogniser's, which is the printed MRZ (its misprinted check digit included).
    expect(after.attempts?.find((a) => a.source === 'mrz')?.lines).toEqual(truth);
    expect(after.parsed?.lines).toEqual(truth);
    expect(after.reason).toBe('mrz_unreadable');
    // Reading is unchanged: the same reads in the same order.
    expect(after.attempts?.map((a) => [a.source, a.lines])).toEqual(before.attempts?.map((a) => [a.source, a.lines]));
  }, 120_000);

  it('a passport photo 301 px wide read two ways that both pass: unreadable either way, and 3.1 reports the version more reads print, not the first', async () => {
    const truth = realMrzTruth(CZE8);
    // The photo is 1300 px wide once turned upright (EXIF orientation 8).
    const img = await small(CZE8, 301 / 1300);
    const before = await v12().scanMrz(img);
    const after = await v13().scanMrz(img);
    expect(before.valid || after.valid).toBe(false);
    const passing = (s: typeof after) => (s.attempts ?? []).filter((a) => a.checks > 0 && a.checksOk === a.checks);
    const versions = new Set(passing(after).map((a) => JSON.stringify(a.lines)));
    expect(versions.size).toBeGreaterThan(1);
    // The first read (tesseract's) misreads the name; the recogniser and a second tesseract read print the truth.
    expect(before.parsed?.lines).not.toEqual(truth);
    expect(passing(after).filter((a) => JSON.stringify(a.lines) === JSON.stringify(truth)).length).toBeGreaterThan(passing(after).filter((a) => JSON.stringify(a.lines) === JSON.stringify(before.parsed?.lines)).length);
    expect(after.parsed?.lines).toEqual(truth);
    expect(after.reason).toBe('mrz_unreadable');
  }, 120_000);

  it('reads a synthetic passport as 3.0 does', async () => {
    await expectSyntheticPasses(v13(), 'moz-passport', 'MOZ', 'passport', NOW);
  }, 120_000);
});
