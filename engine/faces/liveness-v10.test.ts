import { describe, expect, it } from 'vitest';
import { useFaceModels } from '../../test/face-models.js';
import { analyseFrame, type FaceObservation } from './frame-analysis.js';
import { median } from './geometry.js';
import { decodeImage } from './image.js';
import { evaluateLiveness } from './liveness.js';
import { matchScript, movementEvents, scriptOf, wrongSlotContradictions } from './liveness-v2.js';
import { forwardAngle, meanRotation, relativeYawPitch } from './pose.js';
import { FACE_SETTINGS_V2, FACE_SETTINGS_V3, FACE_SETTINGS_V4, FACE_SETTINGS_V5, FACE_SETTINGS_V6, FACE_SETTINGS_V7, FACE_SETTINGS_V8, FACE_SETTINGS_V9, FACE_SETTINGS_V10 } from './settings.js';
import { labelledCapture, labelledCases, LABELLED_NOW, type LabelledCase } from '../../tools/faces/testing/labelled.js';
import { DIM_LEVELS, dimFrames } from '../../tools/faces/testing/lighting.js';

// v9 and v10 pin the same model files: one set of sessions serves both.
const faceModels = useFaceModels(FACE_SETTINGS_V10);
const caseOf = (id: string) => {
  const c = labelledCases().find((x) => x.id === id)!;
  // Every clip read here is a tuning clip: v10 was designed on these, never on held-out footage.
  expect(c.held_out).toBe(false);
  return c;
};
const now = new Date(LABELLED_NOW.getTime() + 30_000);
const s = FACE_SETTINGS_V10.challenge;
const v10 = FACE_SETTINGS_V10.v2!;
const bound = v10.script.wrongSlotRotationDeg!;
const startDeg = Math.min(s.turnYawDeg, s.nodPitchDeg);
/** v10 with v8's head-frame reading of the steps: a reading that reclassifies movements. */
const V10_HEAD_READING = { ...FACE_SETTINGS_V10, v2: { ...v10, movement: FACE_SETTINGS_V8.v2!.movement! } };

type Evidence = {
  challenge: {
    contradictions: { step: string; in_slot_of: string; rotation_deg?: number }[];
    wrong_slot?: { rotation_deg: number };
    steps: { step: string; done: boolean }[];
    events: { step: string; start_ms: number; end_ms: number }[];
  };
};
const evidenceOf = (r: Awaited<ReturnType<typeof evaluateLiveness>>) => r.outcome.evidence as unknown as Evidence;

/** Every frame of a tuning case, analysed as the engine does (mesh pose), with its neutral pose and rotation. */
async function observe(c: LabelledCase) {
  const { frames, challenge } = await labelledCapture(faceModels(), c, { light: false });
  const seen: { timestampMs: number; face: FaceObservation }[] = [];
  for (const f of frames) {
    const a = await analyseFrame(faceModels(), await decodeImage(f.image, 480), 0.25, { mesh: true, eyes: false });
    if (a.face) seen.push({ timestampMs: f.meta.timestamp_ms, face: a.face });
  }
  const script = scriptOf(challenge);
  const before = seen.filter((f) => f.timestampMs < script.neutralMs);
  const neutral = { yaw: median(before.map((f) => f.face.pose.yaw)), pitch: median(before.map((f) => f.face.pose.pitch)) };
  const steady = before.filter((f) => Math.abs(f.face.pose.yaw - neutral.yaw) <= 5 && Math.abs(f.face.pose.pitch - neutral.pitch) <= 5);
  const rotation = meanRotation((steady.length ? steady : before).map((f) => f.face.pose))!;
  return { seen, neutral, rotation, script, challenge, frames };
}

describe('faces v10 settings', () => {
  it('v10 = v9 + the whole-rotation wrong-slot bound (1.5 × the turn threshold) + v7\'s dark-eye gain with the dim-dip check; v2–v9 carry neither new flag', () => {
    expect(FACE_SETTINGS_V10.version).toBe('faces-2026.11.10');
    expect(bound).toBe(22.5);
    const { version: _a, v2: v2of10, ...rest10 } = FACE_SETTINGS_V10;
    const { version: _b, v2: v2of9, ...rest9 } = FACE_SETTINGS_V9;
    expect(rest10).toEqual(rest9);
    const { script: script10, blink: blink10, ...others10 } = v2of10!;
    const { script: script9, blink: blink9, ...others9 } = v2of9!;
    expect(others10).toEqual(others9);
    expect({ ...script10, wrongSlotRotationDeg: undefined }).toEqual({ ...script9, wrongSlotRotationDeg: undefined });
    expect(blink10).toEqual({ ...blink9, darkEyeGain: FACE_SETTINGS_V7.v2!.blink.darkEyeGain, confirmDimClosed: { earShare: 0.5 } });
    expect(v10.movement).toBeUndefined();
    expect(v10.blink.offFrontal).toBeUndefined();
    for (const older of [FACE_SETTINGS_V2, FACE_SETTINGS_V3, FACE_SETTINGS_V4, FACE_SETTINGS_V5, FACE_SETTINGS_V6, FACE_SETTINGS_V7, FACE_SETTINGS_V8, FACE_SETTINGS_V9]) {
      expect(older.v2!.script.wrongSlotRotationDeg).toBeUndefined();
      expect(older.v2!.blink.confirmDimClosed).toBeUndefined();
    }
  });
});

