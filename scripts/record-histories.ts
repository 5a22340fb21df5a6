/**
 * `tsx scripts/record-histories.ts [name…]`: runs the real stack on scratch data, drives a Case
 * through each path of the Case workflow (submitted and completed; expired unsubmitted; submitted
 * and failed) and writes their Temporal histories to workflows/histories/ (all, or only the names
 * given). Commit them: the replay test proves every later workflow code change still replays
 * them (STYLE §11). The failed path is driven the way production reaches it: a check activity
 * fails non-retryably (here an engine profile this build does not have, set on the row).
 * Two more paths: a Case whose first webhook delivery fails (the receiver refuses its 3 attempts)
 * and whose redelivery succeeds (`case-completed-redelivered`), and a workflow whose Case row never
 * committed (`case-not-created`). `--suffix x` writes `<name>-x.json`, keeping the older shapes.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Client, Connection } from '@temporalio/client';
import pg from 'pg';
import sharp from 'sharp';
import { REPO_ROOT } from '../platform/paths.js';
import { startStack } from './stack.js';
import { freePort } from '../platform/temporal-server.js';
import { newId } from '../domain/ids.js';
import { CASE_WORKFLOW_TYPE, caseWorkflowId } from '../domain/workflow-messages.js';

const { values: opts, positionals } = parseArgs({ allowPositionals: true, options: { suffix: { type: 'string' } } });
// A receiver that refuses the first delivery (its 3 attempts) and accepts the redelivery.
let hookCalls = 0;
const receiver = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => res.writeHead(++hookCalls <= 3 ? 503 : 204).end());
});
await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', () => r()));
const hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'ivs-record-'));
const apiPort = await freePort();
const stack = await startStack({ dataDir, pgPort: await freePort(), temporalPort: await freePort(), apiPort, env: { PUBLIC_BASE_URL: `http://127.0.0.1:${apiPort}`, LOG_LEVEL: 'warn' } });
const base = stack.apiUrl;
const json = async (method: string, url: string, key?: string, body?: unknown) => {
  const r = await fetch(`${base}${url}`, { method, headers: { 'content-type': 'application/json', ...(key ? { 'x-api-key': key } : {}) }, body: body === undefined ? undefined : JSON.stringify(body) });
  return r.json() as Promise<any>;
};
try {
  const { api_key: key } = await json('POST', '/v1/signup', undefined, { name: 'history recorder' });
  // A second project, with a webhook, for the redelivered path.
  const hooked = await json('POST', '/v1/signup', undefined, { name: 'history recorder, webhook' });
  await json('PUT', `/v1/projects/${hooked.project_id}/webhook`, hooked.api_key, { url: hookUrl });
  const doc = { type: 'kyc', accepted_documents: [{ country: 'MOZ', types: ['national_id'] }] };
  const submitted = await json('POST', '/v1/verifications', key, doc);
  const front = await sharp({ create: { width: 320, height: 200, channels: 3, background: '#ccd' } }).jpeg().toBuffer();
  const uploadAndSubmit = async (onboardingUrl: string, beforeSubmit?: () => Promise<void>) => {
    const t = new URL(onboardingUrl).pathname.split('/').pop();
    const form = new FormData();
    form.append('kind', 'document_front');
    form.append('file', new Blob([new Uint8Array(front)]), 'front.jpg');
    await fetch(`${base}/o/${t}/uploads`, { method: 'POST', body: form });
    await beforeSubmit?.();
    await fetch(`${base}/o/${t}/submit`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ document: { country: 'MOZ', type: 'national_id' } }) });
  };
  await uploadAndSubmit(submitted.onboarding_url);
  const expired = await json('POST', '/v1/verifications', key, { ...doc, link_expires_in: 5 });
  const failing = await json('POST', '/v1/verifications', key, doc);
  await uploadAndSubmit(failing.onboarding_url, async () => {
    const db = new pg.Client({ connectionString: stack.databaseUrl });
    await db.connect();
    await db.query("update verifications set engine_profile = 'ep-0000.00-0' where id = $1", [failing.id]);
    await db.end();
  });
  const redelivered = await json('POST', '/v1/verifications', hooked.api_key, doc);
  await uploadAndSubmit(redelivered.onboarding_url);
  const wanted = new Set(positionals);

  const connection = await Connection.connect({ address: stack.temporalAddress });
  const client = new Client({ connection });
  // What a create leaves when the api dies between the workflow start and the commit.
  const notCreated = newId('verification');
  await client.workflow.start(CASE_WORKFLOW_TYPE, { workflowId: caseWorkflowId(notCreated), taskQueue: 'cases', args: [{ caseId: notCreated, linkExpiresAt: new Date(Date.now() + 86_400_000).toISOString() }] });
  for (const [name, id] of [['case-submitted-completed', submitted.id], ['case-expired-unsubmitted', expired.id], ['case-submitted-failed', failing.id], ['case-completed-redelivered', redelivered.id], ['case-not-created', notCreated]] as const) {
    if (wanted.size && !wanted.has(name)) continue;
    const handle = client.workflow.getHandle(`case-${id}`);
    await handle.result();
    const history = await handle.fetchHistory();
    const file = `${name}${opts.suffix ? `-${opts.suffix}` : ''}.json`;
    writeFileSync(path.join(REPO_ROOT, 'workflows', 'histories', file), JSON.stringify(history, null, 1));
    console.log(`wrote workflows/histories/${file} (${history.events?.length} events)`);
  }
  await connection.close();
} finally {
  receiver.close();
  await stack.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
