import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZCheckOutcome } from '../../domain/checks.js';
import { editorSave } from '../../tools/authenticity/attacks/editor-save.js';
import { splicePortrait } from '../../tools/authenticity/attacks/splice-portrait.js';
import { decodeRgb } from '../../tools/authenticity/attacks/raw.js';
import { AUTHENTICITY_SETTINGS_V4, AUTHENTICITY_SETTINGS_V5, createAuthenticityEngine, type AuthenticityEngine } from './index.js';
import { evaluateJsonTrees, MODEL_DIR } from './model/classifier.js';
import { createRng } from '../../tools/authenticity/training/rng.js';

/**
 * Settings v5 (engine profile ep-2026.11-5) on REAL images: the genuine document images of
 * ../shared/documents-real (referenced in place), and edits made to them here.
 */
const HERE = path.dirname(fileURLToPath(import.meta.url));
const DOCS = path.resolve(HERE, '../../../shared/documents-real');
const isJpeg = (b: Buffer) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff;
const docFile = (prefix: string) => path.join(DOCS, readdirSync(DOCS).find((f) => f.startsWith(prefix))!);

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
  const genuine = readdirSync(DOCS)
    .sort()
    .map((f) => path.join(DOCS, f))
    .filter((f) => isJpeg(readFileSync(f)));

  it('scores real genuine document images lower than the same images with a region pasted from another real image', async () => {
    const rng = createRng(13);
    let higher = 0, n = 0;
    for (let i = 0; i < 6; i++) {
      const file = genuine[(i * 5) % genuine.length]!;
      const donor = genuine[(i * 5 + 3) % genuine.length]!;
      const bytes = readFileSync(file);
      const img = await decodeRgb(bytes);
      const zone = { name: 'portrait', x: Math.round(img.width * 0.1), y: Math.round(img.height * 0.2), width: Math.round(img.width * 0.25), height: Math.round(img.height * 0.35) };
      const forged = await splicePortrait({ ...img, zones: [zone] }, donor, rng.fork(`s${i}`));
      const saved = await editorSave(forged, rng.fork(`e${i}`), new Date('2026-11-20T10:00:00Z'));
      const a = await v5.analyze({ bytes, kind: 'document_front' });
      const b = await v5.analyze({ bytes: saved, kind: 'document_front' });
      n++;
      if ((b.score ?? 0) > (a.score ?? 0)) higher++;
    }
    expect(higher).toBeGreaterThanOrEqual(5);
    expect(n).toBe(6);
  });
});
