import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REAL_DOCUMENTS, expectSyntheticPasses, realMrzTruth, mexPassportOnTable, useDocumentEngine } from '../../../test/real-documents.js';
import { DOCUMENT_SETTINGS_V42, DOCUMENT_SETTINGS_V43 } from '../index.js';
import type { MrzScan } from './scan.js';

/**
 * Document engine 3.31 (`DOCUMENT_SETTINGS_V43`, `scan.recFirst`): the MRZ recogniser reads a band
 * before tesseract; its valid read, printed alike by the glyph reader, settles the band without a
 * tesseract read; bands after the best one that it reads nothing in are read after the others.
 */
const NOW = new Date('2026-12-03T00:00:00Z');
const tesseractReads = (scan: MrzScan) => scan.attempts.filter((a) => a.source.startsWith('tesseract')).length;
/** Bands tesseract read before the MRZ recogniser had read them upright. */
const readBlind = (scan: MrzScan) => [...new Set(scan.attempts.map((a) => a.band))].filter((b) => {
  const own = scan.attempts.filter((a) => a.band === b);
  const first = own.findIndex((a) => a.source.startsWith('tesseract'));
  return first >= 0 && !own.slice(0, first).some((a) => a.source === 'mrz' && !a.flipped);
});
const outcome = (s: MrzScan) => ({ valid: s.valid, reason: s.reason, lines: s.parsed?.lines });

describe('document engine 3.31: the cheap reader families first', () => {
  it('changes only scan.recFirst', () => {
    expect(DOCUMENT_SETTINGS_V42.scan?.recFirst).toBeUndefined();
    expect(DOCUMENT_SETTINGS_V43.version).toBe('document-engine@3.31.0');
    expect({ ...DOCUMENT_SETTINGS_V43, version: '', scan: { ...DOCUMENT_SETTINGS_V43.scan, recFirst: undefined } }).toEqual({ ...DOCUMENT_SETTINGS_V42, version: '', scan: { ...DOCUMENT_SETTINGS_V42.scan } });
  });

  const v42 = useDocumentEngine(DOCUMENT_SETTINGS_V42);
  const v43 = useDocumentEngine(DOCUMENT_SETTINGS_V43);

  it('a real passport scan (tuning): the recogniser and the glyph reader print the same valid MRZ, and no tesseract read is made', async () => {
    const FILE = 'sivakumar-mahalingam__fastmrz__data__passport_uk.jpg';
    const bytes = readFileSync(path.join(REAL_DOCUMENTS, FILE));
    const [before, after] = [await v42().scanMrz(bytes), await v43().scanMrz(bytes)];
    expect(outcome(after)).toEqual(outcome(before));
    expect(after).toMatchObject({ valid: true, parsed: { lines: realMrzTruth(FILE) } });
    expect(tesseractReads(before)).toBeGreaterThan(0);
    expect(tesseractReads(after)).toBe(0);
    expect(after.attempts.map((a) => a.source)).toEqual(['mrz', 'glyph']);
  }, 120_000);

  it('a real ID card photo (tuning) whose band tesseract grows by a missed third line: the grown band gets a recogniser read of its own, and the outcome is 3.30\'s', async () => {
    const FILE = 'developer79433__passport_mrz_detector_cpp__examples__passport_04.jpg';
    const bytes = readFileSync(path.join(REAL_DOCUMENTS, FILE));
    const [before, after] = [await v42().scanMrz(bytes), await v43().scanMrz(bytes)];
    expect(outcome(after)).toEqual(outcome(before));
    expect(after.parsed?.lines).toEqual(realMrzTruth(FILE));
    // Read before the growth (two lines) and after it (three): keyed by the crop, not the band's index.
    const recReads = after.attempts.filter((a) => a.band === 0 && !a.flipped && a.source === 'mrz');
    expect(recReads).toHaveLength(2);
    expect(after.attempts.findIndex((a) => a.source.startsWith('tesseract'))).toBeGreaterThan(after.attempts.indexOf(recReads[0]!));
    expect(after.attempts.indexOf(recReads[1]!)).toBeGreaterThan(after.attempts.findIndex((a) => a.source.startsWith('tesseract')));
  }, 120_000);

  it('a synthetic Mexican passport photographed on a table: the caption band above the MRZ is read last, so it is not read at all; the same MRZ valid with fewer tesseract reads', async () => {
    const { doc, img } = await mexPassportOnTable();
    const [before, after] = [await v42().scanMrz(img), await v43().scanMrz(img)];
    expect(before.valid).toBe(true);
    expect(readBlind(before).length).toBeGreaterThan(0);
    expect(outcome(after)).toEqual(outcome(before));
    expect(after.parsed?.lines).toEqual(doc.truth.mrz.lines);
    expect(readBlind(after)).toEqual([]);
    expect(tesseractReads(after)).toBeLessThan(tesseractReads(before));
  }, 180_000);

  it('reads a synthetic passport as 3.30 does', async () => {
    await expectSyntheticPasses(v43(), 'moz-passport', 'MOZ', 'passport', NOW);
  }, 120_000);
});