describe('faces v10: a movement out of its slot judged on the whole rotation (real tuning frames)', () => {
  it('the whole rotation is the forward axis angle: zero at the reference, the hypotenuse of a head-frame turn and nod', async () => {
    const { seen, rotation } = await observe(caseOf('g_nodding'));
    expect(forwardAngle({ yaw: 0, pitch: 0, roll: 0, rotation }, rotation)).toBeCloseTo(0, 6);
    for (const f of seen) {
      const h = relativeYawPitch(f.face.pose, rotation);
      const a = forwardAngle(f.face.pose, rotation);
      // Never smaller than either component, never more than their sum.
      expect(a).toBeGreaterThanOrEqual(Math.max(Math.abs(h.yaw), Math.abs(h.pitch)) - 1e-6);
      expect(a).toBeLessThanOrEqual(Math.abs(h.yaw) + Math.abs(h.pitch) + 1e-6);
    }
  }, 120_000);

  it('a real movement in the blink slot fails whatever reading names it; the per-kind rule alone is loosened by a reading that does not name it', async () => {
    // g_nodding: the head lifts and swings left by 24.8° (600–1200 ms) before its nods. Under a script whose only
    // slot is a blink from 200 ms (the movement starts, at 8°, at 300 ms), that movement is out of its slot.
    const { seen, neutral, rotation } = await observe(caseOf('g_nodding'));
    const slots = [{ step: 'blink' as const, start_ms: 200, end_ms: 2500 }];
    const angle = (f: FaceObservation) => forwardAngle(f.pose, rotation);
    const image = movementEvents(seen, neutral, s);
    const head = movementEvents(seen, neutral, s, { relative: (f) => relativeYawPitch(f.pose, rotation), margin: FACE_SETTINGS_V8.v2!.movement!.dominanceMargin });
    // Per-kind (v2–v9): the image reading's 24.4° turn contradicts; a reading that calls the frames neither turn nor nod
    // (a diagonal under any dominance margin large enough) loses every contradiction: reclassification loosens it.
    expect(matchScript(slots, image, v10.script, { turn: s.turnYawDeg, nod: s.nodPitchDeg }).contradictions.length).toBeGreaterThan(0);
    expect(matchScript(slots, [], v10.script, { turn: s.turnYawDeg, nod: s.nodPitchDeg }).contradictions).toEqual([]);
    // Whole rotation: the same contradiction, at the same size, from the image reading, the head reading and no reading at all.
    const judged = [image, head, []].map((ev) => wrongSlotContradictions(seen, angle, neutral, slots, ev, v10.script, { startDeg, boundDeg: bound }));
    for (const j of judged) {
      expect(j.length).toBe(1);
      expect(j[0]!.in_slot_of).toBe('blink');
      expect(j[0]!.rotation_deg).toBeGreaterThanOrEqual(bound);
    }
    expect(judged[1]).toEqual(judged[0]);
    expect(judged[2]).toEqual(judged[0]);
  }, 120_000);

  it('the same movement inside its own slot is explained, and one starting before the first slot is tolerated', async () => {
    const { seen, neutral, rotation, script } = await observe(caseOf('g_nodding'));
    const angle = (f: FaceObservation) => forwardAngle(f.pose, rotation);
    const image = movementEvents(seen, neutral, s);
    // As labelled (nod slot from 700 ms): the movement starts (8°) at 300 ms, before the slot → tolerated.
    expect(wrongSlotContradictions(seen, angle, neutral, script.slots, image, v10.script, { startDeg, boundDeg: bound })).toEqual([]);
    // A turn_left slot around it: the turn event fits its slot and explains the excursion.
    const turnSlot = [{ step: 'turn_left' as const, start_ms: 500, end_ms: 1500 }];
    expect(wrongSlotContradictions(seen, angle, neutral, turnSlot, image, v10.script, { startDeg, boundDeg: bound })).toEqual([]);
  }, 120_000);

  it('natural movement of the tuning genuine clips stays under the bound: no whole-rotation contradiction', async () => {
    for (const id of ['g_d9_b', 'g_d9_c', 'g_d9_d', 'g_nodding', 'g_krzysiek_turns']) {
      const { seen, neutral, rotation, script } = await observe(caseOf(id));
      const angle = (f: FaceObservation) => forwardAngle(f.pose, rotation);
      const all = wrongSlotContradictions(seen, angle, neutral, script.slots, movementEvents(seen, neutral, s), v10.script, { startDeg, boundDeg: 0 });
      // g_d9_b's head sways 16.3° in its blink slot (the largest): 6° under the bound.
      for (const c of all) expect(c.rotation_deg, `${id} ${JSON.stringify(c)}`).toBeLessThan(bound - 5);
    }
  }, 300_000);

  it('whole captures: a genuine tuning capture passes under v10 as under v9; the movement in the blink slot fails under v10 with the head reading too', async () => {
    const c = caseOf('g_nodding');
    const { frames, challenge } = await labelledCapture(faceModels(), c, { light: false });
    const r9 = await evaluateLiveness(faceModels(), FACE_SETTINGS_V9, { frames, challenge, now, options: { withoutIllumination: true } });
    const r10 = await evaluateLiveness(faceModels(), FACE_SETTINGS_V10, { frames, challenge, now, options: { withoutIllumination: true } });
    expect(r9.outcome.status).toBe('passed');
    expect(r10.outcome.status).toBe('passed');
    expect(evidenceOf(r10).challenge.wrong_slot?.rotation_deg).toBe(bound);
    // The same real clip asked for a blink: its head movement is out of the slot; v10 fails it with the head-frame reading as well.
    const blinkCase: LabelledCase = { ...c, neutral_s: 0.2, steps: [{ step: 'blink', motion_s: [0.5, 2.5] }] };
    const asked = await labelledCapture(faceModels(), blinkCase, { light: false, seed: 1008 });
    for (const st of [FACE_SETTINGS_V10, V10_HEAD_READING]) {
      const r = await evaluateLiveness(faceModels(), st, { frames: asked.frames, challenge: asked.challenge, now, options: { withoutIllumination: true } });
      expect(r.outcome.status).toBe('failed');
      expect(evidenceOf(r).challenge.contradictions.some((x) => x.in_slot_of === 'blink' && (x.rotation_deg ?? 0) >= bound), JSON.stringify(evidenceOf(r).challenge)).toBe(true);
    }
  }, 300_000);
});

