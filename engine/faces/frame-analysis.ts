import type { FaceModels } from './models-bundle.js';
import type { DetectedFace } from './detector.js';
import { eyeAspectRatio, type EyeState } from './eyes.js';
import { estimatePose, estimateRigid68Pose, estimateRigidPose, type HeadPose } from './pose.js';
import type { MeshPoint } from './facemesh.js';
import type { Box, Point, RgbImage } from './image.js';

export interface FaceObservation {
  box: Box;
  score: number;
  fivePoints: Point[];
  landmarks: Point[];
  pose: HeadPose;
  eyes: EyeState;
  /** Mean linear-light RGB of the cheeks-and-nose patch (what the screen lights). */
  skinRgb: [number, number, number];
  /** Variance of a Laplacian on the face, to prefer sharp frames. */
  sharpness: number;
  /** Distance between the eye centres in pixels, the unit for landmark motion. */
  eyeDistance: number;
  /** v2: the 468-point mesh; `pose` then comes from its rigid points and `pose68` keeps the old fit. */
  mesh?: MeshPoint[];
  pose68?: HeadPose;
  /** v5: the mesh's face-presence probability (tracking is lost below a bound). */
  meshPresence?: number;
}

export interface FrameAnalysis {
  width: number;
  height: number;
  /** The largest face, if any. */
  face?: FaceObservation;
  /** Faces other than the largest whose area is at least `minAreaRatio` of it. */
  otherFaces: number;
}

// sRGB → linear lookup: light adds in linear space, so the colour response is measured there.
const LINEAR = Float64Array.from({ length: 256 }, (_, v) => {
  const c = v / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
});

function meanLinear(img: RgbImage, x0: number, y0: number, x1: number, y1: number): [number, number, number] {
  const sum = [0, 0, 0];
  let n = 0;
  const xa = Math.max(0, Math.floor(x0)), xb = Math.min(img.width, Math.ceil(x1));
  const ya = Math.max(0, Math.floor(y0)), yb = Math.min(img.height, Math.ceil(y1));
  for (let y = ya; y < yb; y++) {
    for (let x = xa; x < xb; x++) {
      const i = (y * img.width + x) * 3;
      sum[0]! += LINEAR[img.data[i]!]!;
      sum[1]! += LINEAR[img.data[i + 1]!]!;
      sum[2]! += LINEAR[img.data[i + 2]!]!;
      n++;
    }
  }
  return n ? [sum[0]! / n, sum[1]! / n, sum[2]! / n] : [0, 0, 0];
}

export function laplacianVariance(img: RgbImage, box: Box): number {
  const x0 = Math.max(1, Math.floor(box.x)), x1 = Math.min(img.width - 1, Math.ceil(box.x + box.width));
  const y0 = Math.max(1, Math.floor(box.y)), y1 = Math.min(img.height - 1, Math.ceil(box.y + box.height));
  const step = Math.max(1, Math.floor((x1 - x0) / 96));
  // The green channel read by index from the row's start (no per-pixel closure and multiply: this
  // runs on every liveness frame). Integer sums, so the same value (frame-analysis.test.ts).
  const d = img.data, up = 3 * img.width;
  let s = 0, s2 = 0, n = 0;
  for (let y = y0; y < y1; y += step) {
    const row = y * img.width;
    for (let x = x0; x < x1; x += step) {
      const i = (row + x) * 3 + 1;
      const l = 4 * d[i]! - d[i - 3]! - d[i + 3]! - d[i - up]! - d[i + up]!;
      s += l; s2 += l * l; n++;
    }
  }
  return n ? s2 / n - (s / n) ** 2 : 0;
}

export function skinPatch(landmarks: Point[]): Box {
  // Between the outer eye corners, from below the eyes to the upper lip: cheeks and nose,
  // the part of the face that faces the screen and is rarely covered by hair or glasses.
  const x0 = landmarks[36]![0], x1 = landmarks[45]![0];
  const y0 = Math.max(landmarks[41]![1], landmarks[46]![1]);
  const y1 = landmarks[51]![1];
  const pad = 0.1 * (x1 - x0);
  return { x: Math.min(x0, x1) + pad, y: y0 + pad, width: Math.max(1, Math.abs(x1 - x0) - 2 * pad), height: Math.max(1, y1 - y0 - pad) };
}

