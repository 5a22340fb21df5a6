import { describe, expect, it } from 'vitest';
import { verifyWebhook } from '../../sdk/webhook-verify.js';
import { CURRENT_POLICY_REVISION } from '../../domain/policy.js';
import { api, countRows, createVerification, sampleJpeg, signup, sql, submit, tokenOf, upload, waitFor, waitForStatus, webhookReceiver } from '../helpers.js';
import { withTemporal } from '../temporal.js';

async function runCase(key: string) {
  const v = await createVerification(key);
  const token = tokenOf(v.onboarding_url);
  expect((await upload(token, 'document_front', await sampleJpeg())).status).toBe(201);
  expect((await submit(token)).status).toBe(202);
  return v;
}

describe('webhooks', () => {
  it('delivers a signed, PII-free envelope that the receiver helper verifies', async () => {
    const receiver = await webhookReceiver(() => 204);
    try {
      const { projectId, key } = await signup();
      const secret = (await api('PUT', `/v1/projects/${projectId}/webhook`, { key, json: { url: receiver.url } })).body.secret as string;
      const v = await runCase(key);
      await waitFor(async () => receiver.received.length >= 1);
      const hook = receiver.received[0]!;
      expect(hook.headers['x-service-event']).toBe('verification.completed');
      expect(hook.headers['content-type']).toBe('application/json');
      const verdict = verifyWebhook({ secret, body: hook.raw, timestamp: hook.headers['x-service-timestamp'], signature: hook.headers['x-service-signature'] });
      expect(verdict).toEqual({ ok: true });
      // the helper rejects a tampered body, a wrong secret and a stale timestamp
      expect(verifyWebhook({ secret, body: Buffer.concat([hook.raw, Buffer.from(' ')]), timestamp: hook.headers['x-service-timestamp'], signature: hook.headers['x-service-signature'] }).ok).toBe(false);
      expect(verifyWebhook({ secret: 'whsec_other', body: hook.raw, timestamp: hook.headers['x-service-timestamp'], signature: hook.headers['x-service-signature'] }).ok).toBe(false);
      expect(verifyWebhook({ secret, body: hook.raw, timestamp: hook.headers['x-service-timestamp'], signature: hook.headers['x-service-signature'], nowSeconds: Number(hook.headers['x-service-timestamp']) + 3600 })).toEqual({ ok: false, reason: 'stale_timestamp' });

      const body = JSON.parse(hook.raw.toString('utf8'));
      expect(Object.keys(body).sort()).toEqual(['advisory', 'assessment', 'confidence', 'event', 'evidence_available', 'id', 'status', 'summary_reasons', 'type']);
      expect(body).toMatchObject({ event: 'verification.completed', id: v.id, type: 'kyc', status: 'completed', advisory: true, evidence_available: true });
      expect(hook.raw.toString()).not.toMatch(/ANA LUISA|PRUEBA|1990-03-15|G12345678/);
      expect(await countRows('webhook_deliveries', 'verification_id = $1 and status_code = 204', [v.id])).toBe(1);
    } finally {
      await receiver.close();
    }
  });

  it('embeds the full result only when the project opted in', async () => {
    const receiver = await webhookReceiver(() => 200);
    try {
      const { projectId, key } = await signup();
      await api('PUT', `/v1/projects/${projectId}/webhook`, { key, json: { url: receiver.url, include_result: true } });
      await runCase(key);
      await waitFor(async () => receiver.received.length >= 1);
      const body = JSON.parse(receiver.received[0]!.raw.toString());
      expect(body.result.checks).toBeDefined();
      expect(body.result.decision.policy_revision).toBe(CURRENT_POLICY_REVISION);
    } finally {
      await receiver.close();
    }
  });

  it('makes exactly 3 attempts within 8 seconds against a receiver answering 500, and records each', async () => {
    const receiver = await webhookReceiver(() => 500);
    try {
      const { projectId, key } = await signup();
      await api('PUT', `/v1/projects/${projectId}/webhook`, { key, json: { url: receiver.url } });
      const v = await runCase(key);
      await waitForStatus(key, v.id, ['completed']);
      await waitFor(async () => receiver.received.length >= 3, 60_000);
      await new Promise((r) => setTimeout(r, 1500)); // nothing more may arrive in this delivery
      expect(receiver.received).toHaveLength(3);
      // The event is delivered again later (30 s on: WEBHOOK_REDELIVERY, tested by chaos.test.ts);
      // meanwhile the workflow waits on a timer, with no activity pending.
      await withTemporal(async (c) => {
        const h = c.workflow.getHandle(`case-${v.id}`);
        const d = await h.describe();
        expect(d.status.name).toBe('RUNNING');
        expect(d.raw.pendingActivities ?? []).toHaveLength(0);
        await h.terminate('test over');
      });
      const span = receiver.received[2]!.at - receiver.received[0]!.at;
      expect(span).toBeLessThan(8000);
      expect(span).toBeGreaterThanOrEqual(1400); // 500 ms + 1000 ms of backoff
      expect(await countRows('webhook_deliveries', 'verification_id = $1 and status_code = 500', [v.id])).toBe(3);
    } finally {
      await receiver.close();
    }
  });

  it('does not hold the Case beyond the delivery window when the receiver hangs', async () => {
    const receiver = await webhookReceiver(() => 'hang');
    try {
      const { projectId, key } = await signup();
      await api('PUT', `/v1/projects/${projectId}/webhook`, { key, json: { url: receiver.url } });
      const v = await runCase(key);
      const done = await waitForStatus(key, v.id, ['completed']);
      // The delivery gives up within its window; then only the redelivery timer remains.
      await waitFor(async () => (await countRows('webhook_deliveries', "verification_id = $1 and error = 'timeout'", [v.id])) === 3, 60_000, 250);
      const [last] = await sql<{ at: Date }>('select max(created_at) as at from webhook_deliveries where verification_id = $1', [v.id]);
      expect(last!.at.getTime() - Date.parse(done.updated_at)).toBeLessThan(8000);
      await withTemporal(async (c) => {
        const h = c.workflow.getHandle(`case-${v.id}`);
        await waitFor(async () => ((await h.describe()).raw.pendingActivities ?? []).length === 0, 10_000, 250);
        await h.terminate('test over');
      });
      expect(receiver.received).toHaveLength(3);
      expect(await countRows('webhook_deliveries', "verification_id = $1 and error = 'timeout'", [v.id])).toBe(3);
    } finally {
      await receiver.close();
    }
  });
});
