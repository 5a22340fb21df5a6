import { describe, expect, it } from 'vitest';
import { colourAt, DEFAULT_CHALLENGE_SETTINGS, issueChallenge, LIVENESS_STEPS, ZLivenessChallenge, ZLivenessFrameMeta } from './liveness.js';

function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const NOW = new Date('2026-11-21T12:00:00Z');

describe('issueChallenge', () => {
  it('issues a valid challenge with distinct steps, contiguous colours covering the capture, and a deadline', () => {
    const c = issueChallenge(seeded(1), NOW);
    expect(ZLivenessChallenge.parse(c)).toEqual(c);
    expect(c.steps).toHaveLength(DEFAULT_CHALLENGE_SETTINGS.stepCount);
    expect(new Set(c.steps).size).toBe(c.steps.length);
    const last = c.colours[c.colours.length - 1]!;
    expect(last.start_ms + last.duration_ms).toBeGreaterThanOrEqual(c.capture_ms);
    for (let i = 1; i < c.colours.length; i++) expect(c.colours[i]!.colour).not.toBe(c.colours[i - 1]!.colour);
    expect(Date.parse(c.deadline) - Date.parse(c.issued_at)).toBe(DEFAULT_CHALLENGE_SETTINGS.validForMs);
  });

  it('is deterministic for a given random source and differs between sources', () => {
    expect(issueChallenge(seeded(5), NOW)).toEqual(issueChallenge(seeded(5), NOW));
    const a = issueChallenge(seeded(5), NOW);
    const b = issueChallenge(seeded(6), NOW);
    expect(a.nonce).not.toBe(b.nonce);
    expect(a.colours).not.toEqual(b.colours);
  });

  it('draws every step and several orders over many challenges', () => {
    const rand = seeded(9);
    const orders = new Set<string>();
    const seen = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const c = issueChallenge(rand, NOW);
      orders.add(c.steps.join(','));
      c.steps.forEach((s) => seen.add(s));
    }
    expect(seen).toEqual(new Set(LIVENESS_STEPS));
    expect(orders.size).toBeGreaterThan(12);
  });

  it('honours the settings', () => {
    const c = issueChallenge(seeded(2), NOW, { ...DEFAULT_CHALLENGE_SETTINGS, stepCount: 4, colourMinMs: 300, colourMaxMs: 300 });
    expect(c.steps).toHaveLength(4);
    expect(c.colours.every((s) => s.duration_ms === 300)).toBe(true);
  });
});

describe('schemas', () => {
  it('rejects repeated steps, gaps in the colour sequence and a deadline before issue', () => {
    const c = issueChallenge(seeded(3), NOW);
    expect(ZLivenessChallenge.safeParse({ ...c, steps: ['nod', 'nod'] }).success).toBe(false);
    expect(ZLivenessChallenge.safeParse({ ...c, colours: [c.colours[0], { ...c.colours[1], start_ms: c.colours[1]!.start_ms + 5 }] }).success).toBe(false);
    expect(ZLivenessChallenge.safeParse({ ...c, deadline: c.issued_at }).success).toBe(false);
  });

  it('parses frame metadata and refuses unknown colours', () => {
    const nonce = issueChallenge(seeded(4), NOW).nonce;
    expect(ZLivenessFrameMeta.parse({ nonce, timestamp_ms: 120, colour: 'red' })).toEqual({ nonce, timestamp_ms: 120, colour: 'red' });
    expect(ZLivenessFrameMeta.safeParse({ nonce, timestamp_ms: 120, colour: 'white' }).success).toBe(false);
  });

  it('colourAt finds the issued colour and nothing after the sequence', () => {
    const c = issueChallenge(seeded(8), NOW);
    expect(colourAt(c, 0)).toBe(c.colours[0]!.colour);
    expect(colourAt(c, c.colours[1]!.start_ms)).toBe(c.colours[1]!.colour);
    const last = c.colours[c.colours.length - 1]!;
    expect(colourAt(c, last.start_ms + last.duration_ms)).toBeUndefined();
  });
});

describe('timed script (version 2)', () => {
  it('issues a neutral period and one back-to-back slot per step, colours covering the capture', async () => {
    const { TIMED_CHALLENGE_SETTINGS } = await import('./liveness.js');
    const c = issueChallenge(seeded(11), NOW, TIMED_CHALLENGE_SETTINGS);
    expect(ZLivenessChallenge.parse(c)).toEqual(c);
    expect(c.version).toBe(2);
    expect(c.neutral_ms).toBe(2000);
    expect(c.slots!.map((s) => s.step)).toEqual(c.steps);
    expect(c.slots!.map((s) => [s.start_ms, s.end_ms])).toEqual([[2000, 4000], [4000, 6000], [6000, 8000]]);
    expect(c.capture_ms).toBe(8000);
    const last = c.colours[c.colours.length - 1]!;
    expect(last.start_ms + last.duration_ms).toBeGreaterThanOrEqual(c.capture_ms);
  });

  it('rejects slots out of order, overlapping the neutral period, or on a version-1 challenge', async () => {
    const { TIMED_CHALLENGE_SETTINGS } = await import('./liveness.js');
    const c = issueChallenge(seeded(12), NOW, TIMED_CHALLENGE_SETTINGS);
    expect(ZLivenessChallenge.safeParse({ ...c, slots: [...c.slots!].reverse() }).success).toBe(false);
    expect(ZLivenessChallenge.safeParse({ ...c, slots: c.slots!.map((s, i) => (i === 0 ? { ...s, start_ms: 500 } : s)) }).success).toBe(false);
    expect(ZLivenessChallenge.safeParse({ ...c, slots: undefined }).success).toBe(false);
    expect(ZLivenessChallenge.safeParse({ ...c, version: 1 }).success).toBe(false);
  });
});
