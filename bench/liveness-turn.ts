/**
 * `npx tsx bench/liveness-turn.ts`: the faces v8 design figures for blinks during a head turn and
 * for turn vs nod, on TUNING data only (engine/faces/README.md "Liveness v8"). Nothing held out or
 * unseen is read here.
 *
 * 1. The 68-point aspect ratio of the eye nearer the camera (the wider one) and of the far eye, as a
 *    share of that eye's open baseline near neutral, by yaw from neutral (every tuning case's frames).
 * 2. Blink events that reach into a turn (the v8 view's additions) on every tuning case as recorded.
 * 3. The labelled tuning blinks moved into a turn: the frames within 500 ms of each labelled blink
 *    read as 20° off the neutral yaw (the eyes as recorded): found by v4's rule and by v8's.
 * 4. Turn and nod frames: pitch/yaw (turns) and yaw/pitch (nods) in the image's axes (v4) and in
 *    the neutral head's frame (v8), and how many frames each reading classifies differently.
 */
import { modelsDir } from '../engine/assets.js';
import { analyseFrame, type FaceObservation } from '../engine/faces/frame-analysis.js';
import { median, quantile } from '../engine/faces/geometry.js';
import { decodeImage } from '../engine/faces/image.js';
import { eyeAspectRatio } from '../engine/faces/eyes.js';
import { blinkEvents, movementEvents, scriptOf } from '../engine/faces/liveness-v2.js';
import { loadFaceModels } from '../engine/faces/models-bundle.js';
import { meanRotation, relativeYawPitch } from '../engine/faces/pose.js';
import { FACE_SETTINGS_V4, FACE_SETTINGS_V8 } from '../engine/faces/settings.js';
import { labelledCapture, labelledCases } from '../tools/faces/testing/labelled.js';

