import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { encodeJpegWithTables, exifSegment } from '../../../tools/authenticity/attacks/jpeg-encode.js';
import { realDocument } from '../../../tools/authenticity/testing/real-documents.js';
import type { CameraTableEntry } from '../../../tools/authenticity/real/build-camera-tables.js';
import { runForensics } from '../forensics-pipeline.js';
import { FEATURE_NAMES, FEATURE_SETS } from '../features.js';
import { AUTHENTICITY_SETTINGS_V6, CAMERA_HEADERS_V1 } from '../settings.js';
import { HEADER_FEATURE_NAMES, headerFeatures, loadCameraHeaders, lumaKey } from './camera-headers.js';

/**
 * Feature set v7's header check on a REAL document photograph (../shared/documents-real) saved
 * with a REAL camera's header (tools/authenticity/attacks/camera-tables.json: luma/chroma tables
 * and sampling read from a genuine iPhone 6 file of the tuning split), and the same pixels saved by
 * an editor with Annex K tables while keeping that camera's EXIF.
 */
const HERE = path.dirname(fileURLToPath(import.meta.url));
const cameraTables = (JSON.parse(readFileSync(path.resolve(HERE, '../../../tools/authenticity/attacks/camera-tables.json'), 'utf8')) as { entries: CameraTableEntry[] }).entries;
const catalogue = loadCameraHeaders(CAMERA_HEADERS_V1.file, CAMERA_HEADERS_V1.sha256);
const v7 = { ...AUTHENTICITY_SETTINGS_V6, version: 'test-v7', featureSet: 'v7' as const, cameraHeaders: { ...CAMERA_HEADERS_V1 } };
const names = HEADER_FEATURE_NAMES;
const at = (values: ArrayLike<number>, name: (typeof names)[number]) => values[FEATURE_SETS.v6 + names.indexOf(name)]!;

async function pixels() {
  const { data, info } = await sharp(readFileSync(realDocument('developer79433__passport_mrz_detector_cpp__examples__passport_01'))).resize({ width: 960 }).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, rgb: new Uint8Array(data) };
}
const iphoneExif = (model: string) => exifSegment({ IFD0: { Make: 'Apple', Model: model, DateTime: '2026:11:20 10:00:00' }, IFD2: { ExposureTime: '1/60', FNumber: '22/10' } });

describe('camera header check (feature set v7)', () => {
  it('the catalogue is pinned and holds the tuning cameras by make, with provenance', () => {
    expect(catalogue.entries.length).toBeGreaterThan(100);
    expect(catalogue.entries.every((e) => e.sources.length > 0 && /^[0-9a-f]{16}$/.test(e.luma))).toBe(true);
    expect(() => loadCameraHeaders(CAMERA_HEADERS_V1.file, '0'.repeat(64))).toThrow(/sha256/);
    expect(FEATURE_NAMES.length).toBe(FEATURE_SETS.v8);
    expect(FEATURE_SETS.v7 - FEATURE_SETS.v6).toBe(names.length);
    // Released models read these prefixes: appending values must never move an earlier set.
    expect(FEATURE_SETS).toEqual({ v1: 50, v2: 57, v3: 79, v4: 117, v5: 143, v6: 155, v7: 162, v8: 180 });
  });

  it('a real iPhone header with iPhone EXIF matches; Annex K q75 under the same EXIF does not; no EXIF is neutral', async () => {
    const img = await pixels();
    const header = cameraTables.find((e) => e.make === 'Apple' && e.model === 'iPhone 6')!;
    expect(header).toBeDefined();
    const asCamera = await encodeJpegWithTables(img, header, await iphoneExif('iPhone 6'));
    const cam = await runForensics({ bytes: asCamera }, v7);
    expect(at(cam.features.values, 'hdr_make_state')).toBe(1);
    expect(at(cam.features.values, 'hdr_model_known')).toBe(1);
    expect(at(cam.features.values, 'hdr_table_seen_model')).toBe(1);
    expect(at(cam.features.values, 'hdr_family_seen_make')).toBe(1);

    // An editor keeps the EXIF and writes libjpeg's tables at quality 75: Apple never wrote Annex K
    // in the catalogue, and q75 is coarser than any Apple table there.
    const edited = await sharp(asCamera).jpeg({ quality: 75 }).withExif({ IFD0: { Make: 'Apple', Model: 'iPhone 6' } }).toBuffer();
    const ed = await runForensics({ bytes: edited }, v7);
    expect(at(ed.features.values, 'hdr_make_state')).toBe(1);
    expect(at(ed.features.values, 'hdr_table_seen_make')).toBe(0);
    expect(at(ed.features.values, 'hdr_family_seen_make')).toBe(0);
    expect(at(ed.features.values, 'hdr_coarser_than_make')).toBeGreaterThan(0.3);

    const stripped = await runForensics({ bytes: await sharp(asCamera).jpeg({ quality: 75 }).toBuffer() }, v7);
    expect(Array.from(stripped.features.values.slice(FEATURE_SETS.v6, FEATURE_SETS.v7))).toEqual([-1, 0, -1, -1, -1, 0, 0]);
  });

  it('leaving the contributing sources out turns a known table into an unseen one (training rows never find their own source)', async () => {
    const header = cameraTables.find((e) => e.make === 'Apple' && e.model === 'iPhone 6')!;
    const key = lumaKey(header.luma);
    const own = catalogue.entries.filter((e) => e.make === 'apple' && e.luma === key).flatMap((e) => e.sources);
    expect(own.length).toBeGreaterThan(0);
    const claimed = { make: 'Apple', model: 'iPhone 6' };
    expect(headerFeatures(catalogue, claimed, header.luma)[names.indexOf('hdr_table_seen_make')]).toBe(1);
    const loo = headerFeatures(catalogue, claimed, header.luma, own);
    expect(loo[names.indexOf('hdr_table_seen_make')]).toBe(0);
    expect(loo[names.indexOf('hdr_make_state')]).toBe(1); // other Apple files remain
    // A make the catalogue never saw is no claim to check (neutral, as without EXIF), not a mismatch.
    expect(headerFeatures(catalogue, { make: 'NoSuchMaker', model: 'X' }, header.luma)).toEqual([-1, 0, -1, -1, -1, 0, 0]);
  });
});