describe('faces v10: blinks in a dim room, and no blink the gain makes up (real tuning clips, darkened with tools/faces/testing/lighting.ts)', () => {
  const run = async (id: string, level: keyof typeof DIM_LEVELS | undefined) => {
    const { frames, challenge } = await labelledCapture(faceModels(), caseOf(id), { light: false });
    const images = level ? await dimFrames(frames.map((f) => f.image), DIM_LEVELS[level]) : frames.map((f) => f.image);
    const capture = frames.map((f, i) => ({ ...f, image: images[i]! }));
    const blinksUnder = async (st: typeof FACE_SETTINGS_V10) => {
      const r = await evaluateLiveness(faceModels(), st, { frames: capture, challenge, now, options: { withoutIllumination: true } });
      return { r, blinks: evidenceOf(r).challenge.events.filter((e) => e.step === 'blink') };
    };
    return { v7: await blinksUnder(FACE_SETTINGS_V7), v9: await blinksUnder(FACE_SETTINGS_V9), v10: await blinksUnder(FACE_SETTINGS_V10) };
  };
  /** Every event of `a` is one of `b`'s (overlapping it; the classifier's magnitudes differ with the gain). */
  const within = (a: { start_ms: number; end_ms: number }[], b: { start_ms: number; end_ms: number }[]) => a.every((e) => b.some((f) => e.start_ms <= f.end_ms + 100 && e.end_ms >= f.start_ms - 100));

  it('a blink clip four stops under: v9 misses every blink and fails, v10 (gain + consistent dips) finds them and passes', async () => {
    const { v9, v10 } = await run('g_d9_c', 'dark');
    expect(v9.r.outcome.status).toBe('failed');
    expect(evidenceOf(v9.r).challenge.steps[0]!.done).toBe(false);
    expect(v10.r.outcome.status).toBe('passed');
    expect(evidenceOf(v10.r).challenge.steps[0]!.done).toBe(true);
    const labelled = caseOf('g_d9_c').blinks_s;
    expect(labelled.filter((t) => v10.blinks.some((e) => t * 1000 >= e.start_ms - 300 && t * 1000 <= e.end_ms + 300)).length).toBeGreaterThanOrEqual(2);
  }, 300_000);

  it('a non-responder (turns, no blink) in a dim room: v7\'s gain reads a blink, v10 reads none v9 does not', async () => {
    const { v7, v9, v10 } = await run('n_headtrackr', 'dim');
    expect(v7.blinks.length).toBeGreaterThan(v9.blinks.length);
    expect(within(v10.blinks, v9.blinks), JSON.stringify({ v9: v9.blinks, v10: v10.blinks })).toBe(true);
  }, 300_000);

  it('a well-lit blink clip: v7\'s gain adds a blink event a second before the real one, v10 keeps v9\'s events', async () => {
    const { v7, v9, v10 } = await run('g_clm_blink', undefined);
    expect(v7.blinks.length).toBeGreaterThan(v9.blinks.length);
    expect(v10.blinks.length).toBe(v9.blinks.length);
    expect(within(v10.blinks, v9.blinks), JSON.stringify({ v9: v9.blinks, v10: v10.blinks })).toBe(true);
    expect(v10.r.outcome.status).toBe('passed');
  }, 300_000);
});
