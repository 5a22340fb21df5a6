import { describe, expect, it } from 'vitest';
import { reasonReport, type RealRow } from '../../../bench/documents-real.js';
import { expectSyntheticPasses, publicTuningTruth, scanTuningPair, useDocumentEngine } from '../../../test/real-documents.js';
import { mrzLinesFor, photograph, randomIdentity, renderDocument, templateById } from '../../../tools/corpus/index.js';
import { DOCUMENT_SETTINGS_V40, DOCUMENT_SETTINGS_V41 } from '../index.js';
import { parseMrz } from './parse.js';

/**
 * Document engine 3.29 (`DOCUMENT_SETTINGS_V41`, `scan.misprintFamilies`): an MRZ read the same by two
 * reader families, sound in structure, whose check digits fail, is reported as failing them
 * (`mrz_check_digits_failed`), never as valid; before, unless exactly one check digit failed, it was
 * `mrz_unreadable` ("retake the photo") after the scan had read every other band to its budget.
 */
const NOW = new Date('2026-12-03T00:00:00Z');

/** A check digit changed to another digit: the line keeps its structure, the check fails. */
const bump = (line: string, i: number) => line.slice(0, i) + String((Number(line[i]) + 5) % 10) + line.slice(i + 1);

describe('document engine 3.29: check digits that fail as printed', () => {
  it('changes only misprintFamilies', () => {
    expect(DOCUMENT_SETTINGS_V40.scan?.misprintFamilies).toBeUndefined();
    expect(DOCUMENT_SETTINGS_V41.version).toBe('document-engine@3.29.0');
    expect({ ...DOCUMENT_SETTINGS_V41, version: '', scan: { ...DOCUMENT_SETTINGS_V41.scan, misprintFamilies: undefined } }).toEqual({ ...DOCUMENT_SETTINGS_V40, version: '', scan: { ...DOCUMENT_SETTINGS_V40.scan, misprintFamilies: undefined } });
  });

  const v40 = useDocumentEngine(DOCUMENT_SETTINGS_V40);
  const v41 = useDocumentEngine(DOCUMENT_SETTINGS_V41);

  it('a passport photo whose number, birth and expiry check digits were misprinted: 3.28 says unreadable, 3.29 says the check digits fail, on the exact lines, in fewer reads', async () => {
    const template = templateById('moz-passport')!;
    const lines = mrzLinesFor(template, randomIdentity(template, 101));
    const misprinted = [lines[0]!, bump(bump(bump(lines[1]!, 9), 19), 27)];
    const parsed = parseMrz(misprinted)!;
    expect(parsed.structureErrors).toEqual([]);
    expect(parsed.checks.filter((c) => c.ok).length).toBeLessThan(parsed.checks.length / 2);
    const doc = await renderDocument({ template: 'moz-passport', seed: 101, overrides: { mrzLines: misprinted } });
    const photo = (await photograph(doc.image, 1)).image;
    const [before, after] = [await v40().scanMrz(photo), await v41().scanMrz(photo)];
    expect(before).toMatchObject({ valid: false, reason: 'mrz_unreadable' });
    expect(after).toMatchObject({ valid: false, reason: 'mrz_check_digits_failed' });
    expect(after.parsed?.lines).toEqual(misprinted);
    expect(after.attempts.length).toBeLessThan(before.attempts.length);
    // The agreeing read is another family's, not a second tesseract preprocessing.
    const band = after.attempts.filter((a) => a.lines?.join('|') === misprinted.join('|'));
    expect(new Set(band.map((a) => a.source.split(':')[0]))).toContain('tesseract');
    expect(band.some((a) => a.source === 'mrz' || a.source === 'glyph')).toBe(true);
    // In a Case (a declared passport) the outcome is 3.28's: 3.28 reached it through the template band's own
    // agreeing read (2.1), 3.29's scan reaches it itself.
    const input = { front: photo, declared: { country: 'MOZ', type: 'passport' as const }, accepted: [{ country: 'MOZ', types: ['passport' as const] }], now: NOW };
    for (const res of [await v40().analyze(input), await v41().analyze(input)]) {
      expect(res.ocr.status).toBe('review');
      expect(res.ocr.reasons).toContain('mrz_check_digits_failed');
      expect(res.template.status).toBe('failed');
      expect(res.template.reasons).toContain('mrz_check_digit_mismatch');
      expect((res.ocr.evidence as { mrz: { lines: string[] } }).mrz.lines).toEqual(misprinted);
    }
  }, 180_000);

  const FILE = 'overfitted-io__demo-romanian-id-card-ocr__template.jpg';
  const truth = publicTuningTruth(FILE);
  it.skipIf(!truth)('a Romanian identity card template with dummy numbers (public tuning): unreadable under 3.28, failing its check digits under 3.29', async () => {
    expect(truth!.checks_valid).toBe(false);
    const [before, after] = await scanTuningPair(FILE, truth!, v40, v41);
    expect(before).toMatchObject({ valid: false, reason: 'mrz_unreadable' });
    expect(after).toMatchObject({ valid: false, reason: 'mrz_check_digits_failed' });
    expect(after.parsed?.lines).toEqual(truth!.mrz_lines);
  }, 180_000);

  it('reads a synthetic passport as 3.28 does', async () => {
    await expectSyntheticPasses(v41(), 'moz-passport', 'MOZ', 'passport', NOW);
  }, 120_000);

  it("the bench's reason table counts each set's unconfirmed documents by their truth's own check digits", () => {
    const row = (set: RealRow['set'], checksValid: boolean | undefined, valid: boolean, reason: string | null): RealRow => ({
      file: 'x', set, format: 'TD3', capture: 'scan', found: true, linesTotal: 2, linesExact: 2, docExact: true, valid, silent: false, reason, ms: 1, cpuMs: 1, attempts: 2, checksValid,
    });
    const table = reasonReport([
      row('public', false, false, 'mrz_check_digits_failed'), row('public', false, false, 'mrz_unreadable'),
      row('public', true, true, null), row('public', undefined, false, 'mrz_unreadable'), row('held-out', true, false, 'mrz_not_found'),
    ]);
    expect(table).toContain('| **public (unseen)** | fail | 2 | 0 | 1 | 1 | 0 | 0 |');
    expect(table).toContain('| **public (unseen)** | hold | 1 | 1 | 0 | 0 | 0 | 0 |');
    expect(table).toContain('| **public (unseen)** | not recorded | 1 | 0 | 0 | 1 | 0 | 0 |');
    expect(table).toContain('| **held-out** | hold | 1 | 0 | 0 | 0 | 1 | 0 |');
    expect(table.some((l) => l.startsWith('| tuning'))).toBe(false);
  });
});
