import { describe, expect, it } from 'vitest';
import { useFaceModels } from '../../test/face-models.js';
import { ZCheckOutcome } from '../../domain/checks.js';
import { issueChallenge, TIMED_CHALLENGE_SETTINGS, type TLivenessChallenge } from '../../domain/liveness.js';
import type { StepEvent } from './challenge-steps.js';
import { evaluateLiveness } from './liveness.js';
import { matchScript, scriptOf } from './liveness-v2.js';
import { FACE_SETTINGS_V2 } from './settings.js';
import { seededRandom, type CaptureFrame } from '../../tools/faces/testing/captures.js';
import { LABELLED_NOW, labelledCapture, labelledCases } from '../../tools/faces/testing/labelled.js';

const settings = FACE_SETTINGS_V2;
const faceModels = useFaceModels(settings);

const caseOf = (id: string) => labelledCases().find((c) => c.id === id)!;
const evaluate = async (frames: CaptureFrame[], challenge: TLivenessChallenge, withoutIllumination = false) => {
  const r = await evaluateLiveness(faceModels(), settings, { frames, challenge, now: new Date(LABELLED_NOW.getTime() + 30_000), options: { withoutIllumination } });
  ZCheckOutcome.parse(r.outcome);
  return r;
};
interface Ev {
  capture: { long_enough: boolean };
  challenge: { steps: { step: string; done: boolean }[]; contradictions: unknown[]; events: { step: string }[]; neutral: { frames: number }; pose: string };
  attack: { dissenting: string[]; signals: { name: string; dissent: boolean | null }[] };
}
const ev = (r: { outcome: { evidence: unknown } }) => r.outcome.evidence as Ev;

describe('liveness v2 on real clips (timed script, rigid pose, fused attack signals)', () => {
  it('a genuine turn-left, turn-right, nod in their slots, lit by the issued colours, passes', async () => {
    const { frames, challenge } = await labelledCapture(faceModels(), caseOf('g_shenasa_turns'), { light: true });
    const r = await evaluate(frames, challenge);
    expect(r.outcome.status, JSON.stringify(r.outcome.evidence)).toBe('passed');
    expect(r.outcome.reasons).toEqual([]);
    expect(r.outcome.component).toBe('face-engine@2');
    expect(ev(r).challenge.pose).toBe('facemesh_rigid');
    expect(r.outcome.models.map((m) => m.name)).toContain('mediapipe_facemesh_468.onnx');
    expect(ev(r).attack.dissenting).toEqual([]);
  });

  it('talking is not a nod: a person speaking, asked to nod, does not complete it (the 68-point fit read speech as pitch)', async () => {
    const { frames, challenge } = await labelledCapture(faceModels(), caseOf('n_d13_talking_nod'), { light: true });
    const r = await evaluate(frames, challenge);
    expect(r.outcome.status).toBe('failed');
    expect(r.outcome.reasons).toContain('liveness_challenge_incomplete');
    expect(ev(r).challenge.events.filter((e) => e.step === 'nod')).toEqual([]);
  });

  it('blinks at 10 fps are found as short dips against the capture\'s own baseline', async () => {
    const { frames, challenge } = await labelledCapture(faceModels(), caseOf('g_d9_c'), { light: false });
    const r = await evaluate(frames, challenge, true);
    expect(r.outcome.status, JSON.stringify(r.outcome.evidence)).toBe('passed');
    expect(ev(r).challenge.events.filter((e) => e.step === 'blink').length).toBeGreaterThanOrEqual(3);
    // The colour signal was set aside, not failed.
    expect(ev(r).attack.signals.find((s) => s.name === 'screen_colour')!.dissent).toBeNull();
  });

  it('a 1.3-second, 13-frame clip cannot complete a 6-second, 3-step script', async () => {
    const { frames, challenge } = await labelledCapture(faceModels(), caseOf('g_shenasa_turns'), { light: true });
    const r = await evaluate(frames.slice(0, 13), challenge);
    expect(r.outcome.status).toBe('failed');
    expect(ev(r).capture.long_enough).toBe(false);
    expect(ev(r).challenge.steps.filter((s) => s.done).length).toBeLessThan(3);
  });

  it('the same genuine movements against a script that prompts them in another order fail on a contradiction', async () => {
    const { frames, challenge } = await labelledCapture(faceModels(), caseOf('g_shenasa_turns'), { light: true });
    const swapped: TLivenessChallenge = {
      ...challenge,
      steps: ['turn_right', 'turn_left', 'nod'],
      slots: challenge.slots!.map((sl, i) => ({ ...sl, step: (['turn_right', 'turn_left', 'nod'] as const)[i]! })),
    };
    const r = await evaluate(frames, swapped);
    expect(r.outcome.status).toBe('failed');
    expect(ev(r).challenge.contradictions.length).toBeGreaterThan(0);
  });

  it('a hand-held phone replaying a selfie video is rejected by at least two attack signals', async () => {
    const { frames, challenge } = await labelledCapture(faceModels(), caseOf('r_pyimage_a'), { light: false });
    const r = await evaluate(frames, challenge, true);
    expect(r.outcome.status).toBe('failed');
    expect(r.outcome.reasons).toContain('presentation_attack_suspected');
    expect(ev(r).attack.dissenting.length).toBeGreaterThanOrEqual(2);
  });

  it('without the steady period the page asks for there is no reference pose: incomplete', async () => {
    const { frames, challenge } = await labelledCapture(faceModels(), caseOf('g_d9_c'), { light: false });
    // Re-time the frames so none falls inside the neutral period.
    const late = frames.map((f) => ({ ...f, meta: { ...f.meta, timestamp_ms: f.meta.timestamp_ms + challenge.neutral_ms! } }));
    const r = await evaluate(late, { ...challenge, capture_ms: challenge.capture_ms + challenge.neutral_ms! }, true);
    expect(r.outcome.status).toBe('failed');
    expect(ev(r).challenge.neutral.frames).toBe(0);
  });
});

