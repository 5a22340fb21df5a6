import { describe, expect, it } from 'vitest';
import { verifyWebhookRequest } from '../../sdk/webhook-verify.js';
import { api, createVerification, sampleJpeg, signup, sql, submit, tokenOf, upload, waitFor, webhookReceiver, type ReceivedHook } from '../helpers.js';

async function runCase(key: string): Promise<string> {
  const v = await createVerification(key);
  const token = tokenOf(v.onboarding_url);
  expect((await upload(token, 'document_front', await sampleJpeg())).status).toBe(201);
  expect((await submit(token)).status).toBe(202);
  return v.id as string;
}

async function hookFor(received: ReceivedHook[], id: string): Promise<ReceivedHook> {
  return waitFor(async () => received.find((h) => JSON.parse(h.raw.toString()).id === id), 90_000);
}

const verify = (hook: ReceivedHook, secrets: string[]) => verifyWebhookRequest({ secrets, body: hook.raw, headers: hook.headers });

describe('webhook secret rotation with overlap', () => {
  it('signs with the new and the old secret during the grace period, and with the new one only after it', async () => {
    const receiver = await webhookReceiver(() => 204);
    try {
      const { projectId, key } = await signup();
      const first = await api('PUT', `/v1/projects/${projectId}/webhook`, { key, json: { url: receiver.url } });
      const oldSecret = first.body.secret as string;
      expect(first.body.previous_secret_expires_at).toBeNull();

      const graceSeconds = 45;
      const rotatedAt = Date.now();
      const rotated = await api('PUT', `/v1/projects/${projectId}/webhook`, { key, json: { url: receiver.url, regenerate: true, secret_grace_seconds: graceSeconds } });
      expect(rotated.status).toBe(200);
      const newSecret = rotated.body.secret as string;
      expect(newSecret).toMatch(/^whsec_/);
      expect(newSecret).not.toBe(oldSecret);
      const expiresAt = Date.parse(rotated.body.previous_secret_expires_at);
      expect(expiresAt - rotatedAt).toBeGreaterThan((graceSeconds - 5) * 1000);
      expect(expiresAt - rotatedAt).toBeLessThan((graceSeconds + 5) * 1000);
      const view = await api('GET', `/v1/projects/${projectId}/webhook`, { key });
      expect(view.body).toEqual({ url: receiver.url, include_result: false, secret_set: true, previous_secret_expires_at: rotated.body.previous_secret_expires_at });
      expect(JSON.stringify(view.body)).not.toContain('whsec_');
      // stored sealed, never in clear
      const [row] = await sql<{ prev: string }>('select webhook_previous_secrets::text as prev from projects where id = $1', [projectId]);
      expect(row!.prev).not.toContain(oldSecret);

      // during the grace period: one spec-format signature (new secret) plus the old one's
      const during = await hookFor(receiver.received, await runCase(key));
      expect(Number(during.headers['x-service-timestamp']) * 1000).toBeLessThan(expiresAt); // signed inside the grace period
      expect(during.headers['x-service-signature']).toMatch(/^[0-9a-f]{64}$/);
      expect(during.headers['x-service-signature-previous']).toMatch(/^[0-9a-f]{64}$/);
      expect(verify(during, [newSecret])).toEqual({ ok: true });
      expect(verify(during, [oldSecret])).toEqual({ ok: true });
      expect(verify(during, ['whsec_unrelated'])).toEqual({ ok: false, reason: 'bad_signature' });

      // after the grace period: the new signature only; a receiver still on the old secret rejects
      await waitFor(async () => Date.now() > expiresAt + 500, 60_000, 250);
      expect((await api('GET', `/v1/projects/${projectId}/webhook`, { key })).body.previous_secret_expires_at).toBeNull();
      const after = await hookFor(receiver.received, await runCase(key));
      expect(after.headers['x-service-signature-previous']).toBeUndefined();
      expect(verify(after, [newSecret])).toEqual({ ok: true });
      expect(verify(after, [oldSecret])).toEqual({ ok: false, reason: 'bad_signature' });
      expect(verify(after, [oldSecret, newSecret])).toEqual({ ok: true });
    } finally {
      await receiver.close();
    }
  }, 240_000);

  it('a rotation with grace 0 ends every earlier secret at once (a leaked secret)', async () => {
    const receiver = await webhookReceiver(() => 204);
    try {
      const { projectId, key } = await signup();
      const s1 = (await api('PUT', `/v1/projects/${projectId}/webhook`, { key, json: { url: receiver.url } })).body.secret as string;
      const r2 = await api('PUT', `/v1/projects/${projectId}/webhook`, { key, json: { url: receiver.url, regenerate: true } });
      const s2 = r2.body.secret as string;
      // the default grace period is a day
      expect(Date.parse(r2.body.previous_secret_expires_at) - Date.now()).toBeGreaterThan(23 * 3600_000);
      const r3 = await api('PUT', `/v1/projects/${projectId}/webhook`, { key, json: { url: receiver.url, regenerate: true, secret_grace_seconds: 0 } });
      const s3 = r3.body.secret as string;
      expect(r3.body.previous_secret_expires_at).toBeNull();
      const hook = await hookFor(receiver.received, await runCase(key));
      expect(hook.headers['x-service-signature-previous']).toBeUndefined();
      expect(verify(hook, [s3])).toEqual({ ok: true });
      expect(verify(hook, [s1, s2])).toEqual({ ok: false, reason: 'bad_signature' });

      const bad = await api('PUT', `/v1/projects/${projectId}/webhook`, { key, json: { url: receiver.url, regenerate: true, secret_grace_seconds: -1 } });
      expect(bad.status).toBe(400);
      expect(bad.headers.get('content-type')).toContain('application/problem+json');
      expect(JSON.stringify(bad.body.errors)).toContain('secret_grace_seconds');
    } finally {
      await receiver.close();
    }
  }, 240_000);
});
