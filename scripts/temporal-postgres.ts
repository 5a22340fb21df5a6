/**
 * A real Temporal server on PostgreSQL, the way production runs it (the dev server keeps its
 * history in SQLite). Builds the pinned server and its SQL tool with `go install` once per machine,
 * creates and migrates the `temporal` and `temporal_visibility` databases with temporal-sql-tool,
 * writes the server's YAML config, starts it, and registers the namespace and the search attributes
 * the Case workflow sets.
 *
 *   npm run temporal:postgres -- build                       build (or find) the binaries, print where
 *   npm run temporal:postgres -- start [--database-url URL] [--port 7233] [--data-dir DIR]
 *                                                            schemas + server in the foreground
 *
 * `npm start` uses it with TEMPORAL=postgres (scripts/stack.ts); docs/deployment.md has the rest.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Connection } from '@temporalio/client';
import { msToTs } from '@temporalio/common';
import pg from 'pg';
import { SEARCH_ATTRIBUTES, waitForPort, type RunningTemporal } from '../platform/temporal-server.js';

/** The server release that was built, run and measured (docker-compose.yml pins the same image). */
export const TEMPORAL_SERVER_VERSION = '1.32.2';
/** go.temporal.io/server@v1.32.2 declares `go 1.26.10`; `+auto` lets an older local Go fetch it. */
const GO_TOOLCHAIN = 'go1.26.10+auto';
const MODULE = 'go.temporal.io/server';

export interface TemporalBinaries {
  version: string;
  dir: string;
  server: string;
  sqlTool: string;
  /** schema/postgresql/v12 copied from the module source, so the cache needs no module cache. */
  schemaDir: string;
}

/**
 * One build per machine, shared by every checkout: `TEMPORAL_SERVER_DIR`, else
 * `$XDG_CACHE_HOME/ivs/temporal-<version>` (`~/.cache/...`). Not `.data/`: CI clones afresh each
 * run and a worktree has its own `.data/`, and an 11-minute build should not repeat for either.
 */
export function temporalCacheDir(version = TEMPORAL_SERVER_VERSION): string {
  if (process.env.TEMPORAL_SERVER_DIR) return path.resolve(process.env.TEMPORAL_SERVER_DIR);
  const cacheHome = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return path.join(cacheHome, 'ivs', `temporal-${version}`);
}

