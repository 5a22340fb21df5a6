import { readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZCheckOutcome } from '../../domain/checks.js';
import { realDocument, splicedAboveOriginal } from '../../tools/authenticity/testing/real-documents.js';
import { editorSave } from '../../tools/authenticity/attacks/editor-save.js';
import { AUTHENTICITY_SETTINGS_V4, AUTHENTICITY_SETTINGS_V5, createAuthenticityEngine, type AuthenticityEngine } from './index.js';
import { evaluateJsonTrees, MODEL_DIR } from './model/classifier.js';

/**
 * Settings v5 (engine profile ep-2026.11-5) on REAL images: the genuine document images of
 * ../shared/documents-real (referenced in place), and edits made to them here.
 */
const docFile = realDocument;

let v5: AuthenticityEngine;
let v4: AuthenticityEngine;
beforeAll(async () => {
  v5 = await createAuthenticityEngine(AUTHENTICITY_SETTINGS_V5);
  v4 = await createAuthenticityEngine(AUTHENTICITY_SETTINGS_V4);
});
afterAll(async () => {
  await v5?.close();
  await v4?.close();
});

describe('authenticity settings v5', () => {
  it('its JSON trees reproduce scikit-learn on the stored check rows', () => {
    const model = JSON.parse(readFileSync(path.join(MODEL_DIR, AUTHENTICITY_SETTINGS_V5.model.file), 'utf8'));
    expect(model.check.features.length).toBeGreaterThanOrEqual(4);
    model.check.features.forEach((row: number[], i: number) => {
      const p = evaluateJsonTrees(model, Float32Array.from(row));
      p.forEach((v, k) => expect(v).toBeCloseTo(model.check.probabilities[i][k], 5));
    });
  });

  it('does not read the IPTC container (APP13 "Photoshop 3.0") as Photoshop, but still reads a Software tag', async () => {
    // A plain JPEG with an APP13 IPTC segment, as cameras and scanners write it.
    const base = await sharp(readFileSync(docFile('developer79433__passport_mrz_detector_cpp__examples__passport_01'))).jpeg({ quality: 92 }).toBuffer();
    const iptc = Buffer.concat([Buffer.from('Photoshop 3.0\0', 'latin1'), Buffer.from('8BIM\x04\x04\0\0\0\0\0\0', 'latin1')]);
    const app13 = Buffer.concat([Buffer.from([0xff, 0xed, (iptc.length + 2) >> 8, (iptc.length + 2) & 0xff]), iptc]);
    const withIptc = Buffer.concat([base.subarray(0, 2), app13, base.subarray(2)]);
    const old = await v4.analyze({ bytes: withIptc, kind: 'document_front' });
    expect(old.reasons).toContain('editing_software_detected');
    const now = ZCheckOutcome.parse(await v5.analyze({ bytes: withIptc, kind: 'document_front' }));
    expect(now.reasons).not.toContain('editing_software_detected');
    const tagged = await sharp(base).withExif({ IFD0: { Software: 'Adobe Photoshop 25.1 (Windows)' } } as never).jpeg({ quality: 92 }).toBuffer();
    const flagged = await v5.analyze({ bytes: tagged, kind: 'document_front' });
    expect(flagged.status).toBe('failed');
    expect(flagged.reasons).toContain('editing_software_detected');
  });

  it('states its operating point and the tile maps it measured, with boxes in the stored frame', async () => {
    const bytes = readFileSync(docFile('sivakumar-mahalingam__fastmrz__data__passport_uk'));
    const out = ZCheckOutcome.parse(await v5.analyze({ bytes, kind: 'document_front' }));
    expect(out.component).toBe('authenticity-engine@5');
    expect(out.evidence.operating_point).toMatchObject({ review_threshold: AUTHENTICITY_SETTINGS_V5.modelReviewThreshold, strong_threshold: AUTHENTICITY_SETTINGS_V5.modelStrongThreshold });
    const tiles = (out.evidence.forensics as { tiles: { tile_px: number; cols: number; rows: number; usable_tiles: number; channels: Record<string, unknown>; boxes: unknown[] } }).tiles;
    expect(tiles.tile_px).toBe(64);
    expect(tiles.cols * tiles.rows).toBeGreaterThan(20);
    expect(tiles.usable_tiles).toBeGreaterThan(0);
    expect(Object.keys(tiles.channels).sort()).toEqual(['dq', 'ela', 'grid', 'noise']);
    expect(Array.isArray(tiles.boxes)).toBe(true);
  });
});

describe('settings v5 on real document images', () => {
  it('scores real genuine document images lower than the same images with a region pasted from another real image', async () => {
    const { higher, n } = await splicedAboveOriginal(v5, editorSave, 13);
    expect(higher).toBeGreaterThanOrEqual(5);
    expect(n).toBe(6);
  });
});
