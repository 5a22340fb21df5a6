import { describe, expect, it, vi } from 'vitest';
import { ephemeralPortRange, FETCH_BAD_PORTS, freePort } from './temporal-server.js';

const fetchCause = (port: number) =>
  fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(2_000) }).then(
    () => 'answered',
    (e: unknown) => String((e as { cause?: { message?: string; code?: string } }).cause?.message ?? e),
  );

describe('freePort', () => {
  it('knows every port Node fetch refuses in its range: the listed ones are refused, their neighbours are not', async () => {
    expect(await fetchCause(10_080)).toBe('bad port');
    for (const port of FETCH_BAD_PORTS) if (port >= 10_000) expect(await fetchCause(port)).toBe('bad port');
    expect(await fetchCause(10_079)).not.toBe('bad port');
    expect(await fetchCause(10_081)).not.toBe('bad port');
  });

  it('never hands out a port fetch refuses: a draw of 10080 is passed over for the next one', async () => {
    const [ephemeralLow] = ephemeralPortRange();
    expect(ephemeralLow - 1 - 10_000).toBeGreaterThanOrEqual(2_000); // the range freePort draws from here starts at 10000
    const span = ephemeralLow - 10_000;
    const draws = [(80.5 / span), (81.5 / span)]; // 10000 + floor(r × span): 10080, then 10081
    const random = vi.spyOn(Math, 'random').mockImplementation(() => draws.shift() ?? 0.5);
    try {
      expect(await freePort()).toBe(10_081);
    } finally {
      random.mockRestore();
    }
  });
});
