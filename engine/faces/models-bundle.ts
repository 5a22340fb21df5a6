import { YuNetDetector } from './detector.js';
import { EyeModel } from './eyes.js';
import { FaceMeshModel } from './facemesh.js';
import { LandmarkModel } from './landmarks.js';
import { loadPinnedModel, type LoadedModel } from './models.js';
import { PresentationAttackDetector } from './pad.js';
import { createFrFeatureRecognizer, createSFaceRecognizer, type FaceRecognizer } from './recognizer.js';
import type { FaceEngineSettings } from './settings.js';
import type { TModelStamp } from '../../domain/checks.js';

/** Every model the face engine uses, each loaded once and verified against its pin. */
export interface FaceModels {
  detector: YuNetDetector;
  frameDetector: YuNetDetector;
  landmarks: LandmarkModel;
  eyes: EyeModel;
  pad: PresentationAttackDetector;
  recognizer: FaceRecognizer;
  /** Loaded when the settings pin it (v2). */
  faceMesh?: FaceMeshModel;
  stamps: {
    detector: TModelStamp;
    frameDetector: TModelStamp;
    landmarks: TModelStamp;
    eye: TModelStamp;
    pad: TModelStamp[];
    recognizer: TModelStamp;
    faceMesh?: TModelStamp;
  };
  release(): Promise<void>;
}

export async function loadFaceModels(dir: string, settings: FaceEngineSettings): Promise<FaceModels> {
  const m = settings.models;
  const loaded: LoadedModel[] = [];
  const load = async (pin: NonNullable<(typeof m)[keyof typeof m]>) => {
    const model = await loadPinnedModel(dir, pin, settings.threads);
    loaded.push(model);
    return model;
  };
  try {
    const detector = await load(m.detector);
    const frameDetector = await load(m.frameDetector);
    const landmarks = await load(m.landmarks);
    const eye = await load(m.eye);
    const padV2 = await load(m.padV2);
    const padV1se = await load(m.padV1se);
    const recognizerModel = await load(m.recognizer);
    const mesh = m.faceMesh ? await load(m.faceMesh) : undefined;
    const recognizer = m.recognizer.kind === 'sface' ? createSFaceRecognizer(recognizerModel) : createFrFeatureRecognizer(recognizerModel);
    return {
      detector: new YuNetDetector(detector, settings.detectorInputSize, settings.detection),
      frameDetector: new YuNetDetector(frameDetector, settings.frameDetectorInputSize, settings.detection),
      landmarks: new LandmarkModel(landmarks),
      eyes: new EyeModel(eye),
      pad: new PresentationAttackDetector(padV2, padV1se),
      recognizer,
      ...(mesh ? { faceMesh: new FaceMeshModel(mesh) } : {}),
      stamps: {
        detector: detector.stamp,
        frameDetector: frameDetector.stamp,
        landmarks: landmarks.stamp,
        eye: eye.stamp,
        pad: [padV2.stamp, padV1se.stamp],
        recognizer: recognizerModel.stamp,
        ...(mesh ? { faceMesh: mesh.stamp } : {}),
      },
      release: async () => {
        await Promise.all(loaded.map((l) => l.session.release()));
      },
    };
  } catch (err) {
    await Promise.all(loaded.map((l) => l.session.release()));
    throw err;
  }
}
