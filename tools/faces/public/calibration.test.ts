import { describe, expect, it } from 'vitest';
import { rates, thresholdAtFar } from './calibration.js';
import { isHeldOutIdentity, loadPublicFaces } from './sources.js';

describe('face-match calibration', () => {
  it('picks the lowest 0.001-grid threshold that accepts at most FAR of the impostors', () => {
    const diff = Float64Array.from({ length: 1000 }, (_, i) => i / 1000 - 0.5); // -0.5 .. 0.499
    const t = thresholdAtFar(diff, 0.01); // at most 10 of 1000 may be ≥ t
    const r = rates({ same: Float64Array.from([0.6, 0.49, 0.3]), diff }, t);
    expect(r.fa).toBeLessThanOrEqual(10);
    expect(rates({ same: new Float64Array(), diff }, t - 0.001).fa).toBeGreaterThan(10);
    expect(r.fr).toBe(1);
  });

  it('the manifest pins every photo, one set per repository, and holds out whole identities', () => {
    const m = loadPublicFaces();
    expect(new Set(m.repos.map((r) => r.set)).size).toBe(m.repos.length);
    for (const r of m.repos) expect(r.commit).toMatch(/^[0-9a-f]{40}$/);
    expect(new Set(m.photos.map((p) => p.id)).size).toBe(m.photos.length);
    for (const p of m.photos) expect(p.sha256).toMatch(/^[0-9a-f]{64}$/);
    const ids = [...new Set(m.photos.map((p) => `${p.set}/${p.identity}`))];
    const held = ids.filter((id) => isHeldOutIdentity(id.split('/')[0]!, id.split('/')[1]!));
    // ≈ 30 % of the people, decided by a hash of the name, not by any score.
    expect(held.length / ids.length).toBeGreaterThan(0.25);
    expect(held.length / ids.length).toBeLessThan(0.35);
  });
});
