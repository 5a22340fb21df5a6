import { afterAll, beforeAll } from 'vitest';
import { modelsDir } from '../engine/assets.js';
import { loadFaceModels, type FaceModels } from '../engine/faces/models-bundle.js';
import type { FaceEngineSettings } from '../engine/faces/settings.js';

/**
 * Shared by the liveness version tests (v2, v3, v4): the real face models of one settings version,
 * loaded once per test file and released with it. The models are there from `beforeAll` on.
 */
export function useFaceModels(settings: FaceEngineSettings): () => FaceModels {
  let models: FaceModels | undefined;
  beforeAll(async () => {
    models = await loadFaceModels(modelsDir(), settings);
  });
  afterAll(async () => {
    await models?.release();
  });
  return () => models!;
}
