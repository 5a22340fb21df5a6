import { readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZCheckOutcome } from '../../domain/checks.js';
import { realDocument, splicedAboveOriginal } from '../../tools/authenticity/testing/real-documents.js';
import { editorSave } from '../../tools/authenticity/attacks/editor-save.js';
import { AUTHENTICITY_SETTINGS_V5, AUTHENTICITY_SETTINGS_V6, createAuthenticityEngine, type AuthenticityEngine } from './index.js';
import { evaluateJsonTrees, MODEL_DIR } from './model/classifier.js';

/**
 * Settings v6 (engine profile ep-2026.11-6) on REAL document photographs of
 * ../shared/documents-real (read in place) and edits made to them here.
 */
const docFile = realDocument;

let v6: AuthenticityEngine;
let v5: AuthenticityEngine;
beforeAll(async () => {
  v6 = await createAuthenticityEngine(AUTHENTICITY_SETTINGS_V6);
  v5 = await createAuthenticityEngine(AUTHENTICITY_SETTINGS_V5);
});
afterAll(async () => {
  await v6?.close();
  await v5?.close();
});

interface DoubleQuantisation {
  available: boolean;
  frequencies: { k: number; q2: number; q1: number; llr: number }[];
  map_tile_px: number;
  once_compressed_regions: { x: number; y: number; width: number; height: number }[];
}

describe('authenticity settings v6', () => {
  it('its JSON trees reproduce scikit-learn on the stored check rows', () => {
    const model = JSON.parse(readFileSync(path.join(MODEL_DIR, AUTHENTICITY_SETTINGS_V6.model.file), 'utf8'));
    expect(model.n_features).toBe(117);
    expect(model.check.features.length).toBeGreaterThanOrEqual(4);
    model.check.features.forEach((row: number[], i: number) => {
      const p = evaluateJsonTrees(model, Float32Array.from(row));
      p.forEach((v, k) => expect(v).toBeCloseTo(model.check.probabilities[i][k], 5));
    });
  });

  it('shows where a region compressed once sits inside a photo compressed twice, and the estimated first steps', async () => {
    // A real photo saved once (a resize first removes the file's own JPEG history), a region of
    // another real photo pasted off-grid, and the result saved again finely on the same grid.
    const first = await sharp(readFileSync(docFile('developer79433__passport_mrz_detector_cpp__examples__passport_01'))).resize({ width: 1024 }).jpeg({ quality: 60 }).toBuffer();
    const donor = await sharp(readFileSync(docFile('SerdarHelli__MRZ_Passport_Reader_From_Image__example.jpg'))).resize({ width: 600 }).jpeg({ quality: 80 }).toBuffer();
    const patch = await sharp(donor).extract({ left: 3, top: 5, width: 256, height: 192 }).toBuffer();
    const region = { x: 512, y: 192, width: 256, height: 192 };
    const forged = await sharp(first).composite([{ input: patch, left: region.x, top: region.y }]).jpeg({ quality: 95 }).toBuffer();
    const out = ZCheckOutcome.parse(await v6.analyze({ bytes: forged, kind: 'document_front' }));
    expect(out.component).toBe('authenticity-engine@6');
    expect(out.evidence.operating_point).toMatchObject({ review_threshold: AUTHENTICITY_SETTINGS_V6.modelReviewThreshold, strong_threshold: AUTHENTICITY_SETTINGS_V6.modelStrongThreshold });
    const dq = (out.evidence.forensics as { double_quantisation: DoubleQuantisation }).double_quantisation;
    expect(dq.available).toBe(true);
    expect(dq.map_tile_px).toBe(32);
    expect(dq.frequencies.length).toBeGreaterThanOrEqual(10);
    const hits = dq.once_compressed_regions.filter((b) => b.x < region.x + region.width && b.x + b.width > region.x && b.y < region.y + region.height && b.y + b.height > region.y);
    expect(hits.length).toBeGreaterThanOrEqual(1);
    // The same photo saved once has no first quantisation to find.
    const once = ZCheckOutcome.parse(await v6.analyze({ bytes: first, kind: 'document_front' }));
    expect((once.evidence.forensics as { double_quantisation: DoubleQuantisation }).double_quantisation.once_compressed_regions).toEqual([]);
    expect(once.score ?? 0).toBeLessThan(out.score ?? 0);
  });

  it('calls a table family no real camera of the corpus writes (MS-SSIM preset) software, which v5 still took for a camera', async () => {
    const base = await sharp(readFileSync(docFile('sivakumar-mahalingam__fastmrz__data__passport_uk'))).jpeg({ quality: 90, quantisationTable: 2 }).toBuffer();
    const old = await v5.analyze({ bytes: base, kind: 'document_front' });
    expect(old.reasons).not.toContain('editor_quantization_detected');
    const now = await v6.analyze({ bytes: base, kind: 'document_front' });
    expect(now.reasons).toContain('editor_quantization_detected');
    // Annex K (libjpeg, browsers, many phones) stays a camera family.
    const annexK = await sharp(readFileSync(docFile('sivakumar-mahalingam__fastmrz__data__passport_uk'))).jpeg({ quality: 90 }).toBuffer();
    expect((await v6.analyze({ bytes: annexK, kind: 'document_front' })).reasons).not.toContain('editor_quantization_detected');
  });
});

describe('settings v6 on real document images', () => {
  it('scores real genuine document images lower than the same images with a region pasted from another real image', async () => {
    const { higher, n } = await splicedAboveOriginal(v6, editorSave, 13);
    expect(higher).toBeGreaterThanOrEqual(5);
    expect(n).toBe(6);
  });
});
