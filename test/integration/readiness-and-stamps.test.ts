import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { forkService, stopChild } from '../../scripts/stack.js';
import { freePort } from '../../platform/temporal-server.js';
import { inProcessApp } from '../app-factory.js';
import { withTemporal } from '../temporal.js';
import { api, createVerification, sampleJpeg, signup, sql, stack, submit, tokenOf, upload, waitFor, waitForStatus } from '../helpers.js';

describe('/healthz and /readyz', () => {
  it('liveness answers ok; readiness checks PostgreSQL, Temporal and a polling worker', async () => {
    const health = await api('GET', '/healthz');
    expect(health.status).toBe(200);
    expect(health.body).toEqual({ ok: true });
    // The worker publishes its engines once they have started (a few seconds after it polls).
    const ready = await waitFor(async () => {
      const r = await api('GET', '/readyz');
      return r.status === 200 ? r : null;
    }, 120_000, 500);
    expect(ready.body.status).toBe('ready');
    expect(ready.body.checks.postgres.ok).toBe(true);
    expect(ready.body.checks.temporal.ok).toBe(true);
    expect(ready.body.checks.worker).toMatchObject({ ok: true, detail: expect.stringMatching(/^\d+ pollers?$/) });
    expect(ready.body.checks.engines).toMatchObject({ ok: true, detail: expect.stringMatching(/^ep-[\d.-]+ on \d+ workers?$/) });
  });

  it('is 503 naming the engine when the only worker of a queue started without the face models', async () => {
    const taskQueue = `no-models-${Date.now()}`;
    const empty = mkdtempSync(path.join(os.tmpdir(), 'ivs-no-models-'));
    const worker = await forkService('worker/main.ts', { ...process.env, ...stack().env, TEMPORAL_TASK_QUEUE: taskQueue, MODELS_DIR: empty }, 'worker', { logFile: stack().logFile });
    const app = await inProcessApp({ TEMPORAL_TASK_QUEUE: taskQueue });
    try {
      const body = await waitFor(async () => {
        const r = await app.app.inject({ method: 'GET', url: '/readyz' });
        const b = r.json();
        return r.statusCode === 503 && b.checks.worker.ok && b.checks.engines.detail !== 'engines_starting' && b.checks.engines.detail !== 'no_worker_status' ? b : null;
      }, 120_000, 500);
      expect(body.status).toBe('not_ready');
      expect(body.checks.engines.ok).toBe(false);
      expect(body.checks.engines.detail).toContain('faces_engine_unavailable');
      expect(body.checks.engines.detail).not.toContain('document');
    } finally {
      await app.close();
      await stopChild(worker);
    }
  });

  it('is 503 when the Temporal namespace does not exist, naming the failing dependency', async () => {
    const broken = await inProcessApp({ TEMPORAL_NAMESPACE: 'no-such-namespace' });
    try {
      const r = await broken.app.inject({ method: 'GET', url: '/readyz' });
      expect(r.statusCode).toBe(503);
      const body = r.json();
      expect(body.status).toBe('not_ready');
      expect(body.checks.postgres.ok).toBe(true);
      expect(body.checks.temporal.ok).toBe(false);
    } finally {
      await broken.close();
    }
  });

  it('is 503 when no worker polls the task queue', async () => {
    const lonely = await inProcessApp({ TEMPORAL_TASK_QUEUE: `nobody-polls-${Date.now()}` });
    try {
      const r = await lonely.app.inject({ method: 'GET', url: '/readyz' });
      expect(r.statusCode).toBe(503);
      const body = r.json();
      expect(body.checks.postgres.ok).toBe(true);
      expect(body.checks.temporal.ok).toBe(true);
      expect(body.checks.worker).toMatchObject({ ok: false, detail: 'no_worker_polling' });
    } finally {
      await lonely.close();
    }
  });
});

describe('stamps are exact', () => {
  it('a worker refuses to start when a live Case carries a profile or revision it does not have, and says which', async () => {
    const { key } = await signup('stamps');
    const v = await createVerification(key);
    await sql("update verifications set engine_profile = 'ep-1999.01-1', policy_revision = 'dp-1999.01-1' where id = $1", [v.id]);
    try {
      const port = await freePort();
      const env = { ...process.env, ...stack().env, TEMPORAL_TASK_QUEUE: `stamps-${port}`, PORT: String(port) };
      const logFile = `${stack().dataDir}/refusing-worker-${port}.log`;
      await expect(forkService('worker/main.ts', env, 'worker', { logFile, timeoutMs: 60_000 })).rejects.toThrow(/exited early with code 78/);
      const log = readFileSync(logFile, 'utf8');
      expect(log).toContain('worker refused to start');
      expect(log).toContain('engine_profile ep-1999.01-1 (1 case)');
      expect(log).toContain('policy_revision dp-1999.01-1 (1 case)');
    } finally {
      // Erased Cases are not live: later workers in this run start normally.
      expect((await api('DELETE', `/v1/verifications/${v.id}`, { key })).status).toBe(200);
    }
  });

  it('an unknown engine profile fails the Case at once (non-retryable), not after four tries', async () => {
    const { key } = await signup('unknown profile');
    const v = await createVerification(key);
    const token = tokenOf(v.onboarding_url);
    expect((await upload(token, 'document_front', await sampleJpeg())).status).toBe(201);
    await sql("update verifications set engine_profile = 'ep-1999.01-1' where id = $1", [v.id]);
    expect((await submit(token)).status).toBe(202);
    const done = await waitForStatus(key, v.id, ['completed', 'failed'], 60_000);
    expect(done.status).toBe('failed');
    expect(done.summary_reasons).toEqual(['unknown_engine_profile']);
    // Every check activity ran exactly once: the history records each start with its attempt number.
    const history = await withTemporal((c) => c.workflow.getHandle(`case-${v.id}`).fetchHistory());
    const attempts = (history.events ?? []).flatMap((e) => (e.activityTaskStartedEventAttributes ? [e.activityTaskStartedEventAttributes.attempt ?? 1] : []));
    expect(attempts.length).toBeGreaterThan(0);
    expect(Math.max(...attempts)).toBe(1);
  });

  it('an unknown policy revision fails the Case instead of retrying forever', async () => {
    const { key } = await signup('unknown revision');
    const v = await createVerification(key, { link_expires_in: 5 });
    await sql("update verifications set policy_revision = 'dp-1999.01-1' where id = $1", [v.id]);
    const done = await waitForStatus(key, v.id, ['completed', 'failed'], 60_000);
    expect(done.status).toBe('failed');
    expect(done.summary_reasons).toEqual(['unknown_policy_revision']);
    expect(done.policy_revision).toBe('dp-1999.01-1');
  });
});
