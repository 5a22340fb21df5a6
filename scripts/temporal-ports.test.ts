import { afterEach, describe, expect, it, vi } from 'vitest';
import { temporalPorts } from './temporal-postgres.js';

/**
 * The PostgreSQL-backed Temporal server of the tests and benchmarks gets free ports drawn at random
 * (20000–32000: below Linux's ephemeral range, and membership ports must fit a smallint). Nothing
 * listens on a drawn port until the server binds it, so one draw must never repeat an earlier one:
 * a repeat makes the server exit on its second bind (the likely cause of a CI run of 2026-11-29
 * whose multi-worker suite saw the server exit while starting; its log was not kept then).
 */
describe('temporalPorts', () => {
  afterEach(() => vi.restoreAllMocks());

  it('gives every service its own port even when the random draws repeat, and never the frontend port', async () => {
    // 26000 twice, then the frontend port's own value, then distinct ones.
    const draws = [0.5, 0.5, (27_233 - 20_000) / 12_000, 0.51, 0.52, 0.53, 0.54, 0.55, 0.56, 0.57, 0.58];
    const random = vi.spyOn(Math, 'random');
    for (const d of draws) random.mockReturnValueOnce(d);
    const p = await temporalPorts(27_233, false);
    const all = [p.frontend, p.frontendHttp, p.history, p.matching, p.worker, ...Object.values(p.membership)];
    expect(new Set(all).size).toBe(all.length);
    for (const port of all.slice(1)) {
      expect(port).toBeGreaterThanOrEqual(20_000);
      expect(port).toBeLessThan(32_000);
    }
  });
});
