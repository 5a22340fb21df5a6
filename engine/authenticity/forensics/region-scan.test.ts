import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { decodeRgb } from '../../../tools/authenticity/attacks/raw.js';
import { splicePortrait } from '../../../tools/authenticity/attacks/splice-portrait.js';
import { realJpegs } from '../../../tools/authenticity/testing/real-documents.js';
import { createRng } from '../../../tools/authenticity/training/rng.js';
import { FEATURE_NAMES, FEATURE_SETS } from '../features.js';
import { runForensics } from '../forensics-pipeline.js';
import { AUTHENTICITY_SETTINGS_V4, CAMERA_HEADERS_V1 } from '../settings.js';
import { REGION_SCAN_FEATURE_NAMES } from './region-scan.js';

/**
 * Feature set v8's region scan on REAL document photographs (../shared/documents-real, read in
 * place): a region pasted from another real image (its own JPEG history, blurred, resampled) and
 * the result saved once more is where the scan's best window lies; older feature sets never run it.
 */
const V8 = { ...AUTHENTICITY_SETTINGS_V4, version: 'test', featureSet: 'v8' as const, cameraHeaders: { ...CAMERA_HEADERS_V1 } };
const V7 = { ...V8, featureSet: 'v7' as const };

const overlaps = (a: { x: number; y: number; width: number; height: number }, b: { x: number; y: number; width: number; height: number }) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

describe('region scan (feature set v8)', () => {
  it('appends its values after feature set v7 and leaves v7 unchanged', () => {
    expect(FEATURE_SETS.v7).toBe(162);
    expect(FEATURE_SETS.v8).toBe(162 + REGION_SCAN_FEATURE_NAMES.length);
    expect(FEATURE_NAMES.slice(FEATURE_SETS.v7)).toEqual([...REGION_SCAN_FEATURE_NAMES]);
  });

  it('puts its best window on a region pasted from another real image, and is zero under feature set v7', async () => {
    // Upright photographs large enough for a 32-px map with room for a region (orientation-tagged copies skipped).
    const sizes = await Promise.all(realJpegs().map(async (f) => ({ f, m: await sharp(f).metadata() })));
    const genuine = sizes.filter(({ f, m }) => !/orient[368]|rotate/.test(f) && Math.min(m.width ?? 0, m.height ?? 0) >= 600).map(({ f }) => f);
    const rng = createRng(2611);
    let found = 0, n = 0;
    for (let i = 0; i < 4; i++) {
      const file = genuine[(i * 7) % genuine.length]!;
      const donor = genuine[(i * 7 + 3) % genuine.length]!;
      const img = await decodeRgb(readFileSync(file));
      const zone = { name: 'portrait', x: Math.round(img.width * 0.55), y: Math.round(img.height * 0.3), width: Math.round(img.width * 0.28), height: Math.round(img.height * 0.4) };
      const forged = await splicePortrait({ ...img, zones: [zone] }, donor, rng.fork(`s${i}`));
      const bytes = await sharp(Buffer.from(forged.rgb), { raw: { width: forged.width, height: forged.height, channels: 3 } }).jpeg({ quality: 85 }).toBuffer();
      const r = await runForensics({ bytes }, V8);
      const scan = r.features.parts.regionScan!;
      expect(scan.features).toHaveLength(REGION_SCAN_FEATURE_NAMES.length);
      expect(Array.from(r.features.values.slice(FEATURE_SETS.v7))).toEqual(scan.features.map((v) => Math.fround(v)));
      n++;
      const w = scan.box!;
      const stored = { x: w.x + r.image.native.left, y: w.y + r.image.native.top, width: w.width, height: w.height };
      if (overlaps(stored, zone)) found++;
      if (i === 0) {
        const old = await runForensics({ bytes }, V7);
        expect(old.features.parts.regionScan).toBeNull();
        expect(Array.from(old.features.values.slice(FEATURE_SETS.v7)).every((v) => v === 0)).toBe(true);
        expect(Array.from(old.features.values.slice(0, FEATURE_SETS.v7))).toEqual(Array.from(r.features.values.slice(0, FEATURE_SETS.v7)));
      }
    }
    expect(n).toBe(4);
    expect(found).toBeGreaterThanOrEqual(3);
  });
});