const models = await loadFaceModels(modelsDir(), FACE_SETTINGS_V8);
const s = FACE_SETTINGS_V8.challenge;
const b4 = FACE_SETTINGS_V4.v2!.blink, b8 = FACE_SETTINGS_V8.v2!.blink;
const cases = labelledCases().filter((c) => !c.held_out);
const bins = new Map<number, { near: number[]; far: number[] }>();
let added = 0;
const moved = { labelled: 0, v4: 0, v8: 0 };
const turnRatio = { image: [] as number[], head: [] as number[] }, nodRatio = { image: [] as number[], head: [] as number[] };
let reclassified = 0, movementFrames = 0;
for (const c of cases) {
  const { frames, challenge } = await labelledCapture(models, c, { light: false });
  const seen: { timestampMs: number; face: FaceObservation }[] = [];
  for (const f of frames) {
    const a = await analyseFrame(models, await decodeImage(f.image, 480), 0.25, { mesh: true, eyes: true });
    if (a.face) seen.push({ timestampMs: f.meta.timestamp_ms, face: a.face });
  }
  const before = seen.filter((f) => f.timestampMs < scriptOf(challenge).neutralMs);
  const neutral = { yaw: median(before.map((f) => f.face.pose.yaw)), pitch: median(before.map((f) => f.face.pose.pitch)) };
  const near = seen.filter((f) => Math.abs(f.face.pose.yaw - neutral.yaw) < s.turnYawDeg && Math.abs(f.face.pose.pitch - neutral.pitch) < 2 * s.nodPitchDeg);
  if (near.length < 3) continue;
  const base = [36, 42].map((first) => quantile(near.map((f) => eyeAspectRatio(f.face.landmarks, first)), b8.baselinePercentile));
  const w = (f: FaceObservation, a: number, z: number) => Math.hypot(f.landmarks[a]![0] - f.landmarks[z]![0], f.landmarks[a]![1] - f.landmarks[z]![1]);
  // 1. Only frames away from any labelled blink, so the ratios are of open eyes.
  for (const f of seen) {
    if (c.blinks_s.some((t) => Math.abs(f.timestampMs - t * 1000) <= 400) || Math.abs(f.face.pose.pitch - neutral.pitch) >= 2 * s.nodPitchDeg) continue;
    const left = eyeAspectRatio(f.face.landmarks, 36) / base[0]!, right = eyeAspectRatio(f.face.landmarks, 42) / base[1]!;
    const leftNear = w(f.face, 36, 39) >= w(f.face, 42, 45);
    const bin = Math.min(50, 10 * Math.floor(Math.abs(f.face.pose.yaw - neutral.yaw) / 10));
    const e = bins.get(bin) ?? { near: [], far: [] };
    e.near.push(leftNear ? left : right);
    e.far.push(leftNear ? right : left);
    bins.set(bin, e);
  }
  // 2.
  const turned = (e: { startMs: number; endMs: number }) => seen.some((f) => f.timestampMs >= e.startMs && f.timestampMs <= e.endMs && Math.abs(f.face.pose.yaw - neutral.yaw) >= s.turnYawDeg);
  const inTurn = blinkEvents(seen, neutral, s, b8).events.filter(turned);
  added += inTurn.length;
  if (inTurn.length) console.log(`  ${c.id}: blink reaching into a turn at ${inTurn.map((e) => e.startMs).join(', ')} ms`);
  // 3.
  for (const t of c.blinks_s) {
    for (const sign of [1, -1]) {
      const shifted = seen.map((f) => (Math.abs(f.timestampMs - t * 1000) <= 500 ? { ...f, face: { ...f.face, pose: { ...f.face.pose, yaw: f.face.pose.yaw + sign * 20 } } } : f));
      const hit = (ev: { startMs: number; endMs: number }[]) => ev.some((e) => t * 1000 >= e.startMs - 300 && t * 1000 <= e.endMs + 300);
      moved.labelled++;
      if (hit(blinkEvents(shifted, neutral, s, b4).events)) moved.v4++;
      if (hit(blinkEvents(shifted, neutral, s, b8).events)) moved.v8++;
    }
  }
  // 4.
  const R = meanRotation(before.map((f) => f.face.pose))!;
  for (const f of seen) {
    const img = { yaw: f.face.pose.yaw - neutral.yaw, pitch: f.face.pose.pitch - neutral.pitch };
    const head = relativeYawPitch(f.face.pose, R);
    if (Math.abs(img.yaw) >= s.turnYawDeg) {
      turnRatio.image.push(Math.abs(img.pitch / img.yaw));
      turnRatio.head.push(Math.abs(head.pitch / head.yaw));
    }
    if (Math.abs(img.pitch) >= s.nodPitchDeg && Math.abs(img.pitch) >= Math.abs(img.yaw)) {
      nodRatio.image.push(Math.abs(img.yaw / img.pitch));
      nodRatio.head.push(Math.abs(head.yaw / head.pitch));
    }
    const one = [{ timestampMs: 0, face: f.face }];
    const k4: string = movementEvents(one, neutral, s)[0]?.step ?? '-';
    const k8: string = movementEvents(one, neutral, s, { relative: (x) => relativeYawPitch(x.pose, R), margin: FACE_SETTINGS_V8.v2!.movement!.dominanceMargin })[0]?.step ?? '-';
    if (k4 !== '-' || k8 !== '-') movementFrames++;
    if (k4 !== k8) {
      reclassified++;
      console.log(`  ${c.id} @${f.timestampMs} ms: v4 ${k4} (image yaw ${img.yaw.toFixed(1)}, pitch ${img.pitch.toFixed(1)}), v8 ${k8} (head yaw ${head.yaw.toFixed(1)}, pitch ${head.pitch.toFixed(1)}), roll ${f.face.pose.roll.toFixed(1)}`);
    }
  }
}
const q = (v: number[], p: number) => (v.length ? quantile(v, p).toFixed(2) : '-');
console.log(`# faces v8 design figures, tuning cases (${cases.length}), ${new Date().toISOString()}`);
console.log('1. open-eye aspect ratio / its baseline near neutral, by yaw from neutral: near eye median [p10] | far eye median [p10] (frames)');
for (const [bin, e] of [...bins.entries()].sort((a, z) => a[0] - z[0])) console.log(`   ${bin}–${bin + 10}°: ${q(e.near, 0.5)} [${q(e.near, 0.1)}] | ${q(e.far, 0.5)} [${q(e.far, 0.1)}] (${e.near.length})`);
console.log(`2. blink events reaching into a turn (v8's additions) on the tuning cases as recorded: ${added}`);
console.log(`3. labelled tuning blinks moved 20° into a turn (both ways): v4 ${moved.v4}/${moved.labelled}, v8 ${moved.v8}/${moved.labelled}`);
console.log(`4. turn frames (|image yaw| ≥ 15°, n=${turnRatio.image.length}): pitch/yaw median / p90 / max — image axes ${q(turnRatio.image, 0.5)} / ${q(turnRatio.image, 0.9)} / ${q(turnRatio.image, 1)}, head frame ${q(turnRatio.head, 0.5)} / ${q(turnRatio.head, 0.9)} / ${q(turnRatio.head, 1)}`);
console.log(`   nod frames (n=${nodRatio.image.length}): yaw/pitch — image axes ${q(nodRatio.image, 0.5)} / ${q(nodRatio.image, 0.9)} / ${q(nodRatio.image, 1)}, head frame ${q(nodRatio.head, 0.5)} / ${q(nodRatio.head, 0.9)} / ${q(nodRatio.head, 1)}`);
console.log(`   frames classified differently (turn/nod/none), v4 vs v8: ${reclassified} of ${movementFrames} moving frames`);
await models.release();
