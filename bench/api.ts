/**
 * `npm run bench:api [-- --url http://127.0.0.1:3000 --temporal 127.0.0.1:7233] [--requests 400] [--backend dev,postgres]`
 *
 * Creates verifications through the real API with 1, 4 and 16 concurrent clients and prints
 * creates/s and p50/p99 latency, beside the bare Temporal workflow-start rate measured in the same
 * run against the same server (the ceiling for durable creation: every create is one insert plus
 * one workflow start). Without --url it starts its own stack on scratch data, once per backend: the
 * Temporal dev server and the Temporal server on PostgreSQL (scripts/temporal-postgres.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
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

/** Bare workflow starts, then creates through the API at 1, 4 and 16 clients; prints the table. */
async function measure(apiUrl: string, temporalAddress: string, label: string): Promise<void> {
  const signup = await fetch(`${apiUrl}/v1/signup`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'bench' }) });
  const { api_key: key } = (await signup.json()) as { api_key: string };
  const body = JSON.stringify({ type: 'kyc', accepted_documents: [{ country: 'MEX', types: ['passport', 'national_id'] }], link_expires_in: 120 });
  const create = async () => {
    const r = await fetch(`${apiUrl}/v1/verifications`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': key }, body });
    if (r.status !== 201) throw new Error(String(r.status));
    await r.arrayBuffer();
  };
  await runConcurrent(40, 4, create); // warm-up: JIT, connection pools

  const connection = await Connection.connect({ address: temporalAddress });
  const client = new Client({ connection });
  const runId = Date.now().toString(36);
  // Bare starts of a workflow type no worker polls: the server's durable-start rate alone.
  const bare = await runConcurrent(total, 16, async (i) => {
    await client.workflow.start('benchNoop', { workflowId: `bench-${runId}-${i}`, taskQueue: 'bench-no-worker', args: [], workflowExecutionTimeout: '1 minute' });
  });
  const bareRate = (bare.latencies.length / bare.wallMs) * 1000;
  await connection.close();

  console.log(`\n${label}; machine: ${os.cpus().length} cores, ${os.cpus()[0]?.model ?? ''}, load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}; node ${process.versions.node}`);
  console.log(`bare Temporal workflow starts (16 concurrent, ${total}): ${fmt(bareRate)} starts/s, p50 ${fmt(summarize(bare.latencies).p50)} ms, p99 ${fmt(summarize(bare.latencies).p99)} ms`);
  console.log('clients  creates/s  p50 ms  p99 ms  errors  creates/s ÷ bare starts/s');
  for (const c of [1, 4, 16]) {
    const r = await runConcurrent(total, c, create);
    const st = summarize(r.latencies);
    const rate = (r.latencies.length / r.wallMs) * 1000;
    console.log(`${String(c).padStart(7)}  ${fmt(rate).padStart(9)}  ${fmt(st.p50).padStart(6)}  ${fmt(st.p99).padStart(6)}  ${String(r.errors).padStart(6)}  ${fmt(rate / bareRate, 2)}`);
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
      await measure(stack.apiUrl, stack.temporalAddress, backend === 'dev' ? 'Temporal dev server (SQLite)' : `Temporal ${TEMPORAL_SERVER_VERSION} on PostgreSQL`);
    } finally {
      await stack?.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
}
