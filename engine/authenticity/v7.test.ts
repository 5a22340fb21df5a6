import { readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZCheckOutcome } from '../../domain/checks.js';
import { realDocument, splicedAboveOriginal } from '../../tools/authenticity/testing/real-documents.js';
import { editorSaveRealTables } from '../../tools/authenticity/attacks/editor-save.js';
import { AUTHENTICITY_SETTINGS_V7, createAuthenticityEngine, DEFAULT_AUTHENTICITY_SETTINGS, type AuthenticityEngine } from './index.js';
import { evaluateJsonTrees, MODEL_DIR } from './model/classifier.js';

/**
 * Settings v7 (benchmarked, in no engine profile) on REAL document photographs of
 * ../shared/documents-real (read in place) and edits made to them here, saved with the header of
 * a real editor (tools/authenticity/attacks/editor-tables.json).
 */
const docFile = realDocument;

let v7: AuthenticityEngine;
beforeAll(async () => {
  v7 = await createAuthenticityEngine(AUTHENTICITY_SETTINGS_V7);
});
afterAll(async () => {
  await v7?.close();
});

interface PlaneDq {
  available: boolean;
  frequencies: { k: number; q2: number; q1: number; llr: number }[];
  once_compressed_regions: { x: number; y: number; width: number; height: number }[];
}

describe('authenticity settings v7', () => {
  it('is not the default (not adopted: docs/decisions.md), and its JSON trees reproduce scikit-learn on the stored check rows', () => {
    expect(DEFAULT_AUTHENTICITY_SETTINGS).not.toBe(AUTHENTICITY_SETTINGS_V7);
    const model = JSON.parse(readFileSync(path.join(MODEL_DIR, AUTHENTICITY_SETTINGS_V7.model.file), 'utf8'));
    expect(model.n_features).toBe(143);
    expect(model.check.features.length).toBeGreaterThanOrEqual(4);
    model.check.features.forEach((row: number[], i: number) => {
      const p = evaluateJsonTrees(model, Float32Array.from(row));
      p.forEach((v, k) => expect(v).toBeCloseTo(model.check.probabilities[i][k], 5));
    });
  });

  it('reads a first quantisation in the chroma planes and reports it per plane, regions in stored-frame pixels', async () => {
    // A real photo saved coarsely (4:2:0), then saved again finely on the same grid.
    const first = await sharp(readFileSync(docFile('developer79433__passport_mrz_detector_cpp__examples__passport_01'))).resize({ width: 1024 }).jpeg({ quality: 50 }).toBuffer();
    const twice = await sharp(first).jpeg({ quality: 95 }).toBuffer();
    const out = ZCheckOutcome.parse(await v7.analyze({ bytes: twice, kind: 'document_front' }));
    expect(out.component).toBe('authenticity-engine@7');
    const chroma = (out.evidence.forensics as { chroma_double_quantisation: { sampling_scale: number[]; cb: PlaneDq; cr: PlaneDq } }).chroma_double_quantisation;
    expect(chroma.sampling_scale).toEqual([2, 2]);
    expect(chroma.cb.available && chroma.cr.available).toBe(true);
    expect(chroma.cb.frequencies.length + chroma.cr.frequencies.length).toBeGreaterThanOrEqual(4);
    // The first save's chroma steps (quality 50) are found: q1 > q2 at the lowest frequencies.
    expect(chroma.cb.frequencies.some((f) => f.q1 > f.q2)).toBe(true);
    const meta = await sharp(twice).metadata();
    for (const r of [...chroma.cb.once_compressed_regions, ...chroma.cr.once_compressed_regions]) {
      expect(r.x + r.width).toBeLessThanOrEqual(meta.width!);
      expect(r.y + r.height).toBeLessThanOrEqual(meta.height!);
    }
    // One save: nothing to find.
    const once = ZCheckOutcome.parse(await v7.analyze({ bytes: first, kind: 'document_front' }));
    const onceChroma = (once.evidence.forensics as { chroma_double_quantisation: { cb: PlaneDq; cr: PlaneDq } }).chroma_double_quantisation;
    expect(onceChroma.cb.frequencies.length + onceChroma.cr.frequencies.length).toBeLessThanOrEqual(1);
  });
});

describe('settings v7 on real document images edited and saved with real editors\' tables', () => {
  it('scores real genuine document images lower than the same images with a region pasted from another real image', async () => {
    const { higher, n } = await splicedAboveOriginal(v7, editorSaveRealTables, 17);
    expect(n).toBe(6);
    expect(higher).toBeGreaterThanOrEqual(5);
  });
});
