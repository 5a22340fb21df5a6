import { describe, expect, it } from 'vitest';
import { useFaceModels } from '../../test/face-models.js';
import { ZCheckOutcome } from '../../domain/checks.js';
import { evaluateLiveness } from './liveness.js';
import { FACE_SETTINGS_V4, TURN_IDENTITY_EXPERIMENT } from './settings.js';
import { LABELLED_NOW, labelledCapture, labelledCases } from '../../tools/faces/testing/labelled.js';

const settings = FACE_SETTINGS_V4;
const faceModels = useFaceModels(settings);

const caseOf = (id: string) => labelledCases().find((c) => c.id === id)!;
type Signal = { name: string; dissent: boolean | null; value: number | null; detail?: Record<string, unknown> };
type Attack = { dissenting: string[]; signals: Signal[] };
const now = new Date(LABELLED_NOW.getTime() + 30_000);

describe('liveness v4 on real clips (tuning split)', () => {
  it('a genuine capture with turns: no camera facts → capture_source not measured; passes', async () => {
    const c = caseOf('g_krzysiek_turns');
    expect(c.held_out).toBe(false);
    const { frames, challenge } = await labelledCapture(faceModels(), c, { light: true });
    const r = await evaluateLiveness(faceModels(), settings, { frames, challenge, now });
    ZCheckOutcome.parse(r.outcome);
    expect(r.outcome.status, JSON.stringify(r.outcome.evidence)).toBe('passed');
    const attack = (r.outcome.evidence as { attack: Attack }).attack;
    // turn_identity was measured and left out of v4 (README "Liveness v4").
    expect(attack.signals.find((s) => s.name === 'turn_identity')).toBeUndefined();
    expect(attack.signals.find((s) => s.name === 'capture_source')).toMatchObject({ dissent: null, detail: { reported: false } });

    // The same frames reported as coming from a virtual camera: one dissent → review, never a fail on its own.
    const first = frames[0]!;
    const reported = [{ ...first, meta: { ...first.meta, source: { label: 'OBS Virtual Camera' } } }, ...frames.slice(1)];
    const v = await evaluateLiveness(faceModels(), settings, { frames: reported, challenge, now });
    expect(v.outcome.status).toBe('review');
    expect(v.outcome.reasons).toEqual(['attack_signals_disagree']);
    expect((v.outcome.evidence as { attack: Attack }).attack.dissenting).toEqual(['capture_source']);
  });

  it('the rejected turn_identity experiment still measures what it claims: another real person spliced into the turn slot dissents', async () => {
    const k = await labelledCapture(faceModels(), caseOf('g_krzysiek_turns'), { light: false });
    const s = await labelledCapture(faceModels(), caseOf('g_shenasa_turns'), { light: false });
    const slotOf = (ch: typeof k.challenge) => ch.slots!.find((x) => x.step === 'turn_left')!;
    const [ka, kz] = [slotOf(k.challenge).start_ms, slotOf(k.challenge).end_ms];
    const [sa, sz] = [slotOf(s.challenge).start_ms, slotOf(s.challenge).end_ms];
    const spliced = k.frames.map((f) => {
      if (f.meta.timestamp_ms < ka || f.meta.timestamp_ms >= kz) return f;
      const at = sa + ((f.meta.timestamp_ms - ka) / (kz - ka)) * (sz - sa);
      const other = s.frames.reduce((p, q) => (Math.abs(q.meta.timestamp_ms - at) < Math.abs(p.meta.timestamp_ms - at) ? q : p));
      return { ...f, image: other.image };
    });
    const r = await evaluateLiveness(faceModels(), TURN_IDENTITY_EXPERIMENT, { frames: spliced, challenge: k.challenge, now, options: { withoutIllumination: true } });
    const turn = (r.outcome.evidence as { attack: Attack }).attack.signals.find((x) => x.name === 'turn_identity')!;
    expect(turn.dissent, JSON.stringify(turn)).toBe(true);
    expect(turn.value!).toBeLessThan(TURN_IDENTITY_EXPERIMENT.v2!.attack.minTurnIdentitySimilarity!);
    expect(r.outcome.status).not.toBe('passed');
  });
});
