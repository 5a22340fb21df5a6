import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caseWorkflowId } from '../../domain/workflow-messages.js';
import { freePort } from '../../platform/temporal-server.js';
import { startStack, type RunningStack } from '../../scripts/stack.js';
import { TEMPORAL_SERVER_VERSION, findTemporalBinaries } from '../../scripts/temporal-postgres.js';
import { genuinePassportForTests } from '../fixtures.js';

/**
 * The production shape on one machine: a Temporal server on PostgreSQL (not the dev server), two
 * worker processes and two api processes. Cases created and submitted through both api processes
 * are processed by both workers (Temporal's history records which worker ran each activity), and
 * each Case completes once: one workflow execution, one finalisation, one webhook.
 *
 * Needs the server built (`npm run temporal:postgres -- build`); without it the suite reports
 * `unavailable` and skips, unless REQUIRE_TEMPORAL_POSTGRES=1 (CI, after its build) makes that a failure.
 */
const CASES = 8;
const bins = findTemporalBinaries();
if (!bins) {
  console.log(`temporal-postgres: unavailable (Temporal server ${TEMPORAL_SERVER_VERSION} not built; npm run temporal:postgres -- build)`);
  if (process.env.REQUIRE_TEMPORAL_POSTGRES === '1') throw new Error('REQUIRE_TEMPORAL_POSTGRES=1 but the Temporal server is not built');
}

let stack: RunningStack;
let dataDir: string;
let receiver: http.Server;
const hooks: { id: string; event: string; status: string }[] = [];

async function call(base: string, method: string, p: string, body?: unknown, key?: string) {
  const r = await fetch(`${base}${p}`, { method, headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(key ? { 'x-api-key': key } : {}) }, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: r.status, body: (await r.json().catch(() => null)) as any };
}

beforeAll(async () => {
  if (!bins) return;
  receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const b = JSON.parse(Buffer.concat(chunks).toString());
      hooks.push({ id: b.id, event: b.event, status: b.status });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', () => r()));
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'ivs-temporal-pg-'));
  const apiPort = await freePort();
  stack = await startStack({
    dataDir,
    pgPort: await freePort(),
    temporal: 'postgres',
    temporalPort: await freePort(),
    apiPort,
    extraApiPorts: [await freePort()],
    workers: 2,
    logFile: path.join(dataDir, 'services.log'),
    env: { LOG_LEVEL: 'warn', PUBLIC_BASE_URL: `http://127.0.0.1:${apiPort}`, RATE_LIMIT_SIGNUP: '1000/1h', RATE_LIMIT_ANONYMOUS: '100000/1m' },
  });
}, 600_000);

afterAll(async () => {
  await stack?.stop();
  receiver?.close();
  if (dataDir && !process.env.KEEP_TEST_DATA) rmSync(dataDir, { recursive: true, force: true });
}, 120_000);

