import type { TLivenessFrameMeta } from '../../domain/liveness.js';
import type { DetectedFace } from './detector.js';
import { eyeGain } from './eyes.js';
import { observeFace, type FaceObservation } from './frame-analysis.js';
import { boxIou, decodeAhead, type Box, type Point, type RgbImage } from './image.js';
import type { FaceModels } from './models-bundle.js';
import type { FaceEngineSettings, LivenessV2Settings } from './settings.js';

export type TrackingSettings = NonNullable<LivenessV2Settings['tracking']>;

export interface TrackedFrame {
  index: number;
  timestampMs: number;
  face: FaceObservation;
  img: RgbImage;
  /** Comparable other faces; counted on detected frames only (a tracked frame cannot see them). */
  otherFaces: number;
  /** Whether the frame detector ran on this frame (else its box followed the previous frame). */
  detected: boolean;
}

/**
 * Where the detector's box sits relative to the eyes' midpoint (pixels), and its size. The eyes
 * are rigid with the skull, so the offset holds while the head moves; the size is the last
 * detection's (a face's size barely changes between two detections a few frames apart). Tried and
 * rejected on the tuning clips: the centroid and spread of all 68 points, which drift with the jaw
 * line on turns and gave more spurious blink dips (engine/faces/README.md "Liveness v5").
 */
interface BoxRelation {
  dx: number;
  dy: number;
  w: number;
  h: number;
}

function eyesMidpoint(landmarks: Point[]): Point {
  let cx = 0, cy = 0;
  for (let i = 36; i < 48; i++) {
    cx += landmarks[i]![0] / 12;
    cy += landmarks[i]![1] / 12;
  }
  return [cx, cy];
}

export function relationOf(box: Box, landmarks: Point[]): BoxRelation {
  const [cx, cy] = eyesMidpoint(landmarks);
  return { dx: box.x + box.width / 2 - cx, dy: box.y + box.height / 2 - cy, w: box.width, h: box.height };
}

export function boxFrom(landmarks: Point[], rel: BoxRelation): Box {
  const [cx, cy] = eyesMidpoint(landmarks);
  return { x: cx + rel.dx - rel.w / 2, y: cy + rel.dy - rel.h / 2, width: rel.w, height: rel.h };
}

/**
 * Liveness v5's frame loop: decode, then the detector on every `detectEvery`-th frame and
 * whenever tracking is lost; on the frames between, the box follows the previous frame's
 * landmarks (at 10–15 fps a head moves a fraction of its size from one frame to the next, and
 * the landmark and mesh crops are 1–1.5 × the box). Each frame is still observed in full
 * (landmarks, mesh pose, skin colour, sharpness), so every step is judged on every frame of its slot.
 */
export async function trackFrames(
  models: FaceModels,
  settings: FaceEngineSettings,
  t: TrackingSettings,
  ordered: { image: Buffer; meta: TLivenessFrameMeta; index: number }[],
): Promise<{ frames: TrackedFrame[]; undecodable: number; detections: number; lost: number }> {
  const frames: TrackedFrame[] = [];
  let undecodable = 0, detections = 0, lost = 0;
  const rigid68 = settings.v2?.pose === 'landmarks_rigid';
  const mesh = !rigid68 || settings.v2?.blink.meshEarDip !== undefined;
  let track: { rel: BoxRelation; score: number; landmarks: Point[]; age: number } | undefined;
  for await (const [f, decoded] of decodeAhead(ordered, settings.frameMaxSide)) {
    if (!decoded) {
      undecodable++;
      track = undefined;
      continue;
    }
    const img: RgbImage = decoded;
    let face: FaceObservation | undefined;
    let detected = false;
    let otherFaces = 0;
    if (track && track.age < t.detectEvery) {
      // The previous frame's box finds this frame's landmarks; the box they imply is where the
      // face is now (no one-frame lag, which would shift the landmark crop with the motion and
      // make eye openness jitter), and the frame is observed in full on that box.
      const seed = boxFrom(track.landmarks, track.rel);
      const box = t.refine ? boxFrom(await models.landmarks.predict(img, seed), track.rel) : seed;
      const pseudo: DetectedFace = { box, score: track.score, landmarks: [[0, 0], [0, 0], [0, 0], [0, 0], [0, 0]] };
      const obs = await observeFace(models, img, pseudo, { mesh, eyes: false, tracked: true, rigid68 });
      // Without the mesh (pose from the 68 points) there is no presence probability: the overlap decides.
      const held = ((!mesh && rigid68) || (obs.meshPresence ?? 0) >= t.minMeshPresence) && boxIou(boxFrom(obs.landmarks, track.rel), box) >= t.minTrackIou;
      if (held) face = obs;
      else lost++;
    }
    if (face) track!.age++;
    else {
      detections++;
      detected = true;
      const faces = await models.frameDetector.detect(img);
      const [largest, ...rest] = faces;
      if (largest) {
        const area = (b: Box) => b.width * b.height;
        otherFaces = rest.filter((o) => area(o.box) >= settings.multiFace.minAreaRatio * area(largest.box)).length;
        face = await observeFace(models, img, largest, { mesh, eyes: false, rigid68 });
        track = { rel: relationOf(largest.box, face.landmarks), score: largest.score, landmarks: face.landmarks, age: 1 };
      } else track = undefined;
    }
    if (!face) continue;
    track!.landmarks = face.landmarks;
    frames.push({ index: f.index, timestampMs: f.meta.timestamp_ms, face, img, otherFaces, detected });
  }
  return { frames, undecodable, detections, lost };
}

/**
 * A tracked frame about to be read by a model trained on detector output (PAD crops, recognizer
 * alignment): detect it, and take the detector's box, points and score for the face that overlaps
 * the tracked one most. Returns the frame unchanged when it was detected or nothing overlaps.
 */
export async function redetect<F extends { face: FaceObservation; img: RgbImage; detected?: boolean }>(models: FaceModels, frame: F): Promise<F> {
  if (frame.detected !== false) return frame;
  const faces = await models.frameDetector.detect(frame.img);
  const best = faces.map((d) => ({ d, iou: boxIou(d.box, frame.face.box) })).sort((p, q) => q.iou - p.iou)[0];
  if (!best || best.iou <= 0) return frame;
  return { ...frame, detected: true, face: { ...frame.face, box: best.d.box, score: best.d.score, fivePoints: best.d.landmarks } };
}

/** Fills the eye classifier's P(closed) on the frames that need it (the blink rule reads near-neutral frames only). */
export async function fillEyes(models: FaceModels, frames: { face: FaceObservation; img: RgbImage }[], gain?: { targetLuma: number; maxGain: number }, each = false): Promise<void> {
  for (const f of frames) if (Number.isNaN(f.face.eyes.closed)) f.face.eyes = await models.eyes.state(f.img, f.face.landmarks, gain ? eyeGain(f.face.skinRgb, gain.targetLuma, gain.maxGain) : 1, each);
}
