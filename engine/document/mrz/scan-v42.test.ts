import { readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { expectSyntheticPasses, publicTuningTruth, scanTuningPair, REAL_DOCUMENTS, useDocumentEngine } from '../../../test/real-documents.js';
import { DOCUMENT_SETTINGS_V41, DOCUMENT_SETTINGS_V42 } from '../index.js';
import { classicalLines, withoutSmallComponents, withoutSpecks, type Gray } from './locate.js';

/**
 * Document engine 3.30 (`DOCUMENT_SETTINGS_V42`, `scan.thinSearch`): once the best band has not read,
 * one more band search whose text mask drops small components instead of everything a 2×2 opening
 * erases, so that print whose strokes are one pixel wide at the working size forms lines.
 */
const NOW = new Date('2026-12-03T00:00:00Z');

/** A white page with two MRZ-like lines of 36 box-shaped characters drawn with one-pixel strokes, and a few specks. */
function thinPrint(w = 420, h = 120): Gray {
  const data = new Uint8Array(w * h).fill(235);
  const ink = (x: number, y: number) => { data[y * w + x] = 30; };
  for (const top of [40, 62]) {
    for (let c = 0; c < 36; c++) {
      const x0 = 20 + c * 10;
      for (let y = top; y < top + 11; y++) { ink(x0, y); ink(x0 + 6, y); }
      for (let x = x0; x <= x0 + 6; x++) { ink(x, top); ink(x, top + 10); }
    }
  }
  for (const [x, y] of [[5, 5], [400, 100], [200, 15], [300, 110]] as const) ink(x, y);
  return { data, width: w, height: h };
}

describe('document engine 3.30: a band search that keeps one-pixel strokes', () => {
  it('changes only scan.thinSearch', () => {
    expect(DOCUMENT_SETTINGS_V41.scan?.thinSearch).toBeUndefined();
    expect(DOCUMENT_SETTINGS_V42.version).toBe('document-engine@3.30.0');
    expect({ ...DOCUMENT_SETTINGS_V42, version: '', scan: { ...DOCUMENT_SETTINGS_V42.scan, thinSearch: undefined } }).toEqual({ ...DOCUMENT_SETTINGS_V41, version: '', scan: { ...DOCUMENT_SETTINGS_V41.scan, thinSearch: undefined } });
  });

  it('the opening erases one-pixel print, the small-component filter keeps it and drops the specks', async () => {
    const g = thinPrint();
    const mask = new Uint8Array(g.width * g.height);
    for (let i = 0; i < mask.length; i++) mask[i] = g.data[i]! < 128 ? 1 : 0;
    const count = (m: Uint8Array) => m.reduce((n, v) => n + v, 0);
    expect(count(withoutSpecks(mask, g.width, g.height))).toBe(0);
    const kept = withoutSmallComponents(mask, g.width, g.height);
    expect(count(kept)).toBe(count(mask) - 4);
    // Lines form from the same page only with the strokes kept.
    const lines = (thin: boolean) => classicalLines(g, false, false, 1, false, undefined, thin).then((r) => r.blobs.flat().filter((b) => b.x1 - b.x0 > 300));
    expect(await lines(false)).toEqual([]);
    expect((await lines(true)).length).toBeGreaterThanOrEqual(2);
  });

  const v41 = useDocumentEngine(DOCUMENT_SETTINGS_V41);
  const v42 = useDocumentEngine(DOCUMENT_SETTINGS_V42);

  it('an image whose only print is one pixel thin at the working size: no band under 3.29, the band found and read under 3.30', async () => {
    // 1 000 px wide: the scan's working copy is the image itself, strokes stay one pixel wide.
    const g = thinPrint(1000, 300);
    const png = await sharp(Buffer.from(g.data), { raw: { width: g.width, height: g.height, channels: 1 } }).png().toBuffer();
    const [before, after] = [await v41().scanMrz(png), await v42().scanMrz(png)];
    expect(before).toMatchObject({ reason: 'mrz_not_found', bandsFound: 0 });
    // Boxes are not MRZ characters: found, not read.
    expect(after).toMatchObject({ valid: false, reason: 'mrz_unreadable', bandsFound: 1 });
    expect(after.band).toMatchObject({ lines: 2 });
  }, 120_000);


  const FILE = 'doo__scanbot-sdk-example-linux__test-scripts__test-images__MRZ_passport.jpeg';
  const truth = publicTuningTruth(FILE);
  it.skipIf(!truth)('a US passport mock held in a hand, its MRZ in a light letter-spaced typeface (public tuning): not found by 3.29, valid and exact under 3.30', async () => {
    const [before, after] = await scanTuningPair(FILE, truth!, v41, v42);
    expect(before.valid).toBe(false);
    expect(before.parsed?.lines).not.toEqual(truth!.mrz_lines);
    expect(after.valid).toBe(true);
    expect(after.parsed?.lines).toEqual(truth!.mrz_lines);
    // The first band's reads are 3.29's: the search comes after it failed.
    const first = (s: typeof before) => s.attempts.filter((a) => a.band === 0).map((a) => [a.source, a.lines]);
    expect(first(after)).toEqual(first(before));
  }, 180_000);

  it('a real scan whose first band reads is read as 3.29 reads it: no extra search, the same reads', async () => {
    const bytes = readFileSync(path.join(REAL_DOCUMENTS, 'sivakumar-mahalingam__fastmrz__data__passport_uk.jpg'));
    const [before, after] = [await v41().scanMrz(bytes), await v42().scanMrz(bytes)];
    expect(after.valid).toBe(true);
    expect(after.attempts.map((a) => [a.band, a.source, a.lines])).toEqual(before.attempts.map((a) => [a.band, a.source, a.lines]));
    expect(after.bandsFound).toBe(before.bandsFound);
  }, 120_000);

  it('reads a synthetic passport as 3.29 does', async () => {
    await expectSyntheticPasses(v42(), 'moz-passport', 'MOZ', 'passport', NOW);
  }, 120_000);
});
