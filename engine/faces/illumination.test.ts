import { describe, expect, it } from 'vitest';
import { colourAt, colourRgb, issueChallenge } from '../../domain/liveness.js';
import { scoreIllumination, type IlluminationSample } from './illumination.js';
import { seededRandom } from '../../tools/faces/testing/captures.js';

const NOW = new Date('2026-11-21T12:00:00Z');
const issued = issueChallenge(seededRandom(1), NOW);
const other = issueChallenge(seededRandom(2), NOW);
const skin: [number, number, number] = [0.35, 0.22, 0.16];

/** Skin lit by ambient light plus `strength` × the screen colour, with slow drift and noise. */
function samples(lightFrom: typeof issued | null, strength: number, seed = 3): IlluminationSample[] {
  const rand = seededRandom(seed);
  const out: IlluminationSample[] = [];
  for (let t = 0; t < issued.capture_ms; t += 100) {
    const c = lightFrom ? colourRgb(colourAt(lightFrom, t)!) : [0, 0, 0];
    const exposure = 1 + 0.2 * Math.sin(t / 1500); // auto-exposure drifting
    const rgb = skin.map((v, k) => v * exposure * (1 + strength * c[k]!) * (1 + 0.01 * (rand() - 0.5))) as [number, number, number];
    out.push({ timestampMs: t, skinRgb: rgb, claimed: colourAt(issued, t)! });
  }
  return out;
}

describe('scoreIllumination', () => {
  it('scores a face lit by the issued colours high', () => {
    expect(scoreIllumination(samples(issued, 0.1), issued, 2).correlation).toBeGreaterThan(0.8);
  });

  it('scores a face lit by another sequence low', () => {
    expect(scoreIllumination(samples(other, 0.1), issued, 2).correlation).toBeLessThan(0.5);
  });

  it('scores an unlit face (a screen replay, an injected video) near zero', () => {
    expect(Math.abs(scoreIllumination(samples(null, 0), issued, 2).correlation)).toBeLessThan(0.3);
  });

  it('finds the response one frame late (camera latency)', () => {
    const s = samples(issued, 0.1).map((x, i, all) => ({ ...x, skinRgb: (all[i - 1] ?? x).skinRgb }));
    expect(scoreIllumination(s, issued, 2).lagFrames).toBe(1);
  });

  it('counts frames whose claimed colour is not the issued one', () => {
    const s = samples(issued, 0.1).map((x) => ({ ...x, claimed: x.claimed === 'red' ? ('green' as const) : ('red' as const) }));
    expect(scoreIllumination(s, issued, 2).claimedMismatch).toBeGreaterThan(0.5);
  });
});
