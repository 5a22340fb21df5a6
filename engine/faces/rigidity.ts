import { applyHomography, fitHomography, quantile } from './geometry.js';
import type { Point } from './image.js';
import { noseParallax } from './parallax.js';

// Brows, eyes, nose and mouth of the 68 points: the jaw line follows the face's outline, which a
// landmark model places less steadily than the inner features.
const INNER = Array.from({ length: 68 - 17 }, (_, i) => i + 17);

/**
 * How far the inner-face landmarks of `cur` are from the best homography of those of `ref`
 * (mean residual, in `ref`'s eye distances). A flat picture, however it is held, maps onto itself by
 * one homography: its residual is landmark noise. A live face changes shape (eyes, lips, brows).
 */
export function landmarkDeformation(ref: Point[], cur: Point[], eyeDistance: number): number {
  const cx = INNER.reduce((s, i) => s + ref[i]![0], 0) / INNER.length;
  const cy = INNER.reduce((s, i) => s + ref[i]![1], 0) / INNER.length;
  const n = (p: Point): Point => [(p[0] - cx) / eyeDistance, (p[1] - cy) / eyeDistance];
  const h = fitHomography(INNER.map((i) => n(ref[i]!)), INNER.map((i) => n(cur[i]!)));
  if (!h) return 0;
  return INNER.reduce((s, i) => {
    const [px, py] = applyHomography(h, n(ref[i]!));
    const [tx, ty] = n(cur[i]!);
    return s + Math.hypot(px - tx, py - ty);
  }, 0) / INNER.length;
}

/**
 * The "rigid flat sheet" measures of a capture (a proposed print cue, README "Proposed print cue"):
 * - `parallax`: the largest nose parallax (`noseParallax`) between any two face frames — the turn
 *   parallax test applied to the whole capture, so a live head's small rotations count too;
 * - `deformation`: the 90th percentile over frames of `landmarkDeformation` onto the first face frame.
 * A print shows neither; `null` with fewer than two face frames.
 */
export function sheetRigidity(faces: { landmarks: Point[]; eyeDistance: number }[]): { parallax: number; deformation: number } | null {
  if (faces.length < 2) return null;
  let parallax = 0;
  for (let i = 0; i < faces.length; i++) {
    for (let j = i + 1; j < faces.length; j++) parallax = Math.max(parallax, noseParallax(faces[i]!.landmarks, faces[j]!.landmarks, faces[i]!.eyeDistance));
  }
  const first = faces[0]!;
  const deformation = quantile(faces.slice(1).map((f) => landmarkDeformation(first.landmarks, f.landmarks, first.eyeDistance)), 0.9);
  return { parallax, deformation };
}
