import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tuningImages, turnedPrint } from '../../../bench/documents-real.js';
import { REAL_DOCUMENTS, realMrzTruth, mexPassportOnTable, useDocumentEngine } from '../../../test/real-documents.js';
import { DOCUMENT_SETTINGS_V34, DOCUMENT_SETTINGS_V35 } from '../index.js';
import type { MrzScan } from './scan.js';

const tesseractReads = (scan: MrzScan) => scan.attempts.filter((a) => a.source.startsWith('tesseract')).length;

/**
 * The bands that tesseract read although the MRZ recogniser had not read an MRZ in them, either way
 * up, before tesseract's first read of the band: what 3.23 (`scan.recGate`) no longer spends.
 */
function ungated(scan: MrzScan): number[] {
  const bands = [...new Set(scan.attempts.map((a) => a.band))];
  return bands.filter((b) => {
    const own = scan.attempts.filter((a) => a.band === b);
    const first = own.findIndex((a) => a.source.startsWith('tesseract'));
    return first >= 0 && !own.slice(0, first).some((a) => a.source === 'mrz' && a.lines);
  });
}

/**
 * Document engine 3.23 (`DOCUMENT_SETTINGS_V35`): tesseract reads a band only where the MRZ recogniser
 * reads an MRZ in it, upright or turned (`scan.recGate`).
 */
describe('document engine 3.23: tesseract reads only bands the MRZ recogniser reads an MRZ in', () => {
  it('differs from 3.22 only in scan.recGate', () => {
    const strip = (s: typeof DOCUMENT_SETTINGS_V35) => ({ ...s, version: '', scan: { ...s.scan, recGate: undefined } });
    expect(strip(DOCUMENT_SETTINGS_V35)).toEqual(strip(DOCUMENT_SETTINGS_V34));
    expect(DOCUMENT_SETTINGS_V34.scan!.recGate).toBeFalsy();
    expect(DOCUMENT_SETTINGS_V35.scan!.recGate).toBe(true);
  });

  const v34 = useDocumentEngine(DOCUMENT_SETTINGS_V34);
  const v35 = useDocumentEngine(DOCUMENT_SETTINGS_V35);

  it('a synthetic Mexican passport photographed on a table: 3.22 spends a tesseract read on the caption band above the MRZ; 3.23 does not, and reads the same MRZ valid', async () => {
    const { doc, img } = await mexPassportOnTable();
    const [before, after] = [await v34().scanMrz(img), await v35().scanMrz(img)];
    expect(before.valid).toBe(true);
    expect(ungated(before).length).toBeGreaterThan(0);
    expect(after.valid).toBe(true);
    expect(after.parsed?.lines).toEqual(doc.truth.mrz.lines);
    expect(ungated(after)).toEqual([]);
    expect(tesseractReads(after)).toBeLessThan(tesseractReads(before));
  }, 180_000);

  const SCAN = 'sivakumar-mahalingam__fastmrz__data__passport_uk.jpg';
  it('a real scan upside down (tuning): the recogniser reads the upside-down MRZ as MRZ-shaped lines, so the band is still read, and turned', async () => {
    const img = (await turnedPrint(readFileSync(path.join(REAL_DOCUMENTS, SCAN)), 180))!;
    const scan = await v35().scanMrz(img);
    expect(scan.valid).toBe(true);
    expect(scan.parsed?.lines).toEqual(realMrzTruth(SCAN));
    expect(scan.band?.flipped).toBe(true);
    expect(ungated(scan)).toEqual([]);
  }, 120_000);

  it('every real tuning image of ../shared/documents-real: the outcome and lines of 3.22, no ungated tesseract read, no more tesseract reads', async () => {
    const images = tuningImages().images.filter(({ dir }) => dir === REAL_DOCUMENTS);
    expect(images.length).toBeGreaterThan(10);
    for (const { t } of images) {
      const img = readFileSync(path.join(REAL_DOCUMENTS, t.file));
      const [before, after] = [await v34().scanMrz(img), await v35().scanMrz(img)];
      expect({ file: t.file, valid: after.valid, reason: after.reason, lines: after.parsed?.lines }).toEqual({ file: t.file, valid: before.valid, reason: before.reason, lines: before.parsed?.lines });
      expect(ungated(after)).toEqual([]);
      expect(tesseractReads(after)).toBeLessThanOrEqual(tesseractReads(before));
    }
  }, 600_000);
});
