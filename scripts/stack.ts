import { fork, type ChildProcess } from 'node:child_process';
import { mkdirSync, openSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../platform/paths.js';
import { createOrm } from '../db/orm.js';
import { startEmbeddedPostgres, type RunningPostgres } from '../platform/postgres.js';
import { startTemporalDevServer, type RunningTemporal } from '../platform/temporal-server.js';
import { startAuthStandins, type RunningStandins } from '../platform/auth-standins.js';

/**
 * Starts the whole stack on embedded defaults: PostgreSQL (unless a DATABASE_URL is given), the
 * Temporal dev server with its Web UI (unless TEMPORAL_ADDRESS is given), migrations, the api
 * and the worker. Used by `npm start` and by the integration test setup.
 */
export interface StackOptions {
  dataDir: string;
  databaseUrl?: string;
  pgPort: number;
  temporalAddress?: string;
  temporalPort: number;
  temporalUiPort?: number;
  temporalDbFile?: string;
  apiPort: number;
  env?: NodeJS.ProcessEnv;
  log?: (m: string) => void;
  startApi?: boolean;
  startWorker?: boolean;
  logFile?: string;
  /** Ports for the local Google/GitHub sign-in stand-ins (0: any free port). */
  standinPorts?: { google: number; github: number };
}

export interface RunningStack {
  databaseUrl: string;
  temporalAddress: string;
  temporalUiUrl: string | null;
  apiUrl: string;
  /** The local sign-in stand-ins, when started (outside production, no real client ids given). */
  standins: RunningStandins | null;
  env: NodeJS.ProcessEnv;
  api: ChildProcess | null;
  worker: ChildProcess | null;
  startWorker(): Promise<ChildProcess>;
  stop(): Promise<void>;
}

/** Forks a TypeScript entry point through tsx and resolves once it reports ready. */
export function forkService(entry: string, env: NodeJS.ProcessEnv, name: string, opts: { timeoutMs?: number; logFile?: string } = {}): Promise<ChildProcess> {
  const timeoutMs = opts.timeoutMs ?? 120_000;
  // Tests send service logs to a file so they can assert that no PII was ever logged.
  const out = opts.logFile ? openSync(opts.logFile, 'a') : 'inherit';
  return new Promise((resolve, reject) => {
    const child = fork(path.join(REPO_ROOT, entry), [], { env, execArgv: ['--import', 'tsx'], stdio: ['ignore', out, out, 'ipc'] });
    const timer = setTimeout(() => reject(new Error(`${name} did not become ready in ${timeoutMs} ms`)), timeoutMs);
    child.once('message', () => {
      clearTimeout(timer);
      resolve(child);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited early with code ${code}`));
    });
  });
}

export async function stopChild(child: ChildProcess | null, signal: NodeJS.Signals = 'SIGTERM', graceMs = 15_000): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill(signal);
    setTimeout(() => child.kill('SIGKILL'), graceMs).unref();
  });
}

export async function startStack(o: StackOptions): Promise<RunningStack> {
  mkdirSync(o.dataDir, { recursive: true });
  const log = o.log ?? (() => {});
  let pg: RunningPostgres | null = null;
  let temporal: RunningTemporal | null = null;
  let api: ChildProcess | null = null;
  let worker: ChildProcess | null = null;
  let standins: RunningStandins | null = null;
  const stop = async () => {
    await Promise.all([stopChild(api), stopChild(worker)]);
    await standins?.stop();
    await temporal?.stop();
    await pg?.stop();
  };
  try {
    let databaseUrl = o.databaseUrl;
    if (!databaseUrl) {
      log('starting embedded PostgreSQL');
      pg = await startEmbeddedPostgres({ dataDir: path.join(o.dataDir, 'postgres'), port: o.pgPort, database: 'ivs', log });
      databaseUrl = pg.url;
    }
    let temporalAddress = o.temporalAddress;
    if (!temporalAddress) {
      log('starting Temporal dev server');
      temporal = await startTemporalDevServer({ port: o.temporalPort, uiPort: o.temporalUiPort, dbFile: o.temporalDbFile, headless: !o.temporalUiPort });
      temporalAddress = temporal.address;
    }
    log('running migrations');
    const orm = await createOrm(databaseUrl);
    await orm.migrator.up();
    await orm.close();

    // Outside production, without real OAuth clients configured, sign-in goes to the local stand-ins.
    const given = { ...process.env, ...o.env };
    if (given.SERVICE_MODE !== 'production' && given.NODE_ENV !== 'production' && !given.GOOGLE_CLIENT_ID && !given.GITHUB_CLIENT_ID) {
      log('starting the local Google and GitHub sign-in stand-ins');
      const publicBase = (given.PUBLIC_BASE_URL ?? `http://127.0.0.1:${o.apiPort}`).replace(/\/$/, '');
      standins = await startAuthStandins(publicBase, o.standinPorts ?? { google: 0, github: 0 });
    }
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      ...o.env,
      ...(standins?.env ?? {}),
      DATABASE_URL: databaseUrl,
      TEMPORAL_ADDRESS: temporalAddress,
      PORT: String(o.apiPort),
      DATA_DIR: o.dataDir,
      ...(temporal?.uiUrl ? { TEMPORAL_UI_URL: temporal.uiUrl } : {}),
    };
    const startWorker = async () => {
      worker = await forkService('worker/main.ts', env, 'worker', { logFile: o.logFile });
      return worker;
    };
    if (o.startWorker !== false) await startWorker();
    if (o.startApi !== false) api = await forkService('api/server.ts', env, 'api', { logFile: o.logFile });
    return {
      databaseUrl,
      temporalAddress,
      temporalUiUrl: temporal?.uiUrl ?? null,
      apiUrl: `http://127.0.0.1:${o.apiPort}`,
      standins,
      env,
      get api() { return api; },
      get worker() { return worker; },
      startWorker,
      stop,
    } as RunningStack;
  } catch (err) {
    await stop();
    throw err;
  }
}
