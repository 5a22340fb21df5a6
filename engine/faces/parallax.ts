import { applyHomography, fitHomography } from './geometry.js';
import type { Point } from './image.js';

// Eyes and outer lips: the points a homography has to carry from one view to the other.
const PLANE_POINTS = [36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59];
// The nose sticks out of that plane: in a real turn it moves differently, on a flat picture it cannot.
const NOSE_POINTS = [30, 31, 32, 33, 34, 35];

/**
 * Out-of-plane motion between two views of a face, as a fraction of the eye distance: fit a
 * homography to the eyes and mouth and measure how far the nose lands from where that plane
 * predicts. A photo warped in 2-D (any perspective warp) follows one homography, so its residual
 * is landmark noise; a real head turning by 20° moves the nose tip roughly 0.1–0.3 eye distances.
 */
export function noseParallax(neutral: Point[], turned: Point[], eyeDistance: number): number {
  // Normalise coordinates around the neutral face for a well-conditioned fit.
  const cx = PLANE_POINTS.reduce((s, i) => s + neutral[i]![0], 0) / PLANE_POINTS.length;
  const cy = PLANE_POINTS.reduce((s, i) => s + neutral[i]![1], 0) / PLANE_POINTS.length;
  const n = (p: Point): Point => [(p[0] - cx) / eyeDistance, (p[1] - cy) / eyeDistance];
  const h = fitHomography(PLANE_POINTS.map((i) => n(neutral[i]!)), PLANE_POINTS.map((i) => n(turned[i]!)));
  if (!h) return 0;
  const residuals = NOSE_POINTS.map((i) => {
    const [px, py] = applyHomography(h, n(neutral[i]!));
    const [tx, ty] = n(turned[i]!);
    return Math.hypot(px - tx, py - ty);
  });
  return residuals.reduce((a, b) => a + b, 0) / residuals.length;
}
