/**
 * A real Temporal server on PostgreSQL, the way production runs it (the dev server keeps its
 * history in SQLite). Builds the pinned server and its SQL tool with `go install` once per machine,
 * creates and migrates the `temporal` and `temporal_visibility` databases with temporal-sql-tool,
 * starts it with deploy/temporal/config.yaml (the file docker-compose.yml runs too), and registers
 * the namespace and the search attributes the Case workflow sets.
 *
 *   npm run temporal:postgres -- build                       build (or find) the binaries, print where
 *   npm run temporal:postgres -- start [--database-url URL] [--port 7233]
 *                                                            schemas + server in the foreground
 *   npm run temporal:postgres -- register [--address HOST:PORT] [--namespace default]
 *                                                            namespace + search attributes only
 *
 * `npm start` uses it with TEMPORAL=postgres (scripts/stack.ts); docs/deployment.md has the rest.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Connection, type ConnectionOptions } from '@temporalio/client';
import { msToTs } from '@temporalio/common';
import { REPO_ROOT } from '../platform/paths.js';
import { SEARCH_ATTRIBUTES, freePort, waitForPort, type RunningTemporal } from '../platform/temporal-server.js';

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

/**
 * `go` from PATH, else the standard install location: a non-interactive shell (CI's `bash .ci/run`)
 * does not read the profile that puts /usr/local/go/bin on PATH.
 */
