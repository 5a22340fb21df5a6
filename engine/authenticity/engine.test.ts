import { copyFile, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZCheckOutcome } from '../../domain/checks.js';
import { generateSample } from '../../tools/authenticity/attacks/index.js';
import { ATTACK_LABELS, type DocumentImage, type SampleLabel } from '../../tools/authenticity/attacks/types.js';
import { FEATURE_NAMES, FEATURE_SETS } from './features.js';
import { AUTHENTICITY_SETTINGS_V1, AUTHENTICITY_SETTINGS_V2, AUTHENTICITY_SETTINGS_V3, AUTHENTICITY_SETTINGS_V4, AuthenticityError, createAuthenticityEngine, type AuthenticityEngine } from './index.js';
import { MODEL_DIR } from './model/classifier.js';
import { facesForSplit, renderCard } from '../../tools/authenticity/training/render-card.js';
import { createRng } from '../../tools/authenticity/training/rng.js';

// This suite pins settings v4 (engine profile ep-2026.11-4, still run for Cases stamped with it)
// on generated documents; settings v5 (current) and real images are tested in v5.test.ts.
const DEFAULT_AUTHENTICITY_SETTINGS = AUTHENTICITY_SETTINGS_V4;
// Held-out portraits and a seed the training corpus never used.
const SEED = 424242;
const CAPTURED = new Date('2026-11-02T09:30:00Z');
const faces = facesForSplit('test');
let engine: AuthenticityEngine;
const cards: DocumentImage[] = [];

async function sample(doc: number, label: SampleLabel) {
  const rng = createRng(SEED).fork(`${doc}-${label}`);
  return generateSample(cards[doc]!, label, rng, { capturedAt: CAPTURED, donorFacePath: faces[(doc + 1) % faces.length] });
}

async function analyze(bytes: Buffer, zones?: DocumentImage['zones']) {
  const out = await engine.analyze({
    bytes,
    kind: 'document_front',
    zones,
    sessionStartedAt: new Date(CAPTURED.getTime() - 60_000),
    submittedAt: new Date(CAPTURED.getTime() + 60_000),
  });
  return ZCheckOutcome.parse(out);
}

beforeAll(async () => {
  engine = await createAuthenticityEngine(DEFAULT_AUTHENTICITY_SETTINGS);
  for (let d = 0; d < 3; d++) cards.push(await renderCard(createRng(SEED).fork(`card-${d}`), faces));
});
afterAll(async () => engine?.close());

const signalsOf = (o: { evidence: Record<string, unknown> }) => o.evidence.signals as { code: string; strength: string; evidence: Record<string, unknown> }[];

