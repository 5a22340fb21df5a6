/**
 * `tsx scripts/record-histories.ts`: runs the real stack on scratch data, drives a Case through
 * each path of the Case workflow (submitted and completed; expired unsubmitted) and writes their
 * Temporal histories to workflows/histories/. Commit them: the replay test proves every later
 * workflow code change still replays them (STYLE §11).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import sharp from 'sharp';
import { REPO_ROOT } from '../platform/paths.js';
import { startStack } from './stack.js';
import { freePort } from '../platform/temporal-server.js';

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
  const doc = { type: 'kyc', accepted_documents: [{ country: 'MOZ', types: ['national_id'] }] };
  const submitted = await json('POST', '/v1/verifications', key, doc);
  const token = new URL(submitted.onboarding_url).pathname.split('/').pop();
  const form = new FormData();
  form.append('kind', 'document_front');
  form.append('file', new Blob([new Uint8Array(await sharp({ create: { width: 320, height: 200, channels: 3, background: '#ccd' } }).jpeg().toBuffer())]), 'front.jpg');
  await fetch(`${base}/o/${token}/uploads`, { method: 'POST', body: form });
  await fetch(`${base}/o/${token}/submit`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ document: { country: 'MOZ', type: 'national_id' } }) });
  const expired = await json('POST', '/v1/verifications', key, { ...doc, link_expires_in: 5 });

  const connection = await Connection.connect({ address: stack.temporalAddress });
  const client = new Client({ connection });
  for (const [name, id] of [['case-submitted-completed', submitted.id], ['case-expired-unsubmitted', expired.id]] as const) {
    const handle = client.workflow.getHandle(`case-${id}`);
    await handle.result();
    const history = await handle.fetchHistory();
    writeFileSync(path.join(REPO_ROOT, 'workflows', 'histories', `${name}.json`), JSON.stringify(history, null, 1));
    console.log(`wrote workflows/histories/${name}.json (${history.events?.length} events)`);
  }
  await connection.close();
} finally {
  await stack.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
