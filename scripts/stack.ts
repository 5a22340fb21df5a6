import { fork, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../platform/paths.js';
import { createOrm } from '../db/orm.js';
import { startEmbeddedPostgres, type RunningPostgres } from '../platform/postgres.js';
import { startTemporalDevServer, type RunningTemporal } from '../platform/temporal-server.js';
import { startAuthStandins, type RunningStandins } from '../platform/auth-standins.js';
import { startTemporalPostgres } from './temporal-postgres.js';

/**
 * Starts the whole stack on embedded defaults: PostgreSQL (unless a DATABASE_URL is given), the
 * Temporal dev server with its Web UI (unless TEMPORAL_ADDRESS is given; `temporal: 'postgres'`
 * runs a Temporal server on that PostgreSQL instead), migrations, the api and the worker (or as
 * many of each as asked). Used by `npm start` and by the integration test setup.
 */
export interface StackOptions {
  dataDir: string;
  databaseUrl?: string;
  pgPort: number;
  temporalAddress?: string;
  temporalPort: number;
  temporalUiPort?: number;
  temporalDbFile?: string;
  /** 'dev' (default): the Temporal CLI's dev server (SQLite); 'postgres': scripts/temporal-postgres.ts. */
  temporal?: 'dev' | 'postgres';
  /** Use the Temporal server's default internal ports (7234, 6933, …) rather than free ones. */
  temporalFixedPorts?: boolean;
  apiPort: number;
  /** Ports of api processes beyond the first (one process each, same database and Temporal). */
  extraApiPorts?: number[];
  /** Worker processes (default 1), all polling the same task queue. */
  workers?: number;
  env?: NodeJS.ProcessEnv;
  log?: (m: string) => void;
  startApi?: boolean;
  startWorker?: boolean;
  logFile?: string;
  /** Extra node options for the api processes (benchmarks: `--cpu-prof`). */
  apiNodeArgs?: string[];
  /** Extra node options for the worker processes (benchmarks: `--cpu-prof`). */
  workerNodeArgs?: string[];
  /** Ports for the local Google/GitHub sign-in stand-ins (0: any free port). */
  standinPorts?: { google: number; github: number };
}

export interface RunningStack {
  databaseUrl: string;
  temporalAddress: string;
  temporalUiUrl: string | null;
  apiUrl: string;
  /** Every api process's URL, the first being `apiUrl`. */
  apiUrls: string[];
  temporalKind: 'dev' | 'postgres' | 'external';
  /** The Temporal server process this stack started (null for an external one). */
  temporalProcess: ChildProcess | null;
  /** The local sign-in stand-ins, when started (outside production, no real client ids given). */
  standins: RunningStandins | null;
  env: NodeJS.ProcessEnv;
  api: ChildProcess | null;
  worker: ChildProcess | null;
  apis: ChildProcess[];
  workers: ChildProcess[];
  /** Starts a worker; it replaces the first worker unless `extra` (then it is added). */
  startWorker(extra?: boolean): Promise<ChildProcess>;
  /**
   * Operator restarts, for chaos runs (bench/chaos.ts): each starts the process again with the
   * settings and ports it had, after it died or was killed. They do not kill anything themselves.
   */
  restartApi(index?: number): Promise<ChildProcess>;
  restartWorker(index?: number): Promise<ChildProcess>;
  restartTemporal(): Promise<void>;
  restartPostgres(): Promise<void>;
  /** The PostgreSQL postmaster's pid (embedded PostgreSQL only; its `postmaster.pid`). */
  postgresPid(): number | null;
  stop(): Promise<void>;
}

/** Forks a TypeScript entry point through tsx and resolves once it reports ready. */
export function forkService(entry: string, env: NodeJS.ProcessEnv, name: string, opts: { timeoutMs?: number; logFile?: string; nodeArgs?: string[] } = {}): Promise<ChildProcess> {
  const timeoutMs = opts.timeoutMs ?? 120_000;
  // Tests send service logs to a file so they can assert that no PII was ever logged.
  const out = opts.logFile ? openSync(opts.logFile, 'a') : 'inherit';
  return new Promise((resolve, reject) => {
    const child = fork(path.join(REPO_ROOT, entry), [], { env, execArgv: ['--import', 'tsx', ...(opts.nodeArgs ?? [])], stdio: ['ignore', out, out, 'ipc'] });
    const timer = setTimeout(() => reject(new Error(`${name} did not become ready in ${timeoutMs} ms`)), timeoutMs);
    child.once('message', () => {
      clearTimeout(timer);
      resolve(child);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      // The log file is often a temporary directory's, removed with it: the error carries its end.
      reject(new Error(`${name} exited early with code ${code}${opts.logFile ? `; the end of ${opts.logFile}:\n${logTail(opts.logFile)}` : ''}`));
    });
  });
}

function logTail(file: string, chars = 3000): string {
  try {
    return readFileSync(file, 'utf8').slice(-chars);
  } catch {
    return '(unreadable)';
  }
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
  const apis: ChildProcess[] = [];
  const workers: ChildProcess[] = [];
  let standins: RunningStandins | null = null;
  const pgDir = path.join(o.dataDir, 'postgres');
  const startPostgres = () => startEmbeddedPostgres({ dataDir: pgDir, port: o.pgPort, database: 'ivs', log });
  const startTemporal = (databaseUrl: string): Promise<RunningTemporal> => {
    if (o.temporal === 'postgres') return startTemporalPostgres({ databaseUrl, port: o.temporalPort, fixedPorts: o.temporalFixedPorts, log, logFile: o.logFile });
    log('starting Temporal dev server');
    return startTemporalDevServer({ port: o.temporalPort, uiPort: o.temporalUiPort, dbFile: o.temporalDbFile, headless: !o.temporalUiPort });
  };
  const stop = async () => {
    await Promise.all([...apis, ...workers].map((c) => stopChild(c)));
    await standins?.stop();
    await temporal?.stop();
    await pg?.stop();
  };
  try {
    let databaseUrl = o.databaseUrl;
    if (!databaseUrl) {
      log('starting embedded PostgreSQL');
      pg = await startPostgres();
      databaseUrl = pg.url;
    }
    let temporalAddress = o.temporalAddress;
    if (!temporalAddress) {
      temporal = await startTemporal(databaseUrl);
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
    const startWorker = async (extra = false) => {
      const worker = await forkService('worker/main.ts', env, 'worker', { logFile: o.logFile, nodeArgs: o.workerNodeArgs });
      if (extra || workers.length === 0) workers.push(worker);
      else workers[0] = worker;
      return worker;
    };
    // Workers start one after another: each bundles the workflow code and loads the engines, and
    // doing both at once on a small machine only makes every one of them slower to become ready.
    if (o.startWorker !== false) for (let i = 0; i < (o.workers ?? 1); i++) await startWorker(true);
    const apiPorts = [o.apiPort, ...(o.extraApiPorts ?? [])];
    if (o.startApi !== false) {
      for (const port of apiPorts) apis.push(await forkService('api/server.ts', { ...env, PORT: String(port) }, 'api', { logFile: o.logFile, nodeArgs: o.apiNodeArgs }));
    }
    return {
      databaseUrl,
      temporalAddress,
      temporalUiUrl: temporal?.uiUrl ?? null,
      temporalKind: o.temporalAddress ? 'external' : (o.temporal ?? 'dev'),
      get temporalProcess() { return temporal?.process ?? null; },
      apiUrl: `http://127.0.0.1:${o.apiPort}`,
      apiUrls: apiPorts.map((p) => `http://127.0.0.1:${p}`),
      standins,
      env,
      get api() { return apis[0] ?? null; },
      get worker() { return workers[0] ?? null; },
      apis,
      workers,
      startWorker,
      async restartApi(index = 0) {
        const port = apiPorts[index];
        if (port === undefined) throw new Error(`no api process ${index}`);
        apis[index] = await forkService('api/server.ts', { ...env, PORT: String(port) }, 'api', { logFile: o.logFile, nodeArgs: o.apiNodeArgs });
        return apis[index]!;
      },
      async restartWorker(index = 0) {
        workers[index] = await forkService('worker/main.ts', env, 'worker', { logFile: o.logFile, nodeArgs: o.workerNodeArgs });
        return workers[index]!;
      },
      async restartTemporal() {
        if (!temporal) throw new Error('this stack did not start the Temporal server');
        temporal = await startTemporal(databaseUrl);
      },
      async restartPostgres() {
        if (!pg) throw new Error('this stack did not start PostgreSQL');
        pg = await startPostgres();
      },
      postgresPid() {
        const pidFile = path.join(pgDir, 'postmaster.pid');
        if (!pg || !existsSync(pidFile)) return null;
        return Number(readFileSync(pidFile, 'utf8').split('\n')[0]) || null;
      },
      stop,
    } as RunningStack;
  } catch (err) {
    await stop();
    throw err;
  }
}
