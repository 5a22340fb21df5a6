/**
 * `npx tsx tools/faces/rigid68-reference.ts` — how faces v6's rigid 68-point reference
 * (`RIGID68_REFERENCE` in engine/faces/pose.ts) was made, reproduced:
 *   1. the face mesh's own 3-D output on a frontal photo (`../shared/faces/obama.jpg`), at the mesh
 *      point nearest each rigid landmark; origin between the outer eye corners, roll removed, y up,
 *      z towards the camera, left/right pairs mirror-averaged, midline points at x = 0;
 *   2. over the tuning split's labelled clips only (bench/liveness-labels.json, not held out), the
 *      least-squares slope of this fit's yaw and pitch (each relative to its own neutral, the median
 *      of the straight look) against the mesh's rigid pose, for a grid of depth and height scalings.
 * Prints the base reference, the grid, and the scaled reference for the chosen point (depth × 0.65,
 * height × 0.8: both slopes ≈ 1). Offline tooling; the engine holds the result as a constant.
 */
import path from 'node:path';
import { facesDir, modelsDir } from '../../engine/assets.js';
import { analyseFrame } from '../../engine/faces/frame-analysis.js';
import { median } from '../../engine/faces/geometry.js';
import { decodeImage, type Point } from '../../engine/faces/image.js';
import { scriptOf } from '../../engine/faces/liveness-v2.js';
import { loadFaceModels } from '../../engine/faces/models-bundle.js';
import { estimateRigid68Pose, weakPerspectiveFit } from '../../engine/faces/pose.js';
import { FACE_SETTINGS_V4 } from '../../engine/faces/settings.js';
import { labelledCapture, labelledCases } from './testing/labelled.js';

type V3 = [number, number, number];
const MIDLINE = [27, 28, 29, 30, 33];
const PAIRS: [number, number][] = [[31, 35], [36, 45], [39, 42]];
const models = await loadFaceModels(modelsDir(), FACE_SETTINGS_V4);

const photo = await analyseFrame(models, await decodeImage(path.join(facesDir(), 'obama.jpg'), 640), 0.25, { mesh: true });
const face = photo.face!;
const nearest = (i: number): V3 => {
  const [lx, ly] = face.landmarks[i]!;
  return face.mesh!.reduce((b, m) => (Math.hypot(m[0] - lx, m[1] - ly) < Math.hypot(b[0] - lx, b[1] - ly) ? m : b));
};
const l = nearest(36), r = nearest(45);
const [cx, cy, cz] = [0, 1, 2].map((k) => (l[k]! + r[k]!) / 2) as V3;
const th = Math.atan2(r[1] - l[1], r[0] - l[0]);
const local = (i: number): V3 => {
  const p = nearest(i);
  const x = p[0] - cx, y = p[1] - cy;
  return [Math.cos(-th) * x - Math.sin(-th) * y, -(Math.sin(-th) * x + Math.cos(-th) * y), -(p[2] - cz)];
};
const base: [number, V3][] = MIDLINE.map((i) => [i, [0, local(i)[1], local(i)[2]]]);
for (const [a, b] of PAIRS) {
  const pa = local(a), pb = local(b);
  const x = (pb[0] - pa[0]) / 2, y = (pa[1] + pb[1]) / 2, z = (pa[2] + pb[2]) / 2;
  base.push([a, [-x, y, z]], [b, [x, y, z]]);
}
const round = (v: number) => (Math.abs(v) < 1e-9 ? 0 : Math.round(v * 100) / 100);
console.log('base reference (mesh on obama.jpg):', JSON.stringify(base.map(([i, p]) => [i, p.map(round)])));

// Tuning clips: per frame the landmarks and the mesh's rigid pose.
const clips: { neutral: boolean; landmarks: Point[]; yaw: number; pitch: number }[][] = [];
for (const c of labelledCases().filter((k) => !k.held_out)) {
  const cap = await labelledCapture(models, c, { light: false });
  const neutralMs = scriptOf(cap.challenge).neutralMs;
  const rows = [];
  for (const f of cap.frames) {
    const a = await analyseFrame(models, await decodeImage(f.image, FACE_SETTINGS_V4.frameMaxSide), 0.25, { mesh: true, eyes: false });
    if (a.face) rows.push({ neutral: f.meta.timestamp_ms < neutralMs, landmarks: a.face.landmarks, yaw: a.face.pose.yaw, pitch: a.face.pose.pitch });
  }
  clips.push(rows);
}
const slopes = (fit: (lm: Point[]) => { yaw: number; pitch: number }) => {
  let yy = 0, ym = 0, pp = 0, pm = 0;
  for (const rows of clips) {
    const poses = rows.map((x) => fit(x.landmarks));
    const neu = rows.map((x, i) => [x, poses[i]!] as const).filter(([x]) => x.neutral);
    const n = { yaw: median(neu.map(([, p]) => p.yaw)), pitch: median(neu.map(([, p]) => p.pitch)) };
    const m = { yaw: median(neu.map(([x]) => x.yaw)), pitch: median(neu.map(([x]) => x.pitch)) };
    rows.forEach((x, i) => {
      const dm = [x.yaw - m.yaw, x.pitch - m.pitch], dr = [poses[i]!.yaw - n.yaw, poses[i]!.pitch - n.pitch];
      ym += dm[0]! * dm[0]!; yy += dm[0]! * dr[0]!; pm += dm[1]! * dm[1]!; pp += dm[1]! * dr[1]!;
    });
  }
  return { yaw: yy / ym, pitch: pp / pm };
};
for (const zs of [0.65, 0.7, 0.75, 1]) for (const ys of [0.8, 1, 1.25]) {
  const model = base.map(([, p]) => [p[0], p[1] * ys, p[2] * zs] as V3);
  const s = slopes((lm) => weakPerspectiveFit(model, base.map(([i]) => lm[i]!)));
  console.log(`depth × ${zs}, height × ${ys}: slope yaw ${s.yaw.toFixed(2)}, pitch ${s.pitch.toFixed(2)} (frames ${clips.flat().length})`);
}
console.log('chosen (depth × 0.65, height × 0.8):', JSON.stringify(base.map(([i, p]) => [i, [round(p[0]), round(p[1] * 0.8), round(p[2] * 0.65)]])));
const s = slopes(estimateRigid68Pose);
console.log(`the engine's estimateRigid68Pose: slope yaw ${s.yaw.toFixed(2)}, pitch ${s.pitch.toFixed(2)}`);
await models.release();