describe.skipIf(!bins)(`Temporal ${TEMPORAL_SERVER_VERSION} on PostgreSQL with two workers and two api processes`, () => {
  it('spreads Cases over both workers and completes each exactly once with one webhook', async () => {
    const [apiA, apiB] = stack.apiUrls as [string, string];
    expect(stack.temporalKind).toBe('postgres');
    expect(stack.workers).toHaveLength(2);
    const signup = await call(apiA, 'POST', '/v1/signup', { name: 'pg temporal' });
    const key = signup.body.api_key as string;
    // The project written through one api process is seen by the other (one database).
    expect((await call(apiB, 'PUT', `/v1/projects/${signup.body.project_id}/webhook`, { url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook` }, key)).status).toBe(200);

    const passport = await genuinePassportForTests(5);
    const ids: string[] = [];
    // Created on one api process, captured and submitted on the other, alternating.
    await Promise.all(Array.from({ length: CASES }, async (_, i) => {
      const [create, capture] = i % 2 === 0 ? [apiA, apiB] : [apiB, apiA];
      const v = await call(create, 'POST', '/v1/verifications', { type: 'kyc', accepted_documents: [{ country: 'MOZ', types: ['passport'] }], applicant: passport.truth }, key);
      expect(v.status).toBe(201);
      const token = new URL(v.body.onboarding_url).pathname.split('/').pop()!;
      const form = new FormData();
      form.append('kind', 'document_front');
      form.append('file', new Blob([new Uint8Array(passport.image)]), 'passport.jpg');
      expect((await fetch(`${capture}/o/${token}/uploads`, { method: 'POST', body: form })).status).toBe(201);
      expect((await call(capture, 'POST', `/o/${token}/submit`, { document: { country: 'MOZ', type: 'passport' } })).status).toBe(202);
      ids.push(v.body.id);
    }));

    const deadline = Date.now() + 300_000;
    while (new Set(hooks.map((h) => h.id)).size < CASES && Date.now() < deadline) await new Promise((r) => setTimeout(r, 250));
    // Let any duplicate (a second delivery) arrive before counting.
    await new Promise((r) => setTimeout(r, 3000));
    for (const id of ids) {
      expect({ id, hooks: hooks.filter((h) => h.id === id).map((h) => `${h.event}:${h.status}`) }).toEqual({ id, hooks: ['verification.completed:completed'] });
      // Read back through either api process.
      expect((await call(ids.indexOf(id) % 2 ? apiA : apiB, 'GET', `/v1/verifications/${id}`, undefined, key)).body.status).toBe('completed');
    }

    const connection = await Connection.connect({ address: stack.temporalAddress });
    const client = new Client({ connection });
    const ranBy = new Map<string, number>(); // worker identity → activities it ran
    try {
      for (const id of ids) {
        const runs: string[] = [];
        for await (const w of client.workflow.list({ query: `WorkflowId = "${caseWorkflowId(id)}"` })) runs.push(w.status.name);
        expect({ id, runs }).toEqual({ id, runs: ['COMPLETED'] });
        const history = await client.workflow.getHandle(caseWorkflowId(id)).fetchHistory();
        const scheduled = new Map<string, string>(); // event id → activity type
        const completed: string[] = [];
        for (const e of history.events ?? []) {
          if (e.activityTaskScheduledEventAttributes) scheduled.set(String(e.eventId), e.activityTaskScheduledEventAttributes.activityType!.name!);
          const started = e.activityTaskStartedEventAttributes;
          if (started) ranBy.set(started.identity!, (ranBy.get(started.identity!) ?? 0) + 1);
          const done = e.activityTaskCompletedEventAttributes;
          if (done) completed.push(scheduled.get(String(done.scheduledEventId))!);
          // Local activities (finalizeCase since `local-db-steps`) leave a marker with their type, once completed.
          const marker = e.markerRecordedEventAttributes;
          if (marker?.markerName === 'core_local_activity' && !marker.failure) {
            const data = marker.details?.data?.payloads?.[0]?.data;
            if (data) completed.push((JSON.parse(Buffer.from(data).toString('utf8')) as { activity_type: string }).activity_type);
          }
        }
        expect({ id, finalized: completed.filter((a) => a === 'finalizeCase').length, webhooks: completed.filter((a) => a === 'deliverWebhook').length }).toEqual({ id, finalized: 1, webhooks: 1 });
      }
    } finally {
      await connection.close();
    }
    const identities = stack.workers.map((w) => `${w.pid}@${os.hostname()}`);
    console.log(`temporal-postgres: activities per worker ${JSON.stringify(Object.fromEntries(ranBy))}`);
    // Every activity ran on one of the two workers, and each worker ran some.
    expect([...ranBy.keys()].sort()).toEqual([...identities].sort());
    for (const identity of identities) expect(ranBy.get(identity)).toBeGreaterThan(0);

    // The state lives in PostgreSQL: one visibility row and one delivery record per Case.
    const db = new pg.Client({ connectionString: stack.databaseUrl.replace(/\/ivs$/, '/temporal_visibility') });
    await db.connect();
    try {
      const rows = await db.query("select workflow_id, status from executions_visibility where workflow_id like 'case-%'");
      expect(rows.rows.map((r) => r.workflow_id).sort()).toEqual(ids.map(caseWorkflowId).sort());
    } finally {
      await db.end();
    }
    const app = new pg.Client({ connectionString: stack.databaseUrl });
    await app.connect();
    try {
      const deliveries = await app.query('select verification_id, count(*)::int as n from webhook_deliveries where verification_id = any($1) group by 1', [ids]);
      expect(deliveries.rows.map((r) => r.n)).toEqual(ids.map(() => 1));
    } finally {
      await app.end();
    }
  }, 600_000);
});
