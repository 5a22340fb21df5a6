import { YuNetDetector } from './detector.js';
import { decodeImage } from './image.js';
import { loadPinnedModel } from './models.js';
import { CURRENT_FACE_SETTINGS, type FaceEngineSettings } from './settings.js';

/**
 * The hosted page's live preview check (issue 14 item 4): how many faces a small preview frame
 * shows, and where the largest face's nose sits between its eyes and mouth — enough for the page
 * to say "several faces" and "step not yet done". Advice only: nothing here is evidence, stored or
 * stamped; the Case's liveness check runs in full on the uploaded frames.
 *
 * One YuNet run (the frame detector of the liveness check, 320 px) on a frame of at most
 * `PREVIEW_MAX_SIDE` px. The five points give two ratios that move with the head and not with
 * distance: `yaw` = horizontal offset of the nose from the eyes' midpoint over the eye distance
 * (0 frontal; image-left negative), `pitch` = vertical position of the nose between the eye line
 * and the mouth line (≈ 0.5 frontal for most faces; up-down nods move it). The page compares them
 * with their own values during the straight look, never with a fixed pose.
 */
export const PREVIEW_MAX_SIDE = 320;

export interface PreviewFaces {
  /** Faces whose area is at least `multiFace.minAreaRatio` of the largest one's (the liveness check's rule). */
  faces: number;
  face: { yaw: number; pitch: number; size: number } | null;
}

export interface FacePreviewModel {
  detect(image: Uint8Array): Promise<PreviewFaces>;
  release(): Promise<void>;
}

export async function loadFacePreviewModel(modelsDir: string, settings: FaceEngineSettings = CURRENT_FACE_SETTINGS): Promise<FacePreviewModel> {
  const model = await loadPinnedModel(modelsDir, settings.models.frameDetector, 1);
  const detector = new YuNetDetector(model, settings.frameDetectorInputSize, settings.detection);
  return {
    async detect(bytes) {
      const img = await decodeImage(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length), PREVIEW_MAX_SIDE);
      const found = await detector.detect(img);
      const [largest] = found;
      if (!largest) return { faces: 0, face: null };
      const area = (f: (typeof found)[number]) => f.box.width * f.box.height;
      const faces = found.filter((f) => area(f) >= settings.multiFace.minAreaRatio * area(largest)).length;
      const [[lex, ley], [rex, rey], [nx, ny], [, mly], [, mry]] = largest.landmarks;
      const eyeDist = Math.hypot(rex - lex, rey - ley);
      const eyeY = (ley + rey) / 2, mouthY = (mly + mry) / 2;
      const round = (v: number) => Math.round(v * 1000) / 1000;
      return {
        faces,
        face: eyeDist > 0 && mouthY > eyeY
          ? { yaw: round((nx - (lex + rex) / 2) / eyeDist), pitch: round((ny - eyeY) / (mouthY - eyeY)), size: round(largest.box.width / img.width) }
          : null,
      };
    },
    async release() {
      await model.session.release();
    },
  };
}
