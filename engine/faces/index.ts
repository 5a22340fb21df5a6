import { unavailableOutcome, type TCheckOutcome } from '../../domain/checks.js';
import type { TLivenessChallenge, TLivenessFrameMeta } from '../../domain/liveness.js';
import { modelsDir } from '../assets.js';
import { FACE_MATCH_COMPONENT, matchFaces } from './face-match.js';
import { evaluateLiveness, LIVENESS_COMPONENT } from './liveness.js';
import { loadFaceModels } from './models-bundle.js';
import { DEFAULT_FACE_SETTINGS, ZFaceEngineSettings, type FaceEngineSettings } from './settings.js';

export { FaceModelUnavailableError } from './models.js';
export { CURRENT_FACE_SETTINGS, DEFAULT_FACE_SETTINGS, FACE_SETTINGS_V2, FACE_SETTINGS_V3, FACE_SETTINGS_V4, FACE_SETTINGS_V5, FACE_SETTINGS_V6, FACE_SETTINGS_V9, SFACE_RECOGNIZER_PIN, PRINT_RIGIDITY_EXPERIMENT, TURN_IDENTITY_EXPERIMENT, ZFaceEngineSettings, type FaceEngineSettings } from './settings.js';

export interface FaceEngine {
  readonly settings: FaceEngineSettings;
  evaluateLiveness(input: { frames: { image: Buffer; meta: TLivenessFrameMeta }[]; challenge: TLivenessChallenge; now: Date }): Promise<{ outcome: TCheckOutcome; bestFrame?: Buffer }>;
  matchFaces(input: { selfie: Buffer; document: Buffer; portraitBox?: { x: number; y: number; width: number; height: number } }): Promise<TCheckOutcome>;
  close(): Promise<void>;
}

/**
 * Loads every model once (sha256-verified) and returns the engine. Throws
 * `FaceModelUnavailableError` when a model is missing or altered: the activity turns that into
 * an `unavailable` outcome (reason `liveness_unavailable`), never a pass.
 * Calls are serialised: one ONNX session per model is shared, and the worker runs one vision
 * activity per engine at a time on its 2 cores anyway.
 */
export async function createFaceEngine(settings: FaceEngineSettings = DEFAULT_FACE_SETTINGS, dir: string = modelsDir()): Promise<FaceEngine> {
  const parsed = ZFaceEngineSettings.parse(settings);
  const models = await loadFaceModels(dir, parsed);
  let queue: Promise<unknown> = Promise.resolve();
  let closed = false;
  const serial = <T>(fn: () => Promise<T>): Promise<T> => {
    if (closed) return Promise.reject(new Error('face engine is closed'));
    const next = queue.then(fn, fn);
    queue = next.catch(() => undefined);
    return next;
  };
  return {
    settings: parsed,
    evaluateLiveness: (input) => serial(() => evaluateLiveness(models, parsed, input)),
    matchFaces: (input) => serial(() => matchFaces(models, parsed, input)),
    close: async () => {
      closed = true;
      await queue;
      await models.release();
    },
  };
}

/** The outcomes an activity returns when `createFaceEngine` failed (models missing or altered). */
export function faceChecksUnavailable(detail: string): { liveness: TCheckOutcome; faceMatch: TCheckOutcome } {
  return {
    liveness: unavailableOutcome('liveness', LIVENESS_COMPONENT, 'liveness_unavailable', detail),
    faceMatch: unavailableOutcome('face_match', FACE_MATCH_COMPONENT, 'liveness_unavailable', detail),
  };
}
