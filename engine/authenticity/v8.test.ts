import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZCheckOutcome } from '../../domain/checks.js';
import { encodeJpegWithTables, exifSegment } from '../../tools/authenticity/attacks/jpeg-encode.js';
import type { CameraTableEntry } from '../../tools/authenticity/real/build-camera-tables.js';
import { realDocument, splicedAboveOriginal } from '../../tools/authenticity/testing/real-documents.js';
import { editorSaveRealTables } from '../../tools/authenticity/attacks/editor-save.js';
import { AUTHENTICITY_SETTINGS_V8, createAuthenticityEngine, DEFAULT_AUTHENTICITY_SETTINGS, type AuthenticityEngine } from './index.js';
import { CAMERA_HEADERS_DIR } from './metadata/camera-headers.js';
import { evaluateJsonTrees, MODEL_DIR } from './model/classifier.js';

/**
 * Settings v8 (engine profile ep-2026.11-9) on a REAL document photograph of ../shared/documents-real
 * (read in place) saved with a REAL camera's header (tools/authenticity/attacks/camera-tables.json,
 * read from a genuine iPhone 6 file of the tuning split) and the same pixels re-saved by an editor
 * that kept the camera's EXIF.
 */
const cameraTables = (JSON.parse(readFileSync(path.resolve(MODEL_DIR, '../../../tools/authenticity/attacks/camera-tables.json'), 'utf8')) as { entries: CameraTableEntry[] }).entries;
const exif = () => exifSegment({ IFD0: { Make: 'Apple', Model: 'iPhone 6', DateTime: '2026:11:20 10:00:00' }, IFD2: { ExposureTime: '1/60', FNumber: '22/10', ISOSpeedRatings: '100' } });

let v8: AuthenticityEngine;
beforeAll(async () => {
  v8 = await createAuthenticityEngine(AUTHENTICITY_SETTINGS_V8);
});
afterAll(async () => {
  await v8?.close();
});

describe('authenticity settings v8', () => {
  it('reads 162 values (no longer the default since v9), and its JSON trees reproduce scikit-learn on the stored check rows', () => {
    expect(DEFAULT_AUTHENTICITY_SETTINGS).not.toBe(AUTHENTICITY_SETTINGS_V8);
    const model = JSON.parse(readFileSync(path.join(MODEL_DIR, AUTHENTICITY_SETTINGS_V8.model.file), 'utf8'));
    expect(model.n_features).toBe(162);
    expect(model.check.features.length).toBeGreaterThanOrEqual(4);
    model.check.features.forEach((row: number[], i: number) => {
      const p = evaluateJsonTrees(model, Float32Array.from(row));
      p.forEach((v, k) => expect(v).toBeCloseTo(model.check.probabilities[i][k], 5));
    });
  });

  it('refuses to start with a catalogue whose bytes do not match the pinned sha256', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'auth-v8-'));
    copyFileSync(path.join(MODEL_DIR, AUTHENTICITY_SETTINGS_V8.model.file), path.join(dir, AUTHENTICITY_SETTINGS_V8.model.file));
    const file = AUTHENTICITY_SETTINGS_V8.cameraHeaders!.file;
    writeFileSync(path.join(dir, file), readFileSync(path.join(CAMERA_HEADERS_DIR, file), 'utf8').replace('"apple"', '"applf"'));
    await expect(createAuthenticityEngine({ ...AUTHENTICITY_SETTINGS_V8, modelDir: dir })).rejects.toMatchObject({ code: 'model_integrity_failed' });
  });

  it('says what the header check saw, and scores an editor re-save that kept the camera EXIF above the camera file', async () => {
    const { data, info } = await sharp(readFileSync(realDocument('developer79433__passport_mrz_detector_cpp__examples__passport_01'))).resize({ width: 1280 }).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    const header = cameraTables.find((e) => e.make === 'Apple' && e.model === 'iPhone 6')!;
    const asCamera = await encodeJpegWithTables({ width: info.width, height: info.height, rgb: new Uint8Array(data) }, header, await exif());
    const cam = ZCheckOutcome.parse(await v8.analyze({ bytes: asCamera, kind: 'document_front' }));
    expect(cam.component).toBe('authenticity-engine@8');
    const camHeader = (cam.evidence.forensics as { camera_header: Record<string, number> }).camera_header;
    expect(camHeader).toMatchObject({ make_state: 1, table_seen_make: 1, family_seen_make: 1 });
    // The editor writes libjpeg's tables at quality 80 and keeps the iPhone's EXIF.
    const edited = await sharp(asCamera).jpeg({ quality: 80 }).withExif({ IFD0: { Make: 'Apple', Model: 'iPhone 6' } }).toBuffer();
    const ed = ZCheckOutcome.parse(await v8.analyze({ bytes: edited, kind: 'document_front' }));
    const edHeader = (ed.evidence.forensics as { camera_header: Record<string, number> }).camera_header;
    expect(edHeader).toMatchObject({ make_state: 1, table_seen_make: 0, family_seen_make: 0 });
    const risk = (o: typeof cam) => (o.evidence.model as { risk: number }).risk;
    expect(risk(ed)).toBeGreaterThan(risk(cam));
  });
});

describe('settings v8 on real document images edited and saved with real editors\' tables', () => {
  it('scores real genuine document images lower than the same images with a region pasted from another real image', async () => {
    const { higher, n } = await splicedAboveOriginal(v8, editorSaveRealTables, 17);
    expect(n).toBe(6);
    expect(higher).toBeGreaterThanOrEqual(5);
  });
});
