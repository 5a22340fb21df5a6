import type { ChildProcess } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { forkService, stopChild } from '../../scripts/stack.js';
import { freePort } from '../../platform/temporal-server.js';
import { documentImageForTests, livenessFramesForTests } from '../fixtures.js';
import { sql, stack, waitFor, webhookReceiver } from '../helpers.js';

describe('a worker killed mid-Case', () => {
  it('SIGKILL while a Case is processing: a restarted worker completes it and its webhook is delivered', async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    // Separate task queue: only this test's worker serves these Cases, so killing it is a real outage for them.
    const env = { ...process.env, ...stack().env, TEMPORAL_TASK_QUEUE: `crash-${port}`, PORT: String(port), PUBLIC_BASE_URL: base };
    const receiver = await webhookReceiver(() => 200);
    let worker: ChildProcess | null = null;
    let api: ChildProcess | null = null;
    try {
      worker = await forkService('worker/main.ts', env, 'worker', { logFile: stack().logFile });
      api = await forkService('api/server.ts', env, 'api', { logFile: stack().logFile });
      const call = async (method: string, path: string, key?: string, body?: unknown) => {
        const r = await fetch(`${base}${path}`, { method, headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(key ? { 'x-api-key': key } : {}) }, body: body === undefined ? undefined : JSON.stringify(body) });
        return { status: r.status, body: (await r.json().catch(() => null)) as any };
      };
      const { api_key: key, project_id: projectId } = (await call('POST', '/v1/signup', undefined, { name: 'crash' })).body;
      await call('PUT', `/v1/projects/${projectId}/webhook`, key, { url: receiver.url });
      const v = (await call('POST', '/v1/verifications', key, { type: 'kyc', accepted_documents: [{ country: 'MOZ', types: ['national_id'] }] })).body;
      const token = new URL(v.onboarding_url).pathname.split('/').pop()!;
      const send = async (kind: string, bytes: Buffer, meta?: unknown) => {
        const form = new FormData();
        form.append('kind', kind);
        if (meta) form.append('meta', JSON.stringify(meta));
        form.append('file', new Blob([new Uint8Array(bytes)]), `${kind}.jpg`);
        const r = await fetch(`${base}/o/${token}/uploads`, { method: 'POST', body: form });
        expect(r.status).toBe(201);
      };
      await send('document_front', await documentImageForTests());
      const challenge = (await call('POST', `/o/${token}/challenge`)).body;
      for (const f of await livenessFramesForTests(challenge)) await send('liveness_frame', f.image, f.meta);
      expect((await call('POST', `/o/${token}/submit`, undefined, { document: { country: 'MOZ', type: 'national_id' } })).status).toBe(202);

      const statusAtKill = await waitFor(async () => {
        const [row] = await sql<{ status: string }>('select status from verifications where id = $1', [v.id]);
        return row!.status === 'processing' || row!.status === 'completed' ? row!.status : null;
      }, 60_000, 10);
      worker.kill('SIGKILL');
      await new Promise((r) => worker!.once('exit', r));
      expect(statusAtKill).toBe('processing');
      await new Promise((r) => setTimeout(r, 2000));
      const [stalled] = await sql<{ status: string }>('select status from verifications where id = $1', [v.id]);
      expect(stalled!.status).toBe('processing'); // nobody else can finish it

      worker = await forkService('worker/main.ts', env, 'worker', { logFile: stack().logFile });
      const done = await waitFor(async () => {
        const r = await call('GET', `/v1/verifications/${v.id}`, key);
        return r.body.status === 'completed' || r.body.status === 'failed' ? r.body : null;
      }, 120_000, 250);
      expect(done.status).toBe('completed');
      await waitFor(async () => receiver.received.some((h) => JSON.parse(h.raw.toString()).id === v.id), 30_000);
      expect(receiver.received.filter((h) => JSON.parse(h.raw.toString()).id === v.id).length).toBeGreaterThanOrEqual(1);
    } finally {
      await stopChild(api);
      await stopChild(worker);
      await receiver.close();
    }
  }, 240_000);
});
