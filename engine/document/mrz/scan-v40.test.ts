import { describe, expect, it } from 'vitest';
import { expectSyntheticPasses, publicTuningTruth, scanTuningPair, useDocumentEngine } from '../../../test/real-documents.js';
import { DOCUMENT_SETTINGS_V39, DOCUMENT_SETTINGS_V40, MRZ_REC_3, MRZ_REC_4 } from '../index.js';
import { MrzLineRecognizer } from './mrzrec.js';
import { machineReference, realReport, stageReport, type RealRow } from '../../../bench/documents-real.js';
import { photograph, renderDocument } from '../../../tools/corpus/index.js';

/**
 * Document engine 3.28 (`DOCUMENT_SETTINGS_V40`): the MRZ recogniser mrz-rec-4, mrz-rec-3's recipe on the
 * tuning side of four data rounds (299 line crops of 34 documents; tools/mrz-rec/README.md "The grown
 * tuning side"). The public tuning image below is one whose lines mrz-rec-4 learned: this pins what the
 * engine does with it, it does not measure the reader (the held-out and unseen sets do,
 * engine/document/README.md "Document engine 3.28").
 */
const NOW = new Date('2026-12-02T00:00:00Z');

describe('document engine 3.28: the recogniser mrz-rec-4', () => {
  it('changes only the recogniser, whose file hashes to its pin', async () => {
    expect(DOCUMENT_SETTINGS_V39.scan?.mrzRec).toEqual(MRZ_REC_3);
    expect(DOCUMENT_SETTINGS_V40.scan?.mrzRec).toEqual(MRZ_REC_4);
    expect({ ...DOCUMENT_SETTINGS_V40, version: '', scan: { ...DOCUMENT_SETTINGS_V40.scan, mrzRec: MRZ_REC_3 } }).toEqual({ ...DOCUMENT_SETTINGS_V39, version: '' });
    await expect(MrzLineRecognizer.create(MRZ_REC_4)).resolves.toBeInstanceOf(MrzLineRecognizer);
    await expect(MrzLineRecognizer.create({ ...MRZ_REC_4, sha256: MRZ_REC_3.sha256 })).rejects.toThrow(/does not match/);
  });

  const v39 = useDocumentEngine(DOCUMENT_SETTINGS_V39);
  const v40 = useDocumentEngine(DOCUMENT_SETTINGS_V40);
  const FILE = 'MustafaMahgoub__MRZReader__MRZReader.Web__wwwroot__Documents__Src__14725d43-2dab-41b3-a349-3c3eb6d987a1_passport11.jpg';
  const truth = publicTuningTruth(FILE);
  it.skipIf(!truth)('a passport photo (public tuning): 3.27 reports it exactly for review, 3.28 valid and exact', async () => {
    const [before, after] = await scanTuningPair(FILE, truth!, v39, v40);
    expect(before.valid).toBe(false);
    expect(before.parsed?.lines).toEqual(truth!.mrz_lines);
    expect(after.valid).toBe(true);
    expect(after.parsed?.lines).toEqual(truth!.mrz_lines);
  }, 180_000);

  it('reads a synthetic passport as 3.27 does', async () => {
    await expectSyntheticPasses(v40(), 'moz-passport', 'MOZ', 'passport', NOW);
  }, 120_000);

  it('says where its time went: the stages it awaited, each at least 0, together no longer than the scan', async () => {
    const doc = await renderDocument({ template: 'moz-passport', seed: 101 });
    const front = (await photograph(doc.image, 1)).image;
    const t0 = performance.now();
    const scan = await v40().scanMrz(front);
    const wall = performance.now() - t0;
    expect(scan.parsed?.lines).toEqual(doc.truth.mrz.lines);
    const stages = scan.stageMs!;
    expect(Object.keys(stages).sort()).toEqual(['crop', 'glyph', 'lines', 'locate', 'mrz', 'rec', 'tesseract']);
    for (const ms of Object.values(stages)) expect(ms).toBeGreaterThanOrEqual(0);
    // Every scan searches, cuts and reads with tesseract at least once.
    for (const k of ['locate', 'crop', 'tesseract'] as const) expect(stages[k]).toBeGreaterThan(0);
    expect(Object.values(stages).reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(wall);
    // The bench's table of shares: one row per set and its slowest tenth, the shares summing to 100 %.
    const row: RealRow = { file: 'x', set: 'held-out', format: 'TD3', capture: 'photo', found: true, linesTotal: 2, linesExact: 2, docExact: true, valid: true, silent: false, reason: null, ms: wall, cpuMs: wall, attempts: scan.attempts.length, stages };
    const table = stageReport([row]).filter((l) => l.startsWith('| **held-out**'));
    expect(table).toHaveLength(2);
    const shares = table[0]!.split('|').slice(3, -1).map((c) => Number(c.replace('%', '').trim()));
    expect(shares).toHaveLength(8);
    expect(Math.abs(shares.reduce((a, b) => a + b, 0) - 100)).toBeLessThanOrEqual(4);
  }, 120_000);

  it('names its machine: the reference scan\'s CPU time, and latencies as multiples of it', async () => {
    const doc = await renderDocument({ template: 'moz-passport', seed: 101 });
    const ms = await machineReference(v40(), (await photograph(doc.image, 1)).image, 3);
    expect(ms).toBeGreaterThan(0);
    const row = (set: RealRow['set'], cpuMs: number): RealRow => ({ file: set, set, format: 'TD3', capture: 'scan', found: true, linesTotal: 2, linesExact: 2, docExact: true, valid: true, silent: false, reason: null, ms: cpuMs, cpuMs, attempts: 2 });
    const report = realReport([row('held-out', 500), row('public', 2000)], 'x', { ms: 1000, what: 'the reference' });
    expect(report).toContain('Machine reference: the reference takes 1000 ms of CPU');
    expect(report).toContain('held-out 0.50× / 0.50×, unseen 2.00× / 2.00×');
    expect(realReport([row('held-out', 500)], 'x')).not.toContain('Machine reference');
  }, 120_000);
});
