/**
 * `npx tsx bench/liveness-slot.ts`: the faces v10 design figures for judging a movement outside its
 * slot on the whole rotation (engine/faces/README.md "Liveness v10"), on TUNING data only: the
 * labelled tuning cases (bench/liveness-labels.json, `held_out: false`). Nothing held out or unseen
 * is read here.
 *
 * 1. The whole rotation from neutral (`forwardAngle`) of every frame outside the prompted movements
 *    (not inside any turn or nod slot with its tolerances): the natural movement between steps, per
 *    case kind, and each genuine case's largest.
 * 2. Contradictions per case: v4's per-kind rule, and the whole-rotation rule at several bounds with
 *    the image-axes reading (v9) and the neutral-head reading (v8) of the steps.
 */
import { modelsDir } from '../engine/assets.js';
import { analyseFrame, type FaceObservation } from '../engine/faces/frame-analysis.js';
import { median, quantile } from '../engine/faces/geometry.js';
import { decodeImage } from '../engine/faces/image.js';
import { matchScript, movementEvents, scriptOf, wrongSlotContradictions } from '../engine/faces/liveness-v2.js';
import { loadFaceModels } from '../engine/faces/models-bundle.js';
import { forwardAngle, meanRotation, relativeYawPitch } from '../engine/faces/pose.js';
import { FACE_SETTINGS_V8, FACE_SETTINGS_V9 } from '../engine/faces/settings.js';
import { labelledCapture, labelledCases } from '../tools/faces/testing/labelled.js';

const models = await loadFaceModels(modelsDir(), FACE_SETTINGS_V9);
const s = FACE_SETTINGS_V9.challenge;
const v = FACE_SETTINGS_V9.v2!.script;
const bounds = [8, 10, 12, 14, 16, 18, 22.5];
const cases = labelledCases().filter((c) => !c.held_out);
const between: Record<string, number[]> = {};
const rows: string[] = [];
const unexplainedGenuine: number[] = [];
for (const c of cases) {
  const { frames, challenge } = await labelledCapture(models, c, { light: false });
  const seen: { timestampMs: number; face: FaceObservation }[] = [];
  for (const f of frames) {
    const a = await analyseFrame(models, await decodeImage(f.image, 480), 0.25, { mesh: true, eyes: false });
    if (a.face) seen.push({ timestampMs: f.meta.timestamp_ms, face: a.face });
  }
  const script = scriptOf(challenge);
  const before = seen.filter((f) => f.timestampMs < script.neutralMs);
  const ref = before.length >= v.minNeutralFrames ? before : seen;
  const neutral = { yaw: median(ref.map((f) => f.face.pose.yaw)), pitch: median(ref.map((f) => f.face.pose.pitch)) };
  const steady = ref.filter((f) => Math.abs(f.face.pose.yaw - neutral.yaw) <= 5 && Math.abs(f.face.pose.pitch - neutral.pitch) <= 5);
  const R = meanRotation((steady.length ? steady : ref).map((f) => f.face.pose))!;
  const angle = (face: FaceObservation) => forwardAngle(face.pose, R);
  const inMovementSlot = (t: number) => script.slots.some((sl) => sl.step !== 'blink' && t >= sl.start_ms - v.slotStartToleranceMs && t <= sl.end_ms + v.slotEndToleranceMs);
  const out = seen.filter((f) => f.timestampMs >= script.neutralMs && !inMovementSlot(f.timestampMs)).map((f) => angle(f.face));
  (between[c.kind] ??= []).push(...out);
  const ev4 = movementEvents(seen, neutral, s);
  const ev8 = movementEvents(seen, neutral, s, { relative: (x) => relativeYawPitch(x.pose, R), margin: FACE_SETTINGS_V8.v2!.movement!.dominanceMargin });
  const c4 = matchScript(script.slots, ev4, v, { turn: s.turnYawDeg, nod: s.nodPitchDeg }).contradictions.length;
  const startDeg = Math.min(s.turnYawDeg, s.nodPitchDeg);
  const whole = (ev: typeof ev4) => bounds.map((b) => wrongSlotContradictions(seen, angle, neutral, script.slots, ev, v, { startDeg, boundDeg: b }).length).join(' ');
  // Every excursion that starts in a slot and is explained by no step of its own: the quantity the bound is compared with.
  const unexplained = wrongSlotContradictions(seen, angle, neutral, script.slots, ev4, v, { startDeg, boundDeg: 0 });
  if (c.kind === 'genuine') unexplainedGenuine.push(...unexplained.map((u) => u.rotation_deg));
  rows.push(`  ${c.id.padEnd(20)} ${c.kind.padEnd(13)} between steps max ${out.length ? Math.max(...out).toFixed(1) : '-'}° (n=${out.length}); unexplained excursions in a slot: ${unexplained.map((u) => `${u.rotation_deg}° @${u.at_ms} in ${u.in_slot_of}`).join(', ') || 'none'} | v4 rule ${c4} | whole, image reading: ${whole(ev4)} | whole, head reading: ${whole(ev8)}`);
}
const q = (x: number[], p: number) => (x.length ? quantile(x, p).toFixed(1) : '-');
console.log(`# faces v10 design figures (whole rotation out of slot), tuning cases (${cases.length}), ${new Date().toISOString()}`);
console.log('1. whole rotation from neutral of frames after the neutral look and outside every turn/nod slot (with tolerances): median / p90 / p99 / max (n)');
for (const [k, x] of Object.entries(between)) console.log(`   ${k}: ${q(x, 0.5)} / ${q(x, 0.9)} / ${q(x, 0.99)} / ${q(x, 1)} (${x.length})`);
console.log(`   genuine excursions (≥ ${Math.min(s.turnYawDeg, s.nodPitchDeg)}°) starting in a slot and explained by no step of their own: peaks ${unexplainedGenuine.sort((a, z) => z - a).join(', ')}°`);
console.log(`2. contradictions per case: v4 rule | whole rotation at ${bounds.join(' / ')}° with the image-axes reading | with the neutral-head reading`);
for (const r of rows) console.log(r);
await models.release();
