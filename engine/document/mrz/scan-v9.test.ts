import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { isHeldOut, type RealTruth } from '../../../bench/documents-real.js';
import { expectSyntheticPasses, REAL_DOCUMENTS, useDocumentEngine } from '../../../test/real-documents.js';
import { REPO_ROOT } from '../../assets.js';
import { DOCUMENT_SETTINGS_V7, DOCUMENT_SETTINGS_V9 } from '../index.js';
import { normalizeImage } from '../image/normalize.js';
import { groupBands, locateMrzBands, type MrzBand } from './locate.js';

/**
 * Document engine 2.7 (`DOCUMENT_SETTINGS_V9`, `scan.extendFirst`): lines are compared as if grown
 * through their filler gaps before they are paired into a band. Real tesseract; real TUNING images
 * only (held-out and public unseen images stay out of every test).
 */
const NOW = new Date('2026-11-29T00:00:00Z');
const v9 = useDocumentEngine(DOCUMENT_SETTINGS_V9);

const blob = (x0: number, y0: number, x1: number, y1: number) => ({ x0, y0, x1, y1, px: (x1 - x0 + 1) * (y1 - y0 + 1) });

/**
 * Two MRZ lines drawn as glyph boxes at a 21 px pitch, 20 px high: letters 12 px wide (9 px gaps,
 * closed by the band search's 17 px join), fillers 3 px wide (18 px gaps, not closed). The name line
 * is 14 letters and 30 fillers, the second line 44 letters: as a joined blob the name line is a third
 * of the second's width, as on the MIDV-2020 mock passports whose thin fillers fall apart.
 */
async function cutNameLine(): Promise<Buffer> {
  const rects: string[] = [];
  const line = (y: number, letters: number) => {
    for (let k = 0; k < 44; k++) {
      const x = 40 + 21 * k;
      rects.push(k < letters ? `<rect x="${x}" y="${y}" width="12" height="20"/>` : `<rect x="${x + 4}" y="${y}" width="3" height="20"/>`);
    }
  };
  line(150, 14);
  line(195, 44);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1000" height="400"><rect width="1000" height="400" fill="#fff"/><g fill="#111">${rects.join('')}</g></svg>`;
  return sharp(Buffer.from(svg)).removeAlpha().raw().toBuffer();
}

describe('2.7 building blocks', () => {
  it('groupBands pairs lines by their grown spans when given, and forms the same bands as before from the same spans', () => {
    const name = blob(50, 100, 350, 120); // cut at its fillers
    const second = blob(50, 145, 960, 165);
    const noSpans = groupBands([name, second], 1000);
    expect(noSpans.filter((b) => b.lines >= 2)).toEqual([]);
    const spans = new Map([[name, { x0: 50, x1: 958 }], [second, { x0: 50, x1: 960 }]]);
    const grown = groupBands([name, second], 1000, spans);
    const pair = grown.find((b) => b.lines === 2)!;
    // The band is built from the blobs themselves (the band search extends it afterwards, as before).
    expect(pair).toMatchObject({ x0: 50, y0: 100, x1: 960, y1: 165, lines: 2 });
    // Spans equal to the blobs: exactly what the old grouping gives.
    const even = [blob(50, 100, 950, 120), blob(52, 145, 960, 165), blob(300, 300, 700, 318)];
    expect(groupBands(even, 1000, new Map(even.map((b) => [b, b])))).toEqual(groupBands(even, 1000));
  });

  it('finds the two-line band of an MRZ whose name line falls apart at its fillers only with extendFirst', async () => {
    const img = { data: await cutNameLine(), width: 1000, height: 400, channels: 3 as const };
    const two = (bands: MrzBand[]) => bands.filter((b) => b.lines === 2 && b.top < 150 && b.top + b.height > 215 && b.width > 850);
    expect(two(await locateMrzBands(img, { workSide: 1000, maxBands: 8 }))).toEqual([]);
    const found = two(await locateMrzBands(img, { workSide: 1000, maxBands: 8, extendFirst: true }));
    expect(found.length).toBeGreaterThanOrEqual(1);
    expect(found[0]!.left).toBeLessThan(40);
    expect(found[0]!.left + found[0]!.width).toBeGreaterThan(960);
  });

  it('leaves the bands 2.5 found on every real tuning image as they were, in order; a fallback band only comes after them', async () => {
    const truths = readFileSync(path.join(REAL_DOCUMENTS, 'ground_truth.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as RealTruth).filter((t) => !isHeldOut(t));
    expect(truths.length).toBeGreaterThanOrEqual(10);
    for (const t of truths) {
      // The working image the scan searches (BMP decoded, turned upright, bounded in size).
      const img = await normalizeImage(readFileSync(path.join(REAL_DOCUMENTS, t.file)), { ...DOCUMENT_SETTINGS_V9, acceptBmp: true });
      const opts = { workSide: DOCUMENT_SETTINGS_V7.scan!.workSide, maxBands: DOCUMENT_SETTINGS_V7.scan!.maxBands, tilt: true, adaptiveJoin: true };
      const before = await locateMrzBands(img, opts);
      const after = await locateMrzBands(img, { ...opts, extendFirst: true });
      expect({ file: t.file, bands: after.filter((b) => !b.fallback) }).toEqual({ file: t.file, bands: before });
      expect(after.length - before.length).toBeLessThanOrEqual(1);
      expect(after.slice(before.length).every((b) => b.fallback)).toBe(true);
    }
  }, 120_000);
});

// The public tuning set (`npm run fetch-documents-real -- --set public-tuning`), when fetched: a
// MIDV-2020 mock passport whose thin, widely spaced fillers cut the name line's blob short.
const MIDV = path.join(REPO_ROOT, '.data', 'documents-public-tuning', 'Oriolrt__SIDTD_Dataset__Fake_Generator__Test_Example__Samples_Test__MIDV2020__aze_passport__images__00.jpg');

describe('2.7 on a real tuning image', () => {
  const v7 = useDocumentEngine(DOCUMENT_SETTINGS_V7);
  it.skipIf(!existsSync(MIDV))('reads the MIDV-2020 mock passport that 2.5 found no band for, exactly and valid (needs the public tuning set)', async () => {
    const truth = ['PCAZEABDULLAYEV<<DIL<<<<<<<<<<<<<<<<<<<<<<<<', 'C193895647AZE9408148M28081525188L2V<<<<<<<42'];
    const before = await v7().scanMrz(readFileSync(MIDV));
    expect(before.valid).toBe(false);
    const after = await v9().scanMrz(readFileSync(MIDV));
    expect(after.valid).toBe(true);
    expect(after.parsed!.lines).toEqual(truth);
  }, 120_000);
});

describe('2.7 on the synthetic corpus (figures must not fall)', () => {
  it('reads a rendered, photographed passport exactly', async () => {
    await expectSyntheticPasses(v9(), 'moz-passport', 'MOZ', 'passport', NOW);
  }, 120_000);
});