function goBinary(): string {
  if (process.env.GO_BINARY) return process.env.GO_BINARY;
  if (spawnSync('go', ['version']).status === 0) return 'go';
  if (existsSync('/usr/local/go/bin/go')) return '/usr/local/go/bin/go';
  throw new Error('Go is needed to build the Temporal server: install it (go.dev/doc/install) or set GO_BINARY');
}

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv = process.env): string {
  const r = spawnSync(cmd, args, { env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (r.error) throw r.error;
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${r.status}): ${(r.stderr || r.stdout).slice(-2000)}`);
  return r.stdout;
}

/** Where `go` keeps the module's source (downloaded if need be: seconds, unlike the build). */
function moduleSource(version: string): string {
  const out = run(goBinary(), ['mod', 'download', '-json', `${MODULE}@v${version}`], { ...process.env, GOTOOLCHAIN: GO_TOOLCHAIN });
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
  const child = spawn(goBinary(), ['install', `${MODULE}/cmd/server@v${version}`, `${MODULE}/cmd/tools/sql@v${version}`], {
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

/** deploy/temporal: the server config template, dynamic config and schema script docker-compose.yml runs too. */
export const DEPLOY_DIR = path.join(REPO_ROOT, 'deploy', 'temporal');

/**
 * Creates the `temporal` and `temporal_visibility` databases if missing and brings both schemas to
 * the newest version shipped with the server: deploy/temporal/setup-schema.sh, idempotent.
 */
export function setupTemporalSchemas(bins: TemporalBinaries, target: PostgresTarget, log: (m: string) => void = () => {}): void {
  // The password goes through the environment, not argv (visible to every user in `ps`).
  run('sh', [path.join(DEPLOY_DIR, 'setup-schema.sh')], {
    PATH: process.env.PATH,
    SQL_HOST: target.host, SQL_PORT: String(target.port), SQL_USER: target.user, SQL_PASSWORD: target.password,
    TEMPORAL_SQL_TOOL: bins.sqlTool, TEMPORAL_SCHEMA_DIR: bins.schemaDir,
  });
  log('schemas of temporal and temporal_visibility are current');
}

export interface TemporalPorts {
  frontend: number;
  frontendHttp: number;
  history: number;
  matching: number;
  worker: number;
  membership: { frontend: number; history: number; matching: number; worker: number };
}

/** The frontend port is the one clients use; the rest are the services' own (gRPC + membership). */
export async function temporalPorts(frontend: number, fixed: boolean): Promise<TemporalPorts> {
  if (fixed) {
    // The server's documented defaults, offset from the frontend port.
    const d = frontend - 7233;
    if (6939 + d > 32_767) throw new Error(`frontend port ${frontend} puts the membership ports past 32767 (a smallint in cluster_membership): use one below 33061`);
    return { frontend, frontendHttp: 7243 + d, history: 7234 + d, matching: 7235 + d, worker: 7239 + d, membership: { frontend: 6933 + d, history: 6934 + d, matching: 6935 + d, worker: 6939 + d } };
  }
  // Free ports that fit the smallint in cluster_membership, never one handed out before in this
  // process (so never the frontend's, nor a repeat: the server would exit on its second bind).
  const p = async () => {
    for (;;) {
      const port = await freePort({ max: 32_767 });
      if (port !== frontend) return port;
    }
  };
  return { frontend, frontendHttp: await p(), history: await p(), matching: await p(), worker: await p(), membership: { frontend: await p(), history: await p(), matching: await p(), worker: await p() } };
}

/** temporal.api.enums.v1.IndexedValueType (api/enums/v1/common.proto): KEYWORD = 2, INT = 3. */
const INDEXED = { Keyword: 2, Int: 3 } as const;

/**
 * How long a Temporal service may go on using the search attributes it read before a registration
 * (the server's cache refresh interval, 60 s, plus a margin): `forceSearchAttributesCacheRefreshOnRead`
 * is off (deploy/temporal/dynamicconfig.yaml), so until then the history service can refuse a
 * visibility record that carries a new attribute (it is retried, not lost).
 */
export const SEARCH_ATTRIBUTE_CACHE_MS = 65_000;

/**
 * Registers the namespace (if missing) and the Case workflow's search attributes (those missing),
 * then waits until the namespace serves requests (the frontend's namespace cache refreshes every 2 s).
 * Resolves with the attributes it added (none on a cluster set up before): the caller makes sure
 * every service sees them (startTemporalPostgres restarts the server; `register` waits them out).
 */
export async function registerNamespace(address: string, namespace: string, retentionDays = 30, timeoutMs = 60_000, tls?: ConnectionOptions['tls']): Promise<string[]> {
  const deadline = Date.now() + timeoutMs;
  const connection = await Connection.connect({ address, tls });
  const added: string[] = [];
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
        if (Object.keys(missing).length > 0) {
          await connection.operatorService.addSearchAttributes({ namespace, searchAttributes: missing });
          added.push(...Object.keys(missing));
        }
        await svc.countWorkflowExecutions({ namespace, query: 'ProjectId = "ready-probe"' });
        return added;
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
 * Sets up the schemas and starts the server with deploy/temporal/config.yaml;
 * resolves once the namespace and search attributes answer. `fixedPorts` uses the server's default
 * ports (npm start); otherwise only the frontend port is fixed and the rest are free ones (tests).
 */
export async function startTemporalPostgres(o: {
  databaseUrl: string;
  port: number;
  namespace?: string;
  fixedPorts?: boolean;
  log?: (m: string) => void;
  /** The server's log: a file to append to, 'inherit' (this process's stdout), or none. */
  logFile?: string | 'inherit';
  build?: boolean;
  /**
   * TLS on the frontend: the server's PEM pair, the CA that signed it and the name in it; with
   * `clientCa`, client certificates are required (mTLS) and `client` is the pair this script uses.
   */
  tls?: { cert: string; key: string; ca: string; serverName: string; clientCa?: string; client?: { cert: string; key: string } };
}): Promise<RunningTemporalPostgres> {
  const log = o.log ?? (() => {});
  const bins = o.build === false ? findTemporalBinaries() : await buildTemporalBinaries({ log });
  if (!bins) throw new Error(`Temporal server ${TEMPORAL_SERVER_VERSION} is not built: run \`npm run temporal:postgres -- build\``);
  const target = postgresTarget(o.databaseUrl);
  setupTemporalSchemas(bins, target, log);
  const ports = await temporalPorts(o.port, o.fixedPorts ?? false);
  const configFile = path.join(DEPLOY_DIR, 'config.yaml');
  // Only what the config template reads (plus PATH): the caller's LOG_LEVEL and TEMPORAL_* are the
  // app's settings, not the server's.
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    POSTGRES_SEEDS: target.host, DB_PORT: String(target.port), POSTGRES_USER: target.user, POSTGRES_PWD: target.password,
    BIND_ON_IP: '127.0.0.1', TEMPORAL_BROADCAST_ADDRESS: '127.0.0.1', LOG_LEVEL: 'warn',
    DYNAMIC_CONFIG_FILE_PATH: path.join(DEPLOY_DIR, 'dynamicconfig.yaml'),
    FRONTEND_GRPC_PORT: String(ports.frontend), FRONTEND_HTTP_PORT: String(ports.frontendHttp), FRONTEND_MEMBERSHIP_PORT: String(ports.membership.frontend),
    HISTORY_GRPC_PORT: String(ports.history), HISTORY_MEMBERSHIP_PORT: String(ports.membership.history),
    MATCHING_GRPC_PORT: String(ports.matching), MATCHING_MEMBERSHIP_PORT: String(ports.membership.matching),
    WORKER_GRPC_PORT: String(ports.worker), WORKER_MEMBERSHIP_PORT: String(ports.membership.worker),
    ...(o.tls ? {
      TLS_FRONTEND_CERT: o.tls.cert, TLS_FRONTEND_KEY: o.tls.key, TLS_CA: o.tls.ca, TLS_SERVER_NAME: o.tls.serverName,
      ...(o.tls.clientCa ? { TLS_CLIENT_CA: o.tls.clientCa } : {}),
      ...(o.tls.client ? { TLS_SYSTEM_WORKER_CERT: o.tls.client.cert, TLS_SYSTEM_WORKER_KEY: o.tls.client.key } : {}),
    } : {}),
  };
  const clientTls = o.tls ? {
    serverNameOverride: o.tls.serverName,
    serverRootCACertificate: readFileSync(o.tls.ca),
    ...(o.tls.client ? { clientCertPair: { crt: readFileSync(o.tls.client.cert), key: readFileSync(o.tls.client.key) } } : {}),
  } : undefined;
  log(`starting Temporal server ${bins.version} on PostgreSQL (${target.host}:${target.port})`);
  // Without a log file the server's own log (stdout) is still kept, its tail only: a server that
  // exits while starting says why in the error (a bind failure is logged there, not on stderr).
  const out = o.logFile === 'inherit' ? 'inherit' : o.logFile ? openSync(o.logFile, 'a') : 'pipe';
  const spawnServer = async (): Promise<{ child: ChildProcess; stop: () => Promise<void>; exited: Promise<never> }> => {
    const child: ChildProcess = spawn(bins.server, ['--config-file', configFile, '--allow-no-auth', 'start'], { env, stdio: ['ignore', out, 'pipe'] });
    let tail = '';
    const keep = (d: Buffer) => { tail = (tail + String(d)).slice(-4000); };
    child.stderr?.on('data', keep);
    child.stdout?.on('data', keep);
    const stop = () => new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
    });
    const exited = new Promise<never>((_, reject) => child.once('exit', (code) => reject(new Error(`temporal server exited with ${code}: ${tail}`))));
    exited.catch(() => {});
    try {
      await Promise.race([waitForPort(o.port, '127.0.0.1', 90_000), exited]);
    } catch (err) {
      await stop();
      throw err;
    }
    return { child, stop, exited };
  };
  let server = await spawnServer();
  try {
    const added = await Promise.race([registerNamespace(`127.0.0.1:${o.port}`, o.namespace ?? 'default', 30, 60_000, clientTls), server.exited]);
    if (added.length > 0) {
      // A fresh cluster: the history service may have read the search attributes before they were
      // added and would keep that for a minute. A restart (about 2 s) makes every service read
      // them anew, so the first Case's visibility record is written at once.
      log(`search attributes ${added.join(', ')} added; restarting the server so every service reads them`);
      await server.stop();
      server = await spawnServer();
      await Promise.race([registerNamespace(`127.0.0.1:${o.port}`, o.namespace ?? 'default', 30, 60_000, clientTls), server.exited]);
    }
  } catch (err) {
    await server.stop();
    throw err;
  }
  return { address: `127.0.0.1:${o.port}`, uiUrl: null, process: server.child, version: bins.version, configFile, stop: server.stop };
}

