import type { TCheckOutcome } from '../../domain/checks.js';
import type { DetectedFace } from './detector.js';
import { cropImage, decodeImage, scaleBox, type Box, type RgbImage } from './image.js';
import type { FaceModels } from './models-bundle.js';
import { cosineSimilarity } from './recognizer.js';
import type { FaceEngineSettings } from './settings.js';

export const FACE_MATCH_COMPONENT = 'face-engine@1';

export interface FaceMatchInput {
  selfie: Buffer;
  document: Buffer;
  /** Where the document engine found the portrait, in the document image's pixels, if it did. */
  portraitBox?: Box;
}

interface FoundFace {
  img: RgbImage;
  face: DetectedFace;
  others: number;
}

const round = (v: number) => Math.round(v * 1000) / 1000;

/** Largest face, plus how many other faces of comparable size the image holds. */
async function largestFace(models: FaceModels, img: RgbImage, minAreaRatio: number): Promise<FoundFace | undefined> {
  const faces = await models.detector.detect(img);
  const [face, ...rest] = faces;
  if (!face) return undefined;
  const area = (b: Box) => b.width * b.height;
  return { img, face, others: rest.filter((f) => area(f.box) >= minAreaRatio * area(face.box)).length };
}

/**
 * The document's portrait: inside `portraitBox` (with margin, the detector needs context) when
 * given, else the largest face on the whole page. Ghost images and secondary portraits are
 * smaller than the main portrait, so the largest face rule picks the right one; they are not a
 * multi-face signal on a document.
 */
async function documentFace(models: FaceModels, settings: FaceEngineSettings, input: FaceMatchInput): Promise<FoundFace | undefined> {
  if (input.portraitBox) {
    // The box is in the original's pixels: crop at full resolution so a small portrait keeps its detail.
    const full = await decodeImage(input.document, 20_000);
    const found = await largestFace(models, cropImage(full, scaleBox(input.portraitBox, 1.6)), 1);
    if (found) return found;
  }
  return largestFace(models, await decodeImage(input.document, settings.documentMaxSide), 1);
}

export async function matchFaces(models: FaceModels, settings: FaceEngineSettings, input: FaceMatchInput): Promise<TCheckOutcome> {
  const started = performance.now();
  const stamps = [models.stamps.detector, models.stamps.recognizer];
  const evidence: Record<string, unknown> = { settings_version: settings.version, threshold: settings.match.threshold };
  const done = (status: TCheckOutcome['status'], reasons: string[], score: number | null): TCheckOutcome => ({
    check: 'face_match',
    status,
    reasons,
    score,
    component: FACE_MATCH_COMPONENT,
    models: stamps,
    evidence,
    duration_ms: Math.round(performance.now() - started),
  });

  let selfieImg: RgbImage;
  try {
    selfieImg = await decodeImage(input.selfie, settings.selfieMaxSide);
  } catch {
    evidence.detail = 'selfie image unreadable';
    return done('review', ['no_face_detected'], null);
  }
  const selfie = await largestFace(models, selfieImg, settings.multiFace.minAreaRatio);
  let doc: FoundFace | undefined;
  try {
    doc = await documentFace(models, settings, input);
  } catch {
    evidence.detail = 'document image unreadable';
  }
  evidence.selfie_face = selfie ? { score: round(selfie.face.score), other_faces: selfie.others } : null;
  evidence.document_face = doc ? { score: round(doc.face.score), box_px: Math.round(doc.face.box.width) } : null;
  const reasons: string[] = [];
  if (!selfie) reasons.push('no_face_detected');
  if (!doc) reasons.push('no_face_on_document');
  if (!selfie || !doc) return done('review', reasons, null);

  const a = await models.recognizer.embed(selfie.img, selfie.face.landmarks);
  const b = await models.recognizer.embed(doc.img, doc.face.landmarks);
  const similarity = cosineSimilarity(a, b);
  evidence.similarity = round(similarity);
  // v2: how far the decision sits from the threshold (negative: below it), so a reviewer sees a
  // thin margin; older settings keep their evidence as released.
  if (settings.v2) evidence.margin = round(similarity - settings.match.threshold);
  // v3: a review band below the threshold (calibrated at FAR 0.1 %): the reviewer sees where it starts.
  if (settings.match.reviewBelow < settings.match.threshold) evidence.review_below = settings.match.reviewBelow;
  // Two people of comparable size in the selfie: the largest may not be the applicant.
  if (selfie.others > 0) reasons.push('multiple_faces');
  let status: TCheckOutcome['status'];
  if (similarity >= settings.match.threshold) status = reasons.length ? 'review' : 'passed';
  else if (similarity >= settings.match.reviewBelow) status = 'review';
  else status = 'failed';
  if (similarity < settings.match.threshold) reasons.unshift('face_mismatch');
  return done(status, reasons, round(Math.max(0, similarity)));
}

/** Embedding of the largest face in an image (as `compareImages` sees it); null when there is none. For the CLI and the bench. */
export async function embedLargestFace(models: FaceModels, settings: FaceEngineSettings, image: Buffer | string): Promise<Float32Array | null> {
  const found = await largestFace(models, await decodeImage(image, settings.documentMaxSide), 1);
  return found ? models.recognizer.embed(found.img, found.face.landmarks) : null;
}

/** Embedding of the portrait on a document, as `matchFaces` finds it; null when there is none. For the bench. */
export async function embedDocumentFace(models: FaceModels, settings: FaceEngineSettings, document: Buffer, portraitBox?: Box): Promise<Float32Array | null> {
  const found = await documentFace(models, settings, { selfie: document, document, portraitBox });
  return found ? models.recognizer.embed(found.img, found.face.landmarks) : null;
}

/** Similarity of the largest faces in two images, for the CLI and the bench; null when a face is missing. */
export async function compareImages(models: FaceModels, settings: FaceEngineSettings, a: Buffer | string, b: Buffer | string): Promise<number | null> {
  const ea = await embedLargestFace(models, settings, a);
  const eb = await embedLargestFace(models, settings, b);
  return ea && eb ? cosineSimilarity(ea, eb) : null;
}