function binariesIn(dir: string, version: string): TemporalBinaries {
  return { version, dir, server: path.join(dir, 'server'), sqlTool: path.join(dir, 'sql'), schemaDir: path.join(dir, 'schema', 'postgresql', 'v12') };
}

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv = process.env): string {
  const r = spawnSync(cmd, args, { env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (r.error) throw r.error;
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${r.status}): ${(r.stderr || r.stdout).slice(-2000)}`);
  return r.stdout;
}

/** Where `go` keeps the module's source (downloaded if need be: seconds, unlike the build). */
function moduleSource(version: string): string {
  const out = run('go', ['mod', 'download', '-json', `${MODULE}@v${version}`], { ...process.env, GOTOOLCHAIN: GO_TOOLCHAIN });
  return (JSON.parse(out) as { Dir: string }).Dir;
}

function copySchemas(version: string, schemaDir: string): void {
  const src = path.join(moduleSource(version), 'schema', 'postgresql', 'v12');
  mkdirSync(path.dirname(schemaDir), { recursive: true });
  cpSync(src, schemaDir, { recursive: true });
  // Module cache files are read-only; the copy stays writable so a later rm works.
  spawnSync('chmod', ['-R', 'u+w', schemaDir]);
}

/** The cached binaries if both run and report the pinned version; null otherwise. */
export function findTemporalBinaries(version = TEMPORAL_SERVER_VERSION): TemporalBinaries | null {
  const bins = binariesIn(temporalCacheDir(version), version);
  for (const bin of [bins.server, bins.sqlTool]) {
    if (!existsSync(bin)) return null;
    const v = spawnSync(bin, ['--version'], { encoding: 'utf8' });
    if (v.status !== 0 || !v.stdout.includes(version)) return null;
  }
  if (!existsSync(path.join(bins.schemaDir, 'temporal', 'versioned'))) copySchemas(version, bins.schemaDir);
  return bins;
}

/**
 * Builds the server and temporal-sql-tool with `go install` (one invocation, so the shared packages
 * compile once): about 11 minutes and 2.1 GB RSS on 2 cores with an empty Go build cache, under a
 * minute with a warm one. Builds into a scratch folder and renames it, so an interrupted build never
 * leaves a half-filled cache that a later run would trust.
 */
export async function buildTemporalBinaries(opts: { version?: string; log?: (m: string) => void } = {}): Promise<TemporalBinaries> {
  const version = opts.version ?? TEMPORAL_SERVER_VERSION;
  const found = findTemporalBinaries(version);
  if (found) return found;
  const dir = temporalCacheDir(version);
  const scratch = `${dir}.building-${process.pid}`;
  rmSync(scratch, { recursive: true, force: true });
  mkdirSync(scratch, { recursive: true });
  const log = opts.log ?? (() => {});
  log(`building Temporal server ${version} and temporal-sql-tool with go install (about 11 min on 2 cores the first time)`);
  const t0 = Date.now();
  const child = spawn('go', ['install', `${MODULE}/cmd/server@v${version}`, `${MODULE}/cmd/tools/sql@v${version}`], {
    env: { ...process.env, GOBIN: scratch, GOTOOLCHAIN: GO_TOOLCHAIN },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) {
    rmSync(scratch, { recursive: true, force: true });
    throw new Error(`go install of Temporal server ${version} failed with ${code}`);
  }
  copySchemas(version, path.join(scratch, 'schema', 'postgresql', 'v12'));
  rmSync(dir, { recursive: true, force: true });
  renameSync(scratch, dir);
  log(`built in ${Math.round((Date.now() - t0) / 1000)} s into ${dir}`);
  const bins = findTemporalBinaries(version);
  if (!bins) throw new Error(`the build in ${dir} does not report version ${version}`);
  return bins;
}

export interface PostgresTarget {
  host: string;
  port: number;
  user: string;
  password: string;
}

export function postgresTarget(databaseUrl: string): PostgresTarget {
  const u = new URL(databaseUrl);
  return { host: u.hostname, port: Number(u.port || 5432), user: decodeURIComponent(u.username), password: decodeURIComponent(u.password) };
}

export const TEMPORAL_DATABASES = { main: 'temporal', visibility: 'temporal_visibility' } as const;

/**
 * Creates both databases if missing, then brings each schema to the newest version shipped with the
 * server (temporal-sql-tool setup-schema once, update-schema every time: it applies only what is
 * missing, so a server upgrade is a new pinned version and a restart).
 */
export async function setupTemporalSchemas(bins: TemporalBinaries, target: PostgresTarget, log: (m: string) => void = () => {}): Promise<void> {
  const admin = new pg.Client({ ...target, database: 'postgres' });
  await admin.connect();
  try {
    for (const db of Object.values(TEMPORAL_DATABASES)) {
      const exists = await admin.query('select 1 from pg_database where datname = $1', [db]);
      if (exists.rowCount === 0) {
        log(`creating database ${db}`);
        await admin.query(`create database ${db}`);
      }
    }
  } finally {
    await admin.end();
  }
  const base = ['--plugin', 'postgres12', '--ep', target.host, '-p', String(target.port), '-u', target.user];
  // The password goes through the environment, not argv (visible to every user in `ps`).
  const env = { ...process.env, SQL_PASSWORD: target.password };
  for (const [db, folder] of [[TEMPORAL_DATABASES.main, 'temporal'], [TEMPORAL_DATABASES.visibility, 'visibility']] as const) {
    const client = new pg.Client({ ...target, database: db });
    await client.connect();
    const versioned = await client.query("select 1 from information_schema.tables where table_name = 'schema_version'").finally(() => client.end());
    if (versioned.rowCount === 0) run(bins.sqlTool, [...base, '--db', db, 'setup-schema', '-v', '0.0'], env);
    run(bins.sqlTool, [...base, '--db', db, 'update-schema', '-d', path.join(bins.schemaDir, folder, 'versioned')], env);
    log(`schema of ${db} is current`);
  }
}

export interface TemporalPorts {
  frontend: number;
  frontendHttp: number;
  history: number;
  matching: number;
  worker: number;
  membership: { frontend: number; history: number; matching: number; worker: number };
}

/**
 * A free port below 32768: the cluster_membership table stores the membership port as a smallint,
 * and the kernel's ephemeral ports (what `listen(0)` hands out) start above it.
 */
async function lowFreePort(): Promise<number> {
  for (let i = 0; i < 200; i++) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    const ok = await new Promise<boolean>((resolve) => {
      const srv = net.createServer();
      srv.once('error', () => resolve(false));
      srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
    });
    if (ok) return port;
  }
  throw new Error('no free port between 20000 and 32000');
}

/** The frontend port is the one clients use; the rest are the services' own (gRPC + membership). */
export async function temporalPorts(frontend: number, fixed: boolean): Promise<TemporalPorts> {
  if (fixed) {
    // The server's documented defaults, offset from the frontend port.
    const d = frontend - 7233;
    return { frontend, frontendHttp: 7243 + d, history: 7234 + d, matching: 7235 + d, worker: 7239 + d, membership: { frontend: 6933 + d, history: 6934 + d, matching: 6935 + d, worker: 6939 + d } };
  }
  const p = async () => lowFreePort();
  return { frontend, frontendHttp: await p(), history: await p(), matching: await p(), worker: await p(), membership: { frontend: await p(), history: await p(), matching: await p(), worker: await p() } };
}

/** The server config (YAML; JSON is YAML). Single node, no archival, SQL visibility. */
export function temporalServerConfig(o: { target: PostgresTarget; ports: TemporalPorts; dynamicConfigFile: string; numHistoryShards?: number; logLevel?: string }) {
  const store = (databaseName: string, maxConns: number) => ({
    sql: {
      pluginName: 'postgres12',
      databaseName,
      connectAddr: `${o.target.host}:${o.target.port}`,
      connectProtocol: 'tcp',
      user: o.target.user,
      password: o.target.password,
      maxConns,
      maxIdleConns: maxConns,
      maxConnLifetime: '1h',
    },
  });
  const svc = (grpcPort: number, membershipPort: number, extra: Record<string, unknown> = {}) => ({ rpc: { grpcPort, membershipPort, bindOnIP: '127.0.0.1', ...extra } });
  return {
    log: { stdout: true, level: o.logLevel ?? 'warn' },
    persistence: {
      defaultStore: 'postgres-default',
      visibilityStore: 'postgres-visibility',
      // Shards are fixed for the cluster's life. 4 suits one node on 2 cores (the dev server uses 1);
      // docs/deployment.md sizes it for more.
      numHistoryShards: o.numHistoryShards ?? 4,
      datastores: { 'postgres-default': store(TEMPORAL_DATABASES.main, 20), 'postgres-visibility': store(TEMPORAL_DATABASES.visibility, 4) },
    },
    global: { membership: { maxJoinDuration: '30s', broadcastAddress: '127.0.0.1' } },
    services: {
      frontend: svc(o.ports.frontend, o.ports.membership.frontend, { httpPort: o.ports.frontendHttp }),
      history: svc(o.ports.history, o.ports.membership.history),
      matching: svc(o.ports.matching, o.ports.membership.matching),
      worker: svc(o.ports.worker, o.ports.membership.worker),
    },
    clusterMetadata: {
      enableGlobalNamespace: false,
      failoverVersionIncrement: 10,
      masterClusterName: 'active',
      currentClusterName: 'active',
      clusterInformation: { active: { enabled: true, initialFailoverVersion: 1, rpcName: 'frontend', rpcAddress: `127.0.0.1:${o.ports.frontend}` } },
    },
    dcRedirectionPolicy: { policy: 'noop' },
    archival: { history: { state: 'disabled' }, visibility: { state: 'disabled' } },
    namespaceDefaults: { archival: { history: { state: 'disabled' }, visibility: { state: 'disabled' } } },
    dynamicConfigClient: { filepath: o.dynamicConfigFile, pollInterval: '10s' },
  };
}

/** Dynamic config: the ids the service uses fit the default limits, so only what differs from it. */
const DYNAMIC_CONFIG = `# Written by scripts/temporal-postgres.ts.
# Search attributes registered at setup are visible to the next start at once (the default caches
# them for a minute), as on the dev server. A production cluster that registers them once can drop it.
system.forceSearchAttributesCacheRefreshOnRead:
  - value: true
`;

/** temporal.api.enums.v1.IndexedValueType (api/enums/v1/common.proto): KEYWORD = 2, INT = 3. */
const INDEXED = { Keyword: 2, Int: 3 } as const;

/**
 * Registers the namespace (if missing) and the Case workflow's search attributes (those missing),
 * then waits until the namespace serves requests (the frontend's namespace cache refreshes every 2 s).
 */
export async function registerNamespace(address: string, namespace: string, retentionDays = 30, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const connection = await Connection.connect({ address });
  try {
    const svc = connection.workflowService;
    for (;;) {
      try {
        await svc.describeNamespace({ namespace });
        break;
      } catch (err) {
        if (Date.now() > deadline) throw err;
        try {
          await svc.registerNamespace({ namespace, workflowExecutionRetentionPeriod: msToTs(`${retentionDays} days`) });
        } catch { /* frontend not ready yet, or a concurrent registration: describe again */ }
        await new Promise((r) => setTimeout(r, 500));
      }
    }
    // Until the namespace cache has it, the operator and visibility APIs answer NotFound.
    for (;;) {
      try {
        const have = await connection.operatorService.listSearchAttributes({ namespace });
        const missing = Object.fromEntries(Object.entries(SEARCH_ATTRIBUTES).filter(([k]) => !have.customAttributes?.[k]).map(([k, t]) => [k, INDEXED[t]]));
        if (Object.keys(missing).length > 0) await connection.operatorService.addSearchAttributes({ namespace, searchAttributes: missing });
        await svc.countWorkflowExecutions({ namespace, query: 'ProjectId = "ready-probe"' });
        return;
      } catch (err) {
        if (Date.now() > deadline) throw err;
        await new Promise((r) => setTimeout(r, 500));
      }
    }
  } finally {
    await connection.close();
  }
}

export interface RunningTemporalPostgres extends RunningTemporal {
  version: string;
  configFile: string;
}

/**
 * Sets up the schemas, writes the config under `<dataDir>/temporal-postgres/` and starts the server;
 * resolves once the namespace and search attributes answer. `fixedPorts` uses the server's default
 * ports (npm start); otherwise only the frontend port is fixed and the rest are free ones (tests).
 */
export async function startTemporalPostgres(o: {
  databaseUrl: string;
  port: number;
  dataDir: string;
  namespace?: string;
  fixedPorts?: boolean;
  log?: (m: string) => void;
  logFile?: string;
  build?: boolean;
}): Promise<RunningTemporalPostgres> {
  const log = o.log ?? (() => {});
  const bins = o.build === false ? findTemporalBinaries() : await buildTemporalBinaries({ log });
  if (!bins) throw new Error(`Temporal server ${TEMPORAL_SERVER_VERSION} is not built: run \`npm run temporal:postgres -- build\``);
  const target = postgresTarget(o.databaseUrl);
  await setupTemporalSchemas(bins, target, log);
  const dir = path.join(o.dataDir, 'temporal-postgres');
  mkdirSync(dir, { recursive: true });
  const dynamicConfigFile = path.join(dir, 'dynamicconfig.yaml');
  writeFileSync(dynamicConfigFile, DYNAMIC_CONFIG);
  const ports = await temporalPorts(o.port, o.fixedPorts ?? false);
  const configFile = path.join(dir, 'config.yaml');
  // The config holds the database password: readable by its owner only.
  writeFileSync(configFile, JSON.stringify(temporalServerConfig({ target, ports, dynamicConfigFile }), null, 2), { mode: 0o600 });
  log(`starting Temporal server ${bins.version} on PostgreSQL (${target.host}:${target.port})`);
  const out = o.logFile ? (await import('node:fs')).openSync(o.logFile, 'a') : 'ignore';
  const child: ChildProcess = spawn(bins.server, ['--config-file', configFile, '--allow-no-auth', 'start'], { stdio: ['ignore', out, 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (d) => { stderr = (stderr + String(d)).slice(-4000); });
  const stop = () => new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
  });
  const exited = new Promise<never>((_, reject) => child.once('exit', (code) => reject(new Error(`temporal server exited with ${code}: ${stderr}`))));
  exited.catch(() => {});
  try {
    await Promise.race([waitForPort(o.port, '127.0.0.1', 90_000), exited]);
    await Promise.race([registerNamespace(`127.0.0.1:${o.port}`, o.namespace ?? 'default'), exited]);
  } catch (err) {
    await stop();
    throw err;
  }
  return { address: `127.0.0.1:${o.port}`, uiUrl: null, process: child, version: bins.version, configFile, stop };
}

async function main(): Promise<void> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: { 'database-url': { type: 'string' }, port: { type: 'string', default: '7233' }, 'data-dir': { type: 'string', default: '.data' }, namespace: { type: 'string', default: 'default' } },
  });
  const log = (m: string) => console.log(`· ${m}`);
  const command = positionals[0] ?? 'build';
  if (command === 'build') {
    const bins = await buildTemporalBinaries({ log });
    console.log(JSON.stringify(bins, null, 2));
    return;
  }
  if (command !== 'start') throw new Error(`unknown command ${command}: build | start`);
  const databaseUrl = values['database-url'] ?? process.env.DATABASE_URL;
  if (!databaseUrl) throw new Error('--database-url or DATABASE_URL is required (a PostgreSQL role that may create databases)');
  const t = await startTemporalPostgres({ databaseUrl, port: Number(values.port), dataDir: path.resolve(values['data-dir']!), namespace: values.namespace, fixedPorts: true, log });
  console.log(`Temporal ${t.version} on PostgreSQL at ${t.address} (config ${t.configFile}); Ctrl-C stops it`);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => void t.stop().then(() => process.exit(0)));
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
}
