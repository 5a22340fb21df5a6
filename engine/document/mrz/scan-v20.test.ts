import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectSyntheticPasses, REAL_DOCUMENTS, realMrzTruth, useDocumentEngine } from '../../../test/real-documents.js';
import { photograph, renderDocument } from '../../../tools/corpus/index.js';
import { DOCUMENT_SETTINGS_V19, DOCUMENT_SETTINGS_V20 } from '../index.js';

/**
 * Document engine 3.8 (`DOCUMENT_SETTINGS_V20`): the faint search also where every band found is a
 * single blob and nothing read valid (`scan.faintUnlessStack`). Real models; real TUNING images and
 * synthetic renders (held-out and unseen images stay out of every test).
 */
const NOW = new Date('2026-11-30T00:00:00Z');
const UK = 'sivakumar-mahalingam__fastmrz__data__passport_uk.jpg';
const readsOf = (r: { attempts: { source: string; band: number; flipped: boolean; lines: string[] | null }[] }) => r.attempts.map((a) => `${a.source}#${a.band}${a.flipped ? 'F' : ''} ${a.lines?.join('|')}`);

describe('document engine 3.8: the faint search where no two lines stack', () => {
  it('differs from 3.7 only in scan.faintUnlessStack', () => {
    expect({ ...DOCUMENT_SETTINGS_V20, version: '', scan: { ...DOCUMENT_SETTINGS_V20.scan, faintUnlessStack: undefined } }).toEqual({ ...DOCUMENT_SETTINGS_V19, version: '', scan: { ...DOCUMENT_SETTINGS_V19.scan, faintUnlessStack: undefined } });
    expect(DOCUMENT_SETTINGS_V20.scan).toMatchObject({ faintUnlessStack: true, faintSearch: 0.5 });
  });

  const v19 = useDocumentEngine(DOCUMENT_SETTINGS_V19);
  const v20 = useDocumentEngine(DOCUMENT_SETTINGS_V20);

  it('a clean synthetic passport photographed whole: 3.7 finds only one-line captions and stops; 3.8 searches faint print and reads the MRZ exactly', async () => {
    const doc = await renderDocument({ template: 'moz-passport', seed: 0 });
    const frame = (await photograph(doc.image, 0)).image;
    const before = await v19().scanMrz(frame);
    expect(before.valid).toBe(false);
    const after = await v20().scanMrz(frame);
    expect(after.valid).toBe(true);
    expect(after.parsed?.lines).toEqual(doc.truth.mrz.lines);
    // the bands 3.7 read come first, read as before; the faint band after them
    expect(readsOf(after).slice(0, before.attempts.length)).toEqual(readsOf(before));
    expect(after.bandsFound).toBeGreaterThan(before.bandsFound);
  }, 180_000);

  it('a real photo whose bands stack reads as under 3.7, read for read', async () => {
    const raw = readFileSync(path.join(REAL_DOCUMENTS, UK));
    const [before, after] = [await v19().scanMrz(raw), await v20().scanMrz(raw)];
    expect(after.parsed?.lines).toEqual(realMrzTruth(UK));
    expect(readsOf(after)).toEqual(readsOf(before));
  }, 120_000);

  it('reads a synthetic passport through the Case pipeline as 3.7 does', async () => {
    await expectSyntheticPasses(v20(), 'moz-passport', 'MOZ', 'passport', NOW);
  }, 120_000);
});