export interface ObserveOptions {
  mesh?: boolean;
  /**
   * v5: false skips the eye classifier (`eyes.closed` is NaN until the caller fills it): the blink
   * rule reads it only on frames near the neutral pose, which are known once every frame is seen.
   */
  eyes?: boolean;
  /**
   * v5: the box was tracked from the previous frame, not detected: the five points and the mesh's
   * roll then come from this frame's 68 landmarks instead of the detector's points.
   */
  tracked?: boolean;
  /** v6: the pose from the rigid 68-point subset (the mesh, if `mesh` asks for it, is then read for nothing else but the eyes). */
  rigid68?: boolean;
}

/** The detector's five points (eyes, nose tip, mouth corners) as the 68-point model places them. */
export function fivePointsFrom68(landmarks: Point[]): DetectedFace['landmarks'] {
  const centre = (first: number): Point => [0, 1, 2, 3, 4, 5].reduce<Point>((s, k) => [s[0] + landmarks[first + k]![0] / 6, s[1] + landmarks[first + k]![1] / 6], [0, 0]);
  return [centre(36), centre(42), landmarks[30]!, landmarks[48]!, landmarks[54]!];
}

export async function observeFace(models: FaceModels, img: RgbImage, face: DetectedFace, opts: ObserveOptions = {}): Promise<FaceObservation> {
  const landmarks = await models.landmarks.predict(img, face.box);
  const fivePoints = opts.tracked ? fivePointsFrom68(landmarks) : face.landmarks;
  const meshOut = opts.mesh && models.faceMesh ? await models.faceMesh.predict(img, face.box, fivePoints[0], fivePoints[1]) : undefined;
  const mesh = meshOut?.points;
  const pose68 = estimatePose(landmarks);
  const eyes = opts.eyes === false ? { closed: Number.NaN, ear: (eyeAspectRatio(landmarks, 36) + eyeAspectRatio(landmarks, 42)) / 2 } : await models.eyes.state(img, landmarks);
  const patch = skinPatch(landmarks);
  const eyeCentre = (first: number): Point => {
    const idx = [0, 1, 2, 3, 4, 5].map((k) => first + k);
    return [idx.reduce((s, i) => s + landmarks[i]![0], 0) / 6, idx.reduce((s, i) => s + landmarks[i]![1], 0) / 6];
  };
  const le = eyeCentre(36), re = eyeCentre(42);
  return {
    box: face.box,
    score: face.score,
    fivePoints,
    landmarks,
    pose: opts.rigid68 ? estimateRigid68Pose(landmarks) : mesh ? estimateRigidPose(mesh) : pose68,
    ...(mesh ? { mesh, pose68 } : opts.rigid68 ? { pose68 } : {}),
    ...(meshOut && (opts.tracked || opts.eyes === false) ? { meshPresence: meshOut.presence } : {}),
    eyes,
    skinRgb: meanLinear(img, patch.x, patch.y, patch.x + patch.width, patch.y + patch.height),
    // (A mean colour of the frame around the face was computed here for every frame and read by
    // nothing: a full-frame pass per liveness frame, removed.)
    sharpness: laplacianVariance(img, face.box),
    eyeDistance: Math.hypot(re[0] - le[0], re[1] - le[1]),
  };
}

/** Detection with the largest-face rule, then landmarks, pose, eyes and colour on that face. */
export async function analyseFrame(models: FaceModels, img: RgbImage, minAreaRatio: number, opts: ObserveOptions = {}): Promise<FrameAnalysis> {
  const faces = await models.frameDetector.detect(img);
  const [largest, ...rest] = faces;
  if (!largest) return { width: img.width, height: img.height, otherFaces: 0 };
  const area = (b: Box) => b.width * b.height;
  const otherFaces = rest.filter((f) => area(f.box) >= minAreaRatio * area(largest.box)).length;
  return { width: img.width, height: img.height, face: await observeFace(models, img, largest, opts), otherFaces };
}
