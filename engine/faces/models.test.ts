import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { modelsDir } from '../assets.js';
import { createFaceEngine, DEFAULT_FACE_SETTINGS, faceChecksUnavailable, FaceModelUnavailableError } from './index.js';

describe('model loading', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'faces-models-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('fails with a clear error when the models are missing', async () => {
    await expect(createFaceEngine(DEFAULT_FACE_SETTINGS, dir)).rejects.toThrow(FaceModelUnavailableError);
    await expect(createFaceEngine(DEFAULT_FACE_SETTINGS, dir)).rejects.toThrow(/yunet_s_640_640\.onnx not found/);
  });

  it('gives the activity unavailable outcomes, never a pass', async () => {
    const error = await createFaceEngine(DEFAULT_FACE_SETTINGS, dir).catch((e: Error) => e);
    const { liveness, faceMatch } = faceChecksUnavailable((error as Error).message);
    expect(liveness).toMatchObject({ check: 'liveness', status: 'unavailable', reasons: ['liveness_unavailable'], score: null });
    expect(faceMatch).toMatchObject({ check: 'face_match', status: 'unavailable' });
  });

  it('refuses a model whose bytes differ from its pin', async () => {
    for (const pin of Object.values(DEFAULT_FACE_SETTINGS.models)) await copyFile(path.join(modelsDir(), pin.file), path.join(dir, pin.file));
    await writeFile(path.join(dir, DEFAULT_FACE_SETTINGS.models.eye.file), Buffer.from('tampered'));
    await expect(createFaceEngine(DEFAULT_FACE_SETTINGS, dir)).rejects.toThrow(/fr_eye\.onnx has sha256 [0-9a-f]{64}, expected 1afcea/);
  });

  it('rejects settings that do not parse', async () => {
    await expect(createFaceEngine({ ...DEFAULT_FACE_SETTINGS, threads: 0 })).rejects.toThrow();
  });

  it('loads the pinned models and closes', async () => {
    const engine = await createFaceEngine();
    await engine.close();
    await expect(engine.matchFaces({ selfie: Buffer.alloc(0), document: Buffer.alloc(0) })).rejects.toThrow(/closed/);
  });
});
