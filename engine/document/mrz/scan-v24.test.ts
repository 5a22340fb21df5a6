import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { smallPrint, turnedPrint } from '../../../bench/documents-real.js';
import { PUBLIC_TUNING, publicTuningTruth, REAL_DOCUMENTS, realMrzTruth, useDocumentEngine } from '../../../test/real-documents.js';
import { DOCUMENT_SETTINGS_V23, DOCUMENT_SETTINGS_V24 } from '../index.js';
import { stackedLines, textAngles } from './locate.js';

/** A mask `w` × `h` with the given boxes set (x0, y0, x1, y1 inclusive). */
function maskOf(w: number, h: number, boxes: [number, number, number, number][]): Uint8Array {
  const m = new Uint8Array(w * h);
  for (const [x0, y0, x1, y1] of boxes) for (let y = y0; y <= y1; y++) for (let x = x0; x <= x1; x++) m[y * w + x] = 1;
  return m;
}

/** Glyph-sized boxes along a text line: `n` marks 6 px wide every 10 px from `x`, rows `y0`..`y1`. */
const glyphs = (x: number, y0: number, y1: number, n: number): [number, number, number, number][] => Array.from({ length: n }, (_, k) => [x + 10 * k, y0, x + 10 * k + 5, y1]);

/**
 * Document engine 3.12 (`DOCUMENT_SETTINGS_V24`): two more band searches for turned photos, both found on
 * turned tuning photos (`bench:documents --rotate`): the frame's second text direction (`scan.secondText`),
 * and a merged band ranked as the stack its rows show (`scan.splitMerged`).
 */
describe('document engine 3.12: the second text direction, and merged MRZ lines ranked as a stack', () => {
  it('differs from 3.11 only in scan.secondText, scan.splitMerged and scan.bestJoin', () => {
    expect({ ...DOCUMENT_SETTINGS_V24, version: '', scan: { ...DOCUMENT_SETTINGS_V24.scan, secondText: undefined, splitMerged: undefined, bestJoin: undefined } }).toEqual({ ...DOCUMENT_SETTINGS_V23, version: '', scan: { ...DOCUMENT_SETTINGS_V23.scan } });
  });

  describe('textAngles', () => {
    it('keeps the first direction as textAngle found it and finds the second: ticks of a ruler outweigh a few text lines', () => {
      const w = 400, h = 400;
      // Many long vertical strokes (the ruler's ticks, 90°) and three short horizontal lines of text (0°).
      const ticks: [number, number, number, number][] = Array.from({ length: 30 }, (_, k) => [20 + 12 * k, 20, 21 + 12 * k, 380]);
      const text = [...glyphs(60, 100, 110, 20), ...glyphs(60, 140, 150, 20), ...glyphs(60, 180, 190, 20)];
      const found = textAngles(maskOf(w, h, [...ticks, ...text]), w, h);
      expect(found.first).toBeCloseTo(90, 0);
      expect(found.second).toBeDefined();
      expect(Math.min(found.second! % 180, 180 - (found.second! % 180))).toBeLessThanOrEqual(1);
    });

    it('has no second direction where the mask is too sparse to have a first', () => {
      expect(textAngles(maskOf(100, 100, [[10, 10, 12, 12]]), 100, 100)).toEqual({ first: 0 });
    });
  });

  describe('stackedLines', () => {
    const box = { x0: 0, y0: 0, x1: 299, y1: 59 };
    it('two full-width lines bridged by a security pattern between them are two lines', () => {
      // Lines at rows 5–20 and 35–50, a sparse speckle (every 7th pixel) in every row.
      const m = maskOf(300, 60, [...glyphs(0, 5, 20, 30), ...glyphs(0, 35, 50, 30)]);
      for (let i = 0; i < m.length; i += 7) m[i] = 1;
      expect(stackedLines(m, 300, box)).toBe(2);
    });

    it('three full-width lines are three', () => {
      expect(stackedLines(maskOf(300, 60, [...glyphs(0, 2, 14, 30), ...glyphs(0, 22, 34, 30), ...glyphs(0, 42, 54, 30)]), 300, box)).toBe(3);
    });

    it('one tall line is not a stack', () => {
      expect(stackedLines(maskOf(300, 60, glyphs(0, 5, 55, 30)), 300, box)).toBe(0);
    });

    it('a caption over a short value is not a stack: each line must run across the band', () => {
      expect(stackedLines(maskOf(300, 60, [...glyphs(0, 5, 20, 30), ...glyphs(0, 35, 50, 8)]), 300, box)).toBe(0);
    });

    it('lines of very different heights are not a stack', () => {
      expect(stackedLines(maskOf(300, 60, [...glyphs(0, 2, 40, 30), ...glyphs(0, 48, 55, 30)]), 300, box)).toBe(0);
    });
  });

  const v23 = useDocumentEngine(DOCUMENT_SETTINGS_V23);
  const v24 = useDocumentEngine(DOCUMENT_SETTINGS_V24);

  it('a textured Czech specimen turned −20° (real, tuning): its MRZ lines bridged into one blob ranked below two stacks of captions; 3.12 reads it first, valid and exact', async () => {
    const file = 'DoubangoTelecom__ultimateMRZ-SDK__assets__images__Czech_passport_2005_MRZ_orient6_1300x1002.jpg';
    const turned = (await turnedPrint(readFileSync(path.join(REAL_DOCUMENTS, file)), -20))!;
    const [before, after] = [await v23().scanMrz(turned), await v24().scanMrz(turned)];
    expect(before.valid).toBe(false);
    expect(after.valid).toBe(true);
    expect(after.parsed?.lines).toEqual(realMrzTruth(file));
    expect(after.band?.lines).toBe(2);
    expect(after.attempts.every((a) => a.band === 0)).toBe(true);
  }, 120_000);

  it('an Icelandic passport photo as small print (real, tuning, ×0.22): its MRZ, paired only in part at the first join, ranked by that partial pairing under 3.11; 3.12 reads it first, the same valid lines in fewer reads', async () => {
    const file = 'SerdarHelli__MRZ_Passport_Reader_From_Image__example1.jpg';
    const small = (await smallPrint(readFileSync(path.join(REAL_DOCUMENTS, file)), 0.22))!;
    const [before, after] = [await v23().scanMrz(small), await v24().scanMrz(small)];
    expect(after.valid).toBe(before.valid);
    expect(after.parsed?.lines).toEqual(before.parsed?.lines);
    expect(after.parsed?.lines).toEqual(realMrzTruth(file));
    expect(after.attempts.length).toBeLessThan(before.attempts.length);
    expect(after.attempts.every((a) => a.band === 0)).toBe(true);
    expect(before.attempts.some((a) => a.band > 0)).toBe(true);
  }, 120_000);

  const VK = 'vk1996__MRZ_Extract_And_Reader__document.png';
  it.skipIf(!publicTuningTruth(VK))('a passport on a desk turned −20° (public tuning): a ruler and a cable outweigh its text; no band at their angle, across it or straight; 3.12 finds it at the second text direction, valid and exact', async () => {
    const turned = (await turnedPrint(readFileSync(path.join(PUBLIC_TUNING, VK)), -20))!;
    const [before, after] = [await v23().scanMrz(turned), await v24().scanMrz(turned)];
    expect(before.reason).toBe('mrz_not_found');
    expect(after.valid).toBe(true);
    expect(after.parsed?.lines).toEqual(publicTuningTruth(VK)!.mrz_lines);
  }, 120_000);
});
