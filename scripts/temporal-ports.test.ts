import net from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ephemeralPortRange, freePort } from '../platform/temporal-server.js';
import { temporalPorts } from './temporal-postgres.js';

/**
 * Services started by the tests and benchmarks get free ports drawn ahead of time. Nothing listens
 * on a drawn port until its service binds it, so (1) one draw must never repeat an earlier one — a
 * repeat makes the Temporal server exit on its second bind — and (2) a draw must not come from the
 * kernel's ephemeral range, where any outgoing connection made meanwhile (the Temporal server's to
 * PostgreSQL, a worker's to Temporal) can take it: the api process then exits on EADDRINUSE, as in
 * the multi-worker suite on a clean CI machine (2026-11-29 and 2026-12-01).
 */
describe('free ports', () => {
  afterEach(() => vi.restoreAllMocks());

  it('gives every Temporal service its own port below 32768 even when the random draws repeat, and never the frontend port', async () => {
    const frontend = 27_233;
    const [ephemeralLow] = ephemeralPortRange();
    const high = Math.min(ephemeralLow - 1, 32_767);
    const span = high - 10_000 + 1;
    // The same port twice, then the frontend port, then distinct ones.
    const draws = [0.5, 0.5, (frontend - 10_000 + 0.5) / span, 0.51, 0.52, 0.53, 0.54, 0.55, 0.56, 0.57, 0.58];
    const random = vi.spyOn(Math, 'random');
    for (const d of draws) random.mockReturnValueOnce(d);
    const p = await temporalPorts(frontend, false);
    const all = [p.frontend, p.frontendHttp, p.history, p.matching, p.worker, ...Object.values(p.membership)];
    expect(new Set(all).size).toBe(all.length);
    for (const port of all.slice(1)) {
      expect(port).toBeGreaterThanOrEqual(10_000);
      expect(port).toBeLessThanOrEqual(32_767);
    }
  });

  it('never hands out a port an outgoing connection holds, nor one it handed out before', async () => {
    // Forty outgoing connections hold forty ephemeral local ports while ports are drawn.
    const server = net.createServer(() => {});
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const { port: target } = server.address() as net.AddressInfo;
    const sockets = await Promise.all(Array.from({ length: 40 }, () => new Promise<net.Socket>((r) => { const s = net.connect(target, '127.0.0.1', () => r(s)); })));
    const held = new Set(sockets.map((s) => s.localPort!));
    try {
      const [ephemeralLow] = ephemeralPortRange();
      const drawn: number[] = [];
      for (let i = 0; i < 60; i++) drawn.push(await freePort());
      expect(new Set(drawn).size).toBe(drawn.length);
      for (const port of drawn) {
        expect(held.has(port)).toBe(false);
        if (ephemeralLow - 10_000 >= 2_000) expect(port).toBeLessThan(ephemeralLow);
        // Each one binds.
        await new Promise<void>((resolve, reject) => { const s = net.createServer().once('error', reject).listen(port, '127.0.0.1', () => s.close(() => resolve())); });
      }
    } finally {
      for (const s of sockets) s.destroy();
      server.close();
    }
  });
});
