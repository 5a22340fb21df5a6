import { describe, expect, it } from 'vitest';
import { issueChallenge, LIVENESS_STEPS, TIMED_CHALLENGE_SETTINGS } from './liveness.js';
import { livenessChallengeOf, SAMPLE_KYC_DEFINITION, type TTemplateDefinition } from './primitives.js';

function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}
const NOW = new Date('2026-11-24T12:00:00Z');
const withLiveness = (settings: Record<string, unknown> | null): TTemplateDefinition => {
  const pieces: unknown[] = SAMPLE_KYC_DEFINITION.pieces.flatMap<unknown>((p) => (p.type !== 'selfie_liveness' ? [p] : settings ? [{ ...p, settings }] : []));
  return { pieces } as TTemplateDefinition;
};

describe("a Flow's selfie-liveness piece shapes the challenge", () => {
  it('reads step_count and the steps to draw from, never more movements than steps', () => {
    expect(livenessChallengeOf(SAMPLE_KYC_DEFINITION)).toEqual({ stepCount: 3, steps: [...LIVENESS_STEPS] });
    expect(livenessChallengeOf(withLiveness({ step_count: 1, steps: ['blink'] }))).toEqual({ stepCount: 1, steps: ['blink'] });
    expect(livenessChallengeOf(withLiveness({ step_count: 4, steps: ['nod', 'blink'] }))).toEqual({ stepCount: 2, steps: ['nod', 'blink'] });
    expect(livenessChallengeOf(withLiveness(null))).toBeNull();
  });

  it('the challenge draws only from the allowed steps; the default pool draws exactly as before', () => {
    for (let seed = 1; seed < 30; seed++) {
      const c = issueChallenge(seeded(seed), NOW, { ...TIMED_CHALLENGE_SETTINGS, stepCount: 2 }, ['turn_left', 'blink']);
      expect([...c.steps].sort()).toEqual(['blink', 'turn_left']);
      expect(c.slots!.map((s) => s.step)).toEqual(c.steps);
      expect(issueChallenge(seeded(seed), NOW, TIMED_CHALLENGE_SETTINGS, LIVENESS_STEPS)).toEqual(issueChallenge(seeded(seed), NOW, TIMED_CHALLENGE_SETTINGS));
    }
    expect(() => issueChallenge(seeded(1), NOW, { ...TIMED_CHALLENGE_SETTINGS, stepCount: 3 }, ['nod'])).toThrow(/exceeds/);
  });
});
