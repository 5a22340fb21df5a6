import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REAL_DOCUMENTS, realMrzTruth, useDocumentEngine } from '../../../test/real-documents.js';
import { DOCUMENT_SETTINGS_V22, DOCUMENT_SETTINGS_V23 } from '../index.js';

const readsOf = (r: { attempts: { source: string; band: number; flipped: boolean; lines: string[] | null }[] }) => r.attempts.map((a) => `${a.source}#${a.band}${a.flipped ? 'F' : ''} ${a.lines?.join('|')}`);

/**
 * Document engine 3.11 (`DOCUMENT_SETTINGS_V23`): of check-valid versions as many reads print, the one
 * reported for review is the one whose lines more reader families print (`scan.reportFamilies`).
 */
describe('document engine 3.11: the read reported for review is the one more reader families print', () => {
  const IR = 'regulaforensics__DocumentReader-web-python-client__example__IR.jpg';

  it('differs from 3.10 only in scan.reportFamilies', () => {
    expect({ ...DOCUMENT_SETTINGS_V23, version: '', scan: { ...DOCUMENT_SETTINGS_V23.scan, reportFamilies: undefined } }).toEqual({ ...DOCUMENT_SETTINGS_V22, version: '', scan: { ...DOCUMENT_SETTINGS_V22.scan } });
  });

  const v22 = useDocumentEngine(DOCUMENT_SETTINGS_V22);
  const v23 = useDocumentEngine(DOCUMENT_SETTINGS_V23);

  it('the infrared German specimen (real, tuning): two versions pass, one read each; 3.10 reports tesseract\'s, 3.11 the recogniser\'s, whose name line PP-OCRv4 prints too; neither is valid', async () => {
    const raw = readFileSync(path.join(REAL_DOCUMENTS, IR));
    const truth = realMrzTruth(IR);
    const [before, after] = [await v22().scanMrz(raw), await v23().scanMrz(raw)];
    expect(before.valid).toBe(false);
    expect(before.parsed?.lines).not.toEqual(truth);
    expect(after.valid).toBe(false);
    expect(after.reason).toBe('mrz_unreadable');
    expect(after.parsed?.lines).toEqual(truth);
    expect(readsOf(after)).toEqual(readsOf(before));
    const passing = after.attempts.filter((a) => a.checks > 0 && a.checksOk === a.checks).map((a) => a.source);
    expect(passing).toEqual(expect.arrayContaining(['tesseract:flat', 'mrz']));
    expect(after.attempts.find((a) => a.source === 'rec')?.lines?.[0]).toBe(truth[0]);
  }, 120_000);
});
