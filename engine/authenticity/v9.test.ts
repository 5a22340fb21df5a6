import { readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZCheckOutcome } from '../../domain/checks.js';
import { decodeRgb } from '../../tools/authenticity/attacks/raw.js';
import { splicePortrait } from '../../tools/authenticity/attacks/splice-portrait.js';
import { realDocument } from '../../tools/authenticity/testing/real-documents.js';
import { createRng } from '../../tools/authenticity/training/rng.js';
import { AUTHENTICITY_SETTINGS_V8, AUTHENTICITY_SETTINGS_V9, createAuthenticityEngine, DEFAULT_AUTHENTICITY_SETTINGS, type AuthenticityEngine } from './index.js';
import { FEATURE_SETS } from './features.js';
import { REGION_SCAN_FEATURE_NAMES } from './forensics/region-scan.js';
import { evaluateJsonTrees, MODEL_DIR } from './model/classifier.js';

/**
 * Settings v9 (feature set v8: v7 + the region scan; model v7) on a REAL document photograph of
 * ../shared/documents-real (read in place), as it is and with a region pasted from another real
 * image and saved again. Behaviour, not figures: the settings load and verify their model, the
 * model reads 180 values and its JSON trees reproduce scikit-learn, and the evidence names the
 * window the scan found, in the stored frame.
 */
let v9: AuthenticityEngine;
beforeAll(async () => {
  v9 = await createAuthenticityEngine(AUTHENTICITY_SETTINGS_V9);
});
afterAll(async () => {
  await v9?.close();
});

const overlaps = (a: number[], b: { x: number; y: number; width: number; height: number }) =>
  a[0]! < b.x + b.width && b.x < a[0]! + a[2]! && a[1]! < b.y + b.height && b.y < a[1]! + a[3]!;

describe('authenticity settings v9', () => {
  it('is the default, reads feature set v8 (180 values) with model v7, keeps v8\'s rules and camera catalogue, and its JSON trees reproduce scikit-learn', () => {
    expect(DEFAULT_AUTHENTICITY_SETTINGS).toBe(AUTHENTICITY_SETTINGS_V9);
    expect(AUTHENTICITY_SETTINGS_V9.featureSet).toBe('v8');
    expect(FEATURE_SETS.v8).toBe(180);
    expect(AUTHENTICITY_SETTINGS_V9.cameraHeaders).toEqual(AUTHENTICITY_SETTINGS_V8.cameraHeaders);
    expect(AUTHENTICITY_SETTINGS_V9.cameraTableFamilies).toEqual(AUTHENTICITY_SETTINGS_V8.cameraTableFamilies);
    const model = JSON.parse(readFileSync(path.join(MODEL_DIR, AUTHENTICITY_SETTINGS_V9.model.file), 'utf8'));
    expect(model.n_features).toBe(180);
    expect(model.check.features.length).toBeGreaterThanOrEqual(4);
    model.check.features.forEach((row: number[], i: number) => {
      const p = evaluateJsonTrees(model, Float32Array.from(row));
      p.forEach((v, k) => expect(v).toBeCloseTo(model.check.probabilities[i][k], 5));
    });
  });

  it('states the region scan and its window in the stored frame; a pasted region lies under the window', async () => {
    const file = realDocument('DoubangoTelecom__ultimateMRZ-SDK__assets__images__Passport-Australia_1280x720.jpg');
    const donor = realDocument('SerdarHelli__MRZ_Passport_Reader_From_Image__example.jpg');
    const img = await decodeRgb(readFileSync(file));
    const zone = { name: 'portrait', x: 80, y: 150, width: 330, height: 300 };
    const forged = await splicePortrait({ ...img, zones: [zone] }, donor, createRng(913).fork('splice'));
    const bytes = await sharp(Buffer.from(forged.rgb), { raw: { width: forged.width, height: forged.height, channels: 3 } }).jpeg({ quality: 88 }).toBuffer();
    const out = ZCheckOutcome.parse(await v9.analyze({ bytes, kind: 'document_front' }));
    expect(out.component).toBe('authenticity-engine@9');
    expect(out.models).toEqual([{ name: 'authenticity-gbt-v7', sha256: AUTHENTICITY_SETTINGS_V9.model.sha256 }]);
    const scan = (out.evidence.forensics as { region_scan: { tile_px: number; statistics: Record<string, number>; window: { x: number; y: number; width: number; height: number } | null } }).region_scan;
    expect(scan.tile_px).toBe(32);
    expect(Object.keys(scan.statistics)).toEqual(REGION_SCAN_FEATURE_NAMES.map((n) => n.slice(3)));
    expect(scan.window).not.toBeNull();
    expect(overlaps([scan.window!.x, scan.window!.y, scan.window!.width, scan.window!.height], zone)).toBe(true);
    const tamper = (out.evidence.signals as { code: string; evidence: { regions?: number[] } }[]).find((s) => s.code === 'tampering_suspected');
    if (tamper) expect(tamper.evidence.regions!.slice(0, 4)).toEqual([scan.window!.x, scan.window!.y, scan.window!.width, scan.window!.height]);
  });
});