describe('authenticity engine', () => {
  it('passes clean camera-like captures and stamps the verified model', async () => {
    const statuses: string[] = [];
    for (let d = 0; d < 3; d++) {
      const s = await sample(d, 'clean');
      const out = await analyze(s.bytes, s.zones);
      expect(out.check).toBe('authenticity');
      expect(out.models).toEqual([{ name: DEFAULT_AUTHENTICITY_SETTINGS.model.name, sha256: DEFAULT_AUTHENTICITY_SETTINGS.model.sha256 }]);
      statuses.push(out.status);
    }
    expect(statuses.filter((s) => s === 'passed').length).toBeGreaterThanOrEqual(2);
  });

  it('flags an editor re-save that carries a Software tag', async () => {
    const s = await sample(0, 'clean');
    const resaved = await sharp(s.bytes)
      .jpeg({ quality: 82 })
      .withExif({ IFD0: { Make: 'samsung', Model: 'SM-A546B', Software: 'Adobe Photoshop 25.1 (Windows)' } } as never)
      .toBuffer();
    const out = await analyze(resaved);
    expect(out.status).toBe('failed');
    expect(out.reasons).toContain('editing_software_detected');
    // Settings v4: a failed result never scores below the model's own strong threshold.
    expect(out.score).toBeGreaterThanOrEqual(DEFAULT_AUTHENTICITY_SETTINGS.modelStrongThreshold);
  });

  it('names quantisation tables that cameras do not write, even at a camera quality and with no metadata (settings v4)', async () => {
    const s = await sample(1, 'clean');
    const clean = await analyze(s.bytes, s.zones);
    expect(signalsOf(clean).map((x) => x.code)).not.toContain('editor_quantization_detected');
    expect((clean.evidence.metadata as Record<string, unknown>).jpeg_table_family).not.toBe('unknown');
    const resaved = await sharp(s.bytes).jpeg({ quality: 93, quantisationTable: 6 }).toBuffer();
    const flagged = await analyze(resaved, s.zones);
    expect(signalsOf(flagged).find((x) => x.code === 'editor_quantization_detected')).toMatchObject({
      strength: 'strong',
      evidence: { table_family: 'watson_taylor_borthwick', luma_quality: 93 },
    });
    expect(flagged.status).toBe('failed');
    expect(flagged.score).toBeGreaterThanOrEqual(DEFAULT_AUTHENTICITY_SETTINGS.modelStrongThreshold);
    // Settings v3 never look at the family.
    const v3 = await createAuthenticityEngine(AUTHENTICITY_SETTINGS_V3);
    try {
      const old = await v3.analyze({ bytes: resaved, kind: 'document_front', zones: s.zones });
      expect(JSON.stringify(old.evidence.signals)).not.toContain('editor_quantization_detected');
    } finally {
      await v3.close();
    }
  });

  it('calls a crop between two saves a strong double compression, with the first grid’s phase (settings v3)', async () => {
    const s = await sample(2, 'clean');
    // The first save is ours (quality 85), so the test does not depend on the sampled camera quality.
    const { data, info } = await sharp(await sharp(s.bytes).jpeg({ quality: 85 }).toBuffer()).raw().toBuffer({ resolveWithObject: true });
    const cropped = await sharp(data, { raw: { width: info.width, height: info.height, channels: 3 } })
      .extract({ left: 3, top: 5, width: info.width - 10, height: info.height - 12 })
      .jpeg({ quality: 97 })
      .toBuffer();
    const out = await analyze(cropped);
    const found = (out.evidence.signals as { code: string; strength: string; evidence: Record<string, unknown> }[]).find(
      (x) => x.code === 'double_compression_detected' && x.evidence.aligned === false,
    );
    expect(found).toMatchObject({ strength: 'strong', evidence: { grid_phase: [3, 5], agreeing_frequencies: 3 } });
    expect(out.status).toBe('failed');

    // Neither the single save it came from, nor settings v2 (which never search), report it.
    const single = await analyze(s.bytes);
    expect(JSON.stringify(single.evidence.signals)).not.toContain('"aligned":false');
    const v2 = await createAuthenticityEngine(AUTHENTICITY_SETTINGS_V2);
    try {
      const old = await v2.analyze({ bytes: cropped, kind: 'document_front' });
      expect(JSON.stringify(old.evidence.signals)).not.toContain('"aligned":false');
      expect((old.evidence.forensics as { shifted_grid: unknown }).shifted_grid).toBeNull();
    } finally {
      await v2.close();
    }
  });

  for (const label of ATTACK_LABELS) {
    it(`flags generated ${label} attacks`, async () => {
      const flagged: boolean[] = [];
      for (let d = 0; d < 3; d++) {
        const s = await sample(d, label);
        const out = await analyze(s.bytes, s.zones);
        flagged.push(out.status !== 'passed');
      }
      expect(flagged.filter(Boolean).length).toBeGreaterThanOrEqual(2);
    });
  }

  it('does not let the JPEG-trained model judge a PNG: a weak not_camera_jpeg finding instead', async () => {
    for (const label of ['clean', 'edit_text'] as const) {
      const s = await sample(1, label);
      const png = await sharp(s.bytes).png().toBuffer();
      const out = await analyze(png, s.zones);
      expect(out.status).toBe('review');
      expect(out.reasons).toEqual(['not_camera_jpeg']);
      expect(out.evidence.model).toMatchObject({ applicable: false, format: 'png' });
      // The rule weight alone would say 0.15; settings v4 floor a review result at the review threshold.
      expect(out.score).toBeCloseTo(DEFAULT_AUTHENTICITY_SETTINGS.modelReviewThreshold, 3);
    }
  });

  it('keeps GPS in the evidence and out of the reasons', async () => {
    const s = await sample(1, 'clean');
    const withGps = await sharp(s.bytes)
      .withExif({
        IFD0: { Make: 'Google', Model: 'Pixel 7a' },
        IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '19/1 25/1 0/1', GPSLongitudeRef: 'W', GPSLongitude: '99/1 8/1 0/1' },
      } as never)
      .jpeg({ quality: 95 })
      .toBuffer();
    const out = await analyze(withGps);
    const metadata = out.evidence.metadata as Record<string, unknown>;
    expect(metadata.gps_present).toBe(true);
    expect(metadata.gps_latitude).toBeCloseTo(19.4167, 3);
    expect(out.reasons.join(',')).not.toMatch(/gps|location/);
  });

  it('rejects bytes that are not an image with a clear code', async () => {
    await expect(engine.analyze({ bytes: Buffer.from('%PDF-1.7 not an image'), kind: 'document_front' })).rejects.toMatchObject({
      code: 'unsupported_image_format',
    });
    const s = await sample(2, 'clean');
    await expect(engine.analyze({ bytes: s.bytes.subarray(0, 600), kind: 'document_front' })).rejects.toBeInstanceOf(AuthenticityError);
  });
});

