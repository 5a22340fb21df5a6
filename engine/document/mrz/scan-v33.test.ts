import { readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { REAL_DOCUMENTS, useDocumentEngine } from '../../../test/real-documents.js';
import { availablePortraits, photograph, renderDocument } from '../../../tools/corpus/index.js';
import { DOCUMENT_SETTINGS_V32, DOCUMENT_SETTINGS_V33 } from '../index.js';
import { locateMrzBands } from './locate.js';

/** A synthetic Mozambican passport's data page photographed whole on a table (the corpus renderer), and its MRZ. */
async function passportOnTable(seed: number): Promise<{ image: Buffer; lines: string[] }> {
  const doc = await renderDocument({ template: 'moz-passport', seed, portrait: availablePortraits()[0] });
  return { image: await sharp((await photograph(doc.image, seed)).image).jpeg({ quality: 92 }).toBuffer(), lines: doc.truth.mrz.lines };
}

/**
 * Document engine 3.21 (`DOCUMENT_SETTINGS_V33`): once the best band has not read, or the first search
 * found none, the band search runs once more on a working image 1.4 times the size (`scan.fineSearch`),
 * in frames larger than that size only.
 */
describe('document engine 3.21: a second band search on a larger working image', () => {
  it('differs from 3.20 only in scan.fineSearch', () => {
    const strip = (s: typeof DOCUMENT_SETTINGS_V33) => ({ ...s, version: '', scan: { ...s.scan, fineSearch: undefined } });
    expect(strip(DOCUMENT_SETTINGS_V33)).toEqual(strip(DOCUMENT_SETTINGS_V32));
    expect(DOCUMENT_SETTINGS_V32.scan!.fineSearch).toBeUndefined();
    expect(DOCUMENT_SETTINGS_V33.scan!.fineSearch).toBe(1.4);
  });

  it('the cause: at the working size (1000 px) no band lies on the MRZ of a page photographed whole; at 1.4 times it is the best band', async () => {
    const { image } = await passportOnTable(1);
    const { data, info } = await sharp(image).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    const img = { data, width: info.width, height: info.height, channels: 3 as const };
    const s = DOCUMENT_SETTINGS_V32.scan!;
    const opts = { workSide: s.workSide, maxBands: s.maxBands, tilt: s.tilt, adaptiveJoin: s.adaptiveJoin, stripLines: !!s.overlayLines, extendFirst: s.extendFirst, splitMerged: s.splitMerged, bestJoin: s.bestJoin };
    // The MRZ: the page's last two lines, in the lower fifth of the frame.
    const onMrz = (b: { top: number; height: number; lines: number }) => b.lines >= 2 && b.top > 0.7 * info.height && b.top + b.height < 0.9 * info.height;
    expect((await locateMrzBands(img, opts)).some(onMrz)).toBe(false);
    const fine = await locateMrzBands(img, { ...opts, workSide: Math.round(s.workSide * 1.4) });
    expect(onMrz(fine[0]!)).toBe(true);
  }, 60_000);

  const v32 = useDocumentEngine(DOCUMENT_SETTINGS_V32);
  const v33 = useDocumentEngine(DOCUMENT_SETTINGS_V33);
  it('the same page: 3.20 reads no MRZ; 3.21 reads it valid and exact', async () => {
    const { image, lines } = await passportOnTable(1);
    const [before, after] = [await v32().scanMrz(image), await v33().scanMrz(image)];
    expect(before.valid).toBe(false);
    expect(after.valid).toBe(true);
    expect(after.parsed?.lines).toEqual(lines);
  }, 180_000);

  it('a frame no larger than the finer copy gets no second search: a real card scan (tuning, 568 × 818 px) whose band does not read scans exactly as under 3.20', async () => {
    const img = readFileSync(path.join(REAL_DOCUMENTS, 'developer79433__passport_mrz_detector_cpp__test_data__mrz_example_04.jpg'));
    const [before, after] = [await v32().scanMrz(img), await v33().scanMrz(img)];
    expect(before.valid).toBe(false);
    const sig = (s: typeof before) => ({ valid: s.valid, reason: s.reason, lines: s.parsed?.lines, bands: s.bandsFound, reads: s.attempts.map((a) => `${a.band}${a.flipped ? 'F' : ''}:${a.source}:${a.lines?.join('|') ?? ''}`) });
    expect(sig(after)).toEqual(sig(before));
  }, 120_000);
});