async function main(): Promise<void> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: { 'database-url': { type: 'string' }, port: { type: 'string', default: '7233' }, address: { type: 'string' }, namespace: { type: 'string', default: 'default' } },
  });
  const log = (m: string) => console.log(`· ${m}`);
  const command = positionals[0] ?? 'build';
  if (command === 'build') {
    const bins = await buildTemporalBinaries({ log });
    console.log(JSON.stringify(bins, null, 2));
    return;
  }
  if (command === 'register') {
    // docker-compose.yml's `temporal-register` service: the namespace and search attributes only.
    const address = values.address ?? process.env.TEMPORAL_ADDRESS ?? '127.0.0.1:7233';
    const added = await registerNamespace(address, values.namespace!, 30, 180_000);
    if (added.length > 0) {
      // The server cannot be restarted from here: wait until every service's cache has them.
      console.log(`search attributes ${added.join(', ')} added; waiting ${SEARCH_ATTRIBUTE_CACHE_MS / 1000} s until every Temporal service reads them`);
      await new Promise((r) => setTimeout(r, SEARCH_ATTRIBUTE_CACHE_MS));
    }
    console.log(`namespace ${values.namespace} and search attributes ${Object.keys(SEARCH_ATTRIBUTES).join(', ')} registered on ${address}`);
    return;
  }
  if (command !== 'start') throw new Error(`unknown command ${command}: build | start | register`);
  const databaseUrl = values['database-url'] ?? process.env.DATABASE_URL;
  if (!databaseUrl) throw new Error('--database-url or DATABASE_URL is required (a PostgreSQL role that may create databases)');
  const t = await startTemporalPostgres({ databaseUrl, port: Number(values.port), namespace: values.namespace, fixedPorts: true, log, logFile: 'inherit' });
  console.log(`Temporal ${t.version} on PostgreSQL at ${t.address} (config ${t.configFile}); Ctrl-C stops it`);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => void t.stop().then(() => process.exit(0)));
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
}
