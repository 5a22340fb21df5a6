/**
 * `npm run bench:api [-- --url http://127.0.0.1:3000 --temporal 127.0.0.1:7233] [--requests 400] [--backend dev,postgres]`
 *
 * Creates verifications through the real API with 1, 4 and 16 concurrent clients and prints
 * creates/s and p50/p99 latency, beside the bare Temporal workflow-start rate measured in the same
 * run against the same server (the ceiling for durable creation: every create is one insert plus
 * one workflow start). Without --url it starts its own stack on scratch data, once per backend: the
 * Temporal dev server and the Temporal server on PostgreSQL (scripts/temporal-postgres.ts).
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Client, Connection } from '@temporalio/client';
import { startStack, type RunningStack } from '../scripts/stack.js';
import { freePort } from '../platform/temporal-server.js';
import { TEMPORAL_SERVER_VERSION, findTemporalBinaries } from '../scripts/temporal-postgres.js';
import { fmt, runConcurrent, summarize } from './stats.js';

const { values } = parseArgs({ options: { url: { type: 'string' }, temporal: { type: 'string' }, requests: { type: 'string', default: '400' }, backend: { type: 'string', default: 'dev,postgres' } } });
const total = Number(values.requests);

const clk = 100; // USER_HZ on Linux
const cpuOf = (pid: number): number => {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(f[11]) + Number(f[12])) / clk; // utime + stime
  } catch {
    return 0; // exited (a PostgreSQL backend closing)
  }
};
/** CPU seconds of PostgreSQL: the postmaster (pid from its data directory) and every child of it. */
const postgresCpu = (dataDir: string): number => {
  const postmaster = Number(readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  let sum = cpuOf(postmaster);
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const ppid = Number(readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]);
      if (ppid === postmaster) sum += cpuOf(Number(entry));
    } catch { /* gone */ }
  }
  return sum;
};

interface OwnStack { apiPid: number; temporalPid: number; pgDataDir: string }

/**
 * Bare workflow starts, then creates through the API at 1, 4 and 16 clients; prints the table. On
 * its own stack it also prints where the CPU went at 16 clients (per create: api, Temporal server,
 * PostgreSQL, this client) against the machine's cores × wall time.
 */
async function measure(apiUrl: string, temporalAddress: string, label: string, own?: OwnStack): Promise<void> {
  const signup = await fetch(`${apiUrl}/v1/signup`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'bench' }) });
  const { api_key: key } = (await signup.json()) as { api_key: string };
  const body = JSON.stringify({ type: 'kyc', accepted_documents: [{ country: 'MEX', types: ['passport', 'national_id'] }], link_expires_in: 120 });
  const create = async () => {
    const r = await fetch(`${apiUrl}/v1/verifications`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': key }, body });
    if (r.status !== 201) throw new Error(String(r.status));
    await r.arrayBuffer();
  };
  await runConcurrent(40, 4, create); // warm-up: JIT, connection pools

  const cpuNow = () => (own ? { api: cpuOf(own.apiPid), temporal: cpuOf(own.temporalPid), postgres: postgresCpu(own.pgDataDir), client: process.cpuUsage().user / 1e6 + process.cpuUsage().system / 1e6 } : null);
  const bareBefore = cpuNow();
  const connection = await Connection.connect({ address: temporalAddress });
  const client = new Client({ connection });
  const runId = Date.now().toString(36);
  // Bare starts of a workflow type no worker polls: the server's durable-start rate alone.
  const bare = await runConcurrent(total, 16, async (i) => {
    await client.workflow.start('benchNoop', { workflowId: `bench-${runId}-${i}`, taskQueue: 'bench-no-worker', args: [], workflowExecutionTimeout: '1 minute' });
  });
  const bareRate = (bare.latencies.length / bare.wallMs) * 1000;
  await connection.close();
  const bareAfter = cpuNow();

  console.log(`\n${label}; machine: ${os.cpus().length} cores, ${os.cpus()[0]?.model ?? ''}, load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}; node ${process.versions.node}`);
  console.log(`bare Temporal workflow starts (16 concurrent, ${total}): ${fmt(bareRate)} starts/s, p50 ${fmt(summarize(bare.latencies).p50)} ms, p99 ${fmt(summarize(bare.latencies).p99)} ms`);
  console.log('clients  creates/s  p50 ms  p99 ms  errors  creates/s ÷ bare starts/s');
  if (bareBefore && bareAfter) {
    const n = bare.latencies.length;
    const ms = (k: keyof typeof bareBefore) => fmt(((bareAfter[k] - bareBefore[k]) / n) * 1000, 2);
    console.log(`CPU per bare start (ms): Temporal server ${ms('temporal')}, PostgreSQL ${ms('postgres')}, this client ${ms('client')}`);
  }
  for (const c of [1, 4, 16]) {
    const before = cpuNow();
    const r = await runConcurrent(total, c, create);
    const after = cpuNow();
    const st = summarize(r.latencies);
    const rate = (r.latencies.length / r.wallMs) * 1000;
    console.log(`${String(c).padStart(7)}  ${fmt(rate).padStart(9)}  ${fmt(st.p50).padStart(6)}  ${fmt(st.p99).padStart(6)}  ${String(r.errors).padStart(6)}  ${fmt(rate / bareRate, 2)}`);
    if (c === 16 && before && after) {
      const n = r.latencies.length;
      const ms = (k: keyof typeof before) => fmt(((after[k] - before[k]) / n) * 1000, 2);
      const used = (Object.keys(before) as (keyof typeof before)[]).reduce((sum, k) => sum + after[k] - before[k], 0);
      console.log(`CPU per create at 16 clients (ms): api ${ms('api')}, Temporal server ${ms('temporal')}, PostgreSQL ${ms('postgres')}, this client ${ms('client')}; these processes used ${fmt(used, 1)} CPU-s of ${fmt((os.cpus().length * r.wallMs) / 1000, 1)} available (${os.cpus().length} cores × ${fmt(r.wallMs / 1000, 1)} s wall)`);
    }
  }
}

if (values.url) {
  await measure(values.url, values.temporal ?? '127.0.0.1:7233', `running service at ${values.url}`);
} else {
  // Own stacks on scratch data, one backend after the other.
  for (const backend of values.backend!.split(',')) {
    if (backend !== 'dev' && backend !== 'postgres') throw new Error(`--backend takes dev and/or postgres, not ${backend}`);
    if (backend === 'postgres' && !findTemporalBinaries()) {
      console.log(`\nTemporal on PostgreSQL: unavailable (server ${TEMPORAL_SERVER_VERSION} not built: npm run temporal:postgres -- build)`);
      continue;
    }
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'ivs-bench-'));
    const apiPort = await freePort();
    let stack: RunningStack | null = null;
    try {
      stack = await startStack({ dataDir, pgPort: await freePort(), temporal: backend, temporalPort: await freePort(), apiPort, env: {
        LOG_LEVEL: 'warn', PUBLIC_BASE_URL: `http://127.0.0.1:${apiPort}`,
        // A load test from one key is not a client: the limiter stays in the path (its upsert is
        // part of the measured cost) with a ceiling the benchmark cannot reach.
        RATE_LIMIT_API_KEY: '100000000/1m',
      } });
      await measure(stack.apiUrl, stack.temporalAddress, backend === 'dev' ? 'Temporal dev server (SQLite)' : `Temporal ${TEMPORAL_SERVER_VERSION} on PostgreSQL`, {
        apiPid: stack.api!.pid!, temporalPid: stack.temporalProcess!.pid!, pgDataDir: path.join(dataDir, 'postgres'),
      });
    } finally {
      await stack?.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
}