describe('the script, without models', () => {
  const script = settings.v2!.script;
  const slots = [
    { step: 'turn_left' as const, start_ms: 2000, end_ms: 4000 },
    { step: 'nod' as const, start_ms: 4000, end_ms: 6000 },
  ];
  const ev2 = (step: StepEvent['step'], startMs: number, magnitude: number): StepEvent => ({ step, startMs, endMs: startMs + 300, peakIndex: 0, magnitude });

  it('steps count inside their slots with tolerance, not elsewhere', () => {
    const r = matchScript(slots, [ev2('turn_left', 1800, 30), ev2('nod', 6700, 12)], script, { turn: 15, nod: 8 });
    expect(r.steps.map((s) => s.done)).toEqual([true, true]);
    const late = matchScript(slots, [ev2('turn_left', 5000, 30), ev2('nod', 4500, 12)], script, { turn: 15, nod: 8 });
    expect(late.steps.map((s) => s.done)).toEqual([false, true]);
  });

  it('a small movement between steps is natural; a deliberate one in another step\'s slot contradicts', () => {
    expect(matchScript(slots, [ev2('turn_left', 2500, 30), ev2('nod', 3500, 9), ev2('nod', 4500, 14)], script, { turn: 15, nod: 8 }).contradictions).toEqual([]);
    expect(matchScript(slots, [ev2('turn_right', 2500, 30), ev2('nod', 4500, 14)], script, { turn: 15, nod: 8 }).contradictions).toEqual([{ step: 'turn_right', at_ms: 2500, in_slot_of: 'turn_left' }]);
    // Blinks never contradict: people blink unprompted.
    expect(matchScript(slots, [ev2('blink', 2500, 3)], script, { turn: 15, nod: 8 }).contradictions).toEqual([]);
  });

  it('a timed challenge states its script; a version-1 challenge is read as its page showed it', () => {
    const v2 = issueChallenge(seededRandom(3), LABELLED_NOW, TIMED_CHALLENGE_SETTINGS);
    expect(scriptOf(v2)).toEqual({ neutralMs: 2000, slots: v2.slots });
    const v1 = issueChallenge(seededRandom(3), LABELLED_NOW);
    const s1 = scriptOf(v1);
    expect(s1.neutralMs).toBe(2000);
    expect(s1.slots.map((s) => [s.start_ms, s.end_ms])).toEqual([[2000, 4000], [4000, 6000], [6000, 8000]]);
  });
});
