import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZCheckOutcome } from '../../domain/checks.js';
import { editorSaveRealTables } from '../../tools/authenticity/attacks/editor-save.js';
import { splicePortrait } from '../../tools/authenticity/attacks/splice-portrait.js';
import { decodeRgb } from '../../tools/authenticity/attacks/raw.js';
import { createRng } from '../../tools/authenticity/training/rng.js';
import { AUTHENTICITY_SETTINGS_V7, createAuthenticityEngine, DEFAULT_AUTHENTICITY_SETTINGS, type AuthenticityEngine } from './index.js';
import { evaluateJsonTrees, MODEL_DIR } from './model/classifier.js';

/**
 * Settings v7 (engine profile ep-2026.11-7a) on REAL document photographs of
 * ../shared/documents-real (read in place) and edits made to them here, saved with the header of
 * a real editor (tools/authenticity/attacks/editor-tables.json).
 */
const HERE = path.dirname(fileURLToPath(import.meta.url));
const DOCS = path.resolve(HERE, '../../../shared/documents-real');
const isJpeg = (b: Buffer) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff;
const docFile = (prefix: string) => path.join(DOCS, readdirSync(DOCS).find((f) => f.startsWith(prefix))!);

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
  it('is the default, and its JSON trees reproduce scikit-learn on the stored check rows', () => {
    expect(DEFAULT_AUTHENTICITY_SETTINGS).toBe(AUTHENTICITY_SETTINGS_V7);
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
  const genuine = readdirSync(DOCS)
    .sort()
    .map((f) => path.join(DOCS, f))
    .filter((f) => isJpeg(readFileSync(f)));

  it('scores real genuine document images lower than the same images with a region pasted from another real image', async () => {
    const rng = createRng(17);
    let higher = 0, n = 0;
    for (let i = 0; i < 6; i++) {
      const file = genuine[(i * 5) % genuine.length]!;
      const donor = genuine[(i * 5 + 3) % genuine.length]!;
      const bytes = readFileSync(file);
      const img = await decodeRgb(bytes);
      const zone = { name: 'portrait', x: Math.round(img.width * 0.1), y: Math.round(img.height * 0.2), width: Math.round(img.width * 0.25), height: Math.round(img.height * 0.35) };
      const forged = await splicePortrait({ ...img, zones: [zone] }, donor, rng.fork(`s${i}`));
      const saved = await editorSaveRealTables(forged, rng.fork(`e${i}`), new Date('2026-11-20T10:00:00Z'));
      const a = await v7.analyze({ bytes, kind: 'document_front' });
      const b = await v7.analyze({ bytes: saved, kind: 'document_front' });
      n++;
      if ((b.score ?? 0) > (a.score ?? 0)) higher++;
    }
    expect(n).toBe(6);
    expect(higher).toBeGreaterThanOrEqual(5);
  });
});
