import { readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { isHeldOut, runRealBench, smallPrint } from '../../../bench/documents-real.js';
import { expectSyntheticPasses, REAL_DOCUMENTS, realMrzTruth, useDocumentEngine } from '../../../test/real-documents.js';
import { DOCUMENT_SETTINGS_V11, DOCUMENT_SETTINGS_V12, MRZ_REC_1 } from '../index.js';

/**
 * Document engine 3.0 (`DOCUMENT_SETTINGS_V12`): the project's MRZ recogniser (`scan.mrzRec`) and
 * its veto on tesseract-only confirmations (`scan.mrzVeto`). Real model, real TUNING images of
 * ../shared/documents-real (held-out images stay out of every test), some scaled down to small
 * print as the tuning-side stress set of bench:documents' README section does.
 */
const NOW = new Date('2026-11-29T00:00:00Z');

/** A real tuning scan as small print: bench:documents' `--scale` (scaled, JPEG quality 60). */
async function small(file: string, scale: number): Promise<Buffer> {
  return (await smallPrint(readFileSync(path.join(REAL_DOCUMENTS, file)), scale))!;
}

const SWE = 'kundestyrt-gruppe-5-2022__passport-mrz-reader-public__data__images__PRADO_MRZ__28112.jpeg';
const FRA = 'kundestyrt-gruppe-5-2022__passport-mrz-reader-public__data__images__PRADO_MRZ__25899.jpeg';
const CZE = 'DoubangoTelecom__ultimateMRZ-SDK__assets__images__Czech_passport_2005_MRZ_orient1_1300x1002.jpg';

describe('document engine 3.0 on real images (tuning)', () => {
  const v11 = useDocumentEngine(DOCUMENT_SETTINGS_V11);
  const v12 = useDocumentEngine(DOCUMENT_SETTINGS_V12);

  it('the test images are tuning images', () => {
    for (const file of [SWE, FRA, CZE]) expect(isHeldOut({ file, mrz_lines: realMrzTruth(file) } as never)).toBe(false);
  });

  it('small print for the stress sets: scaled JPEG of a tuning image, null for bytes that are not an image, never of held-out or unseen images', async () => {
    const img = await small(SWE, 0.22);
    const full = await sharp(readFileSync(path.join(REAL_DOCUMENTS, SWE))).metadata();
    const meta = await sharp(img).metadata();
    expect(meta.format).toBe('jpeg');
    expect(meta.width).toBe(Math.round(full.width * 0.22));
    expect(await smallPrint(Buffer.from('not an image'), 0.5)).toBeNull();
    await expect(runRealBench(REAL_DOCUMENTS, v12(), undefined, true, false, 0.3)).rejects.toThrow(/tuning images only/);
    await expect(runRealBench(REAL_DOCUMENTS, v12(), undefined, false, false, 0.3)).rejects.toThrow(/tuning images only/);
  }, 60_000);

  it('a Swedish specimen at 0.22 scale: two tesseract reads agree on a misread that passes its check digits; the recogniser reads otherwise, so 3.0 does not confirm it', async () => {
    const truth = realMrzTruth(SWE);
    const img = await small(SWE, 0.22);
    const before = await v11().scanMrz(img);
    // 2.9: a silent misread (`990Q7Z99` for `99002299`, offsetting errors under one check digit).
    expect(before.valid).toBe(true);
    expect(before.parsed?.lines).not.toEqual(truth);
    const after = await v12().scanMrz(img);
    expect(after.valid).toBe(false);
    expect(after.reason).toBe('mrz_unreadable');
    expect(after.attempts?.some((a) => a.source === 'mrz')).toBe(true);
  }, 120_000);

  it('a French specimen at 0.2 scale: the recogniser reads it exactly where tesseract does not; alone it is not confirmed', async () => {
    const truth = realMrzTruth(FRA);
    const img = await small(FRA, 0.2);
    const before = await v11().scanMrz(img);
    expect(before.parsed?.lines).not.toEqual(truth);
    const after = await v12().scanMrz(img);
    // The recogniser's read is the best read, and it is exact (its O/0 settled by the check digits)...
    expect(after.parsed?.lines).toEqual(truth);
    expect(after.attempts?.find((a) => a.source === 'mrz')?.lines).toEqual(truth);
    // ...but no second family prints it, so it is not `valid`: a read of its own is never its own confirmation.
    expect(after.valid).toBe(false);
    expect(after.reason).toBe('mrz_unreadable');
  }, 120_000);

  it('a Czech specimen: the recogniser confirms tesseract\'s first read, one tesseract read fewer than 2.9', async () => {
    const truth = realMrzTruth(CZE);
    const img = readFileSync(path.join(REAL_DOCUMENTS, CZE));
    const before = await v11().scanMrz(img);
    const after = await v12().scanMrz(img);
    expect(before.valid && after.valid).toBe(true);
    expect(after.parsed?.lines).toEqual(truth);
    const tesseractReads = (s: typeof after) => (s.attempts ?? []).filter((a) => a.source.startsWith('tesseract')).length;
    expect(tesseractReads(after)).toBe(tesseractReads(before) - 1);
    expect(after.attempts?.some((a) => a.source === 'mrz' && JSON.stringify(a.lines) === JSON.stringify(truth))).toBe(true);
  }, 120_000);

  it('reads a synthetic passport as 2.9 does, and stamps the recogniser model', async () => {
    await expectSyntheticPasses(v12(), 'moz-passport', 'MOZ', 'passport', NOW);
    expect(v12().models.some((m) => m.sha256 === MRZ_REC_1.sha256)).toBe(true);
  }, 120_000);
});