describe('model integrity', () => {
  it('refuses a model file whose sha256 differs from the pinned one', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'authenticity-model-'));
    const file = DEFAULT_AUTHENTICITY_SETTINGS.model.file;
    await copyFile(path.join(MODEL_DIR, file), path.join(dir, file));
    const bytes = await readFile(path.join(dir, file));
    bytes[bytes.length - 10] ^= 0xff;
    await writeFile(path.join(dir, file), bytes);
    await expect(createAuthenticityEngine({ ...DEFAULT_AUTHENTICITY_SETTINGS, modelDir: dir })).rejects.toMatchObject({ code: 'model_integrity_failed' });
  });

  it.each([
    { version: '1', settings: AUTHENTICITY_SETTINGS_V1 },
    { version: '2', settings: AUTHENTICITY_SETTINGS_V2 },
    { version: '3', settings: AUTHENTICITY_SETTINGS_V3 },
  ])('still runs the released v$version settings (engine profile ep-2026.11-$version) on their feature prefix', async ({ version, settings }) => {
    const released = await createAuthenticityEngine(settings);
    try {
      const s = await sample(0, 'splice_portrait');
      const out = await released.analyze({ bytes: s.bytes, kind: 'document_front', zones: s.zones });
      expect(out.models).toEqual([{ name: settings.model.name, sha256: settings.model.sha256 }]);
      expect(out.component).toBe(`authenticity-engine@${version}`);
      const probabilities = Object.values((out.evidence.model as { probabilities: Record<string, number> }).probabilities);
      expect(probabilities.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 2);
    } finally {
      await released.close();
    }
    expect(FEATURE_SETS.v1).toBeLessThan(FEATURE_SETS.v2);
  });

  it('trains on the feature order the TypeScript extractor produces', async () => {
    const spec = JSON.parse(await readFile(path.join(MODEL_DIR, '..', '..', '..', 'tools', 'authenticity', 'training', 'feature-spec.json'), 'utf8')) as { features: string[] };
    expect(spec.features).toEqual([...FEATURE_NAMES]);
  });
});
