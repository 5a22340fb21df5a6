import { readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { isHeldOut, runRealBench, turnedPrint } from '../../../bench/documents-real.js';
import { expectSyntheticPasses, PUBLIC_TUNING, publicTuningTruth, REAL_DOCUMENTS, realMrzTruth, useDocumentEngine } from '../../../test/real-documents.js';
import { DOCUMENT_SETTINGS_V18, DOCUMENT_SETTINGS_V19 } from '../index.js';
import { normalizeImage } from '../image/normalize.js';
import { locateMrzBands } from './locate.js';
import { bandCropper } from './scan.js';

/**
 * Document engine 3.7 (`DOCUMENT_SETTINGS_V19`): when the best band does not read, one more band search
 * across the dominant text (`scan.acrossText`). Real models on real TUNING images turned as `bench:documents --rotate` turns
 * them (held-out and unseen images stay out of every test).
 */
const NOW = new Date('2026-11-29T00:00:00Z');
/** The UK passport specimen photo (real tuning set): its upper page's print runs across its MRZ. */
const UK = 'sivakumar-mahalingam__fastmrz__data__passport_uk.jpg';
/** A German ID card (public tuning set, absent in CI): its best band along the text is not its MRZ. */
const DEU = 'saiful9379__MRZ_DETECTION__data__I1-_INVALID.png';
const deuTruth = publicTuningTruth(DEU);

const locate = async (bytes: Buffer, angles?: number[]) => {
  const s = DOCUMENT_SETTINGS_V19.scan!;
  const img = await normalizeImage(bytes, { ...DOCUMENT_SETTINGS_V19, acceptBmp: s.acceptBmp });
  const report: { across?: number } = {};
  const bands = await locateMrzBands(img, { workSide: s.workSide, maxBands: s.maxBands, tilt: s.tilt, adaptiveJoin: s.adaptiveJoin, stripLines: !!s.overlayLines, extendFirst: s.extendFirst, angles, report });
  return { bands, across: report.across };
};
const readsOf = (r: { attempts: { source: string; band: number; flipped: boolean; lines: string[] | null }[] }) => r.attempts.map((a) => `${a.source}#${a.band}${a.flipped ? 'F' : ''} ${a.lines?.join('|')}`);

describe('turned tuning images (bench:documents --rotate)', () => {
  it('a quarter turn swaps the sides; a skew makes a larger canvas; held-out and unseen images are never turned', async () => {
    expect(isHeldOut({ file: UK, mrz_lines: realMrzTruth(UK) } as never)).toBe(false);
    const raw = readFileSync(path.join(REAL_DOCUMENTS, UK));
    const up = await sharp(raw).rotate().metadata();
    const q = await sharp((await turnedPrint(raw, 90))!).metadata();
    expect([q.width, q.height]).toEqual([up.autoOrient?.height ?? up.height, up.autoOrient?.width ?? up.width]);
    const k = await sharp((await turnedPrint(raw, 15))!).metadata();
    expect(k.width).toBeGreaterThan(up.width!);
    expect(await turnedPrint(Buffer.from('not an image'), 90)).toBeNull();
    const engine = { scanMrz: async () => { throw new Error('not reached'); } } as never;
    await expect(runRealBench(REAL_DOCUMENTS, engine, undefined, false, false, undefined, 90)).rejects.toThrow(/tuning images only/);
    await expect(runRealBench(REAL_DOCUMENTS, engine, undefined, true, true, undefined, 90)).rejects.toThrow(/tuning images only/);
  });
});

describe('document engine 3.7: the band search across the text', () => {
  it('differs from 3.6 only in scan.acrossText', () => {
    expect({ ...DOCUMENT_SETTINGS_V19, version: '', scan: { ...DOCUMENT_SETTINGS_V19.scan, acrossText: undefined } }).toEqual({ ...DOCUMENT_SETTINGS_V18, version: '', scan: { ...DOCUMENT_SETTINGS_V18.scan, acrossText: undefined } });
    expect(DOCUMENT_SETTINGS_V19.scan?.acrossText).toBe(true);
  });

  it('the UK specimen turned a quarter: every band along its text is off its MRZ; the search across the text finds a band more MRZ-like than all of them', async () => {
    const turned = (await turnedPrint(readFileSync(path.join(REAL_DOCUMENTS, UK)), 90))!;
    const along = await locate(turned);
    expect(along.bands.length).toBeGreaterThan(0);
    expect(along.bands.every((b) => Math.abs(b.angle) < 5)).toBe(true);
    expect(Math.abs(Math.abs(along.across!) - 90)).toBeLessThan(5);
    const across = await locate(turned, [along.across!]);
    expect(across.across).toBeUndefined();
    expect(across.bands[0]!.lines).toBe(2);
    expect(across.bands[0]!.score).toBeGreaterThan(Math.max(...along.bands.map((b) => b.score)));
  }, 60_000);

  const v18 = useDocumentEngine(DOCUMENT_SETTINGS_V18);
  const v19 = useDocumentEngine(DOCUMENT_SETTINGS_V19);

  it('reads the UK specimen turned 90° and 270°, which 3.6 cannot (its read budget goes on bands along the text)', async () => {
    const truth = realMrzTruth(UK);
    for (const deg of [90, 270]) {
      const turned = (await turnedPrint(readFileSync(path.join(REAL_DOCUMENTS, UK)), deg))!;
      const before = await v18().scanMrz(turned);
      expect(before.valid, `${deg}`).toBe(false);
      const after = await v19().scanMrz(turned);
      expect(after.valid, `${deg}`).toBe(true);
      expect(after.parsed?.lines).toEqual(truth);
    }
  }, 180_000);

  it('upright, the UK specimen reads as under 3.6, read for read: its first band reads, so nothing more is searched', async () => {
    const raw = readFileSync(path.join(REAL_DOCUMENTS, UK));
    const [before, after] = [await v18().scanMrz(raw), await v19().scanMrz(raw)];
    expect(after.valid).toBe(true);
    expect(readsOf(after)).toEqual(readsOf(before));
    expect(after.bandsFound).toBe(before.bandsFound);
  }, 120_000);

  it.skipIf(!deuTruth)('a German ID card upright (public tuning): its first band fails, the band across the text is less MRZ-like than those left and goes last, so its MRZ reads as under 3.6, read for read', async () => {
    const img = readFileSync(path.join(PUBLIC_TUNING, DEU));
    const [before, after] = [await v18().scanMrz(img), await v19().scanMrz(img)];
    expect(after.valid).toBe(true);
    expect(after.parsed?.lines).toEqual(deuTruth!.mrz_lines);
    expect(readsOf(after)).toEqual(readsOf(before));
    expect(after.bandsFound).toBe(before.bandsFound + 1);
  }, 120_000);

  it('reads a synthetic passport as 3.6 does', async () => {
    await expectSyntheticPasses(v19(), 'moz-passport', 'MOZ', 'passport', NOW);
  }, 120_000);
});

describe('the band turned with a sharper interpolator (an experiment on 3.6, not adopted)', () => {
  it('cuts the same crop as the bilinear turn: same size, the same pixels but for the sampling', async () => {
    const s = DOCUMENT_SETTINGS_V19;
    const img = await normalizeImage(readFileSync(path.join(REAL_DOCUMENTS, UK)), { ...s, acceptBmp: s.scan!.acceptBmp });
    const band = { angle: 15, left: 120, top: 600, width: 500, height: 80, lines: 2, lineHeight: 15, score: 0 };
    const grey = async (b: Buffer) => sharp(b).greyscale().raw().toBuffer({ resolveWithObject: true });
    const [a, b] = [await grey(await bandCropper(img, 30)(band, false, 'grey')), await grey(await bandCropper(img, 30, false, false, false, undefined, undefined, false, 'locallyBoundedBicubic')(band, false, 'grey'))];
    expect([b.info.width, b.info.height]).toEqual([a.info.width, a.info.height]);
    let diff = 0;
    for (let i = 0; i < a.data.length; i++) diff += Math.abs(a.data[i]! - b.data[i]!);
    expect(diff / a.data.length).toBeGreaterThan(0);
    expect(diff / a.data.length).toBeLessThan(8);
  });
});
