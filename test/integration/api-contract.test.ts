import { describe, expect, it } from 'vitest';
import { inProcessApp } from '../app-factory.js';
import { api, createVerification, signup } from '../helpers.js';

describe('account and project routes', () => {
  it('signup makes a sandbox project whose key works; /v1/me describes it', async () => {
    const r = await api('POST', '/v1/signup', { json: { name: 'Acme sandbox' } });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ name: 'Acme sandbox', sandbox: true });
    expect(r.body.api_key).toMatch(/^ivs_test_/);
    const me = await api('GET', '/v1/me', { key: r.body.api_key });
    expect(me.body).toEqual({ project_id: r.body.project_id, name: 'Acme sandbox', sandbox: true, webhook_url: null });
  });

  it('signup answers 403 in production mode', async () => {
    const prod = await inProcessApp({ SERVICE_MODE: 'production', BLOB_ENCRYPTION_KEY: 'a'.repeat(64), SECRETS_ENCRYPTION_KEY: 'b'.repeat(64), PUBLIC_BASE_URL: 'https://verify.example.com', GOOGLE_CLIENT_ID: 'g', GOOGLE_CLIENT_SECRET: 'gs', GITHUB_CLIENT_ID: 'h', GITHUB_CLIENT_SECRET: 'hs' });
    try {
      const r = await prod.app.inject({ method: 'POST', url: '/v1/signup', payload: {} });
      expect(r.statusCode).toBe(403);
      expect(r.headers['content-type']).toContain('application/problem+json');
      expect(r.json().code).toBe('signup_disabled_in_production');
    } finally {
      await prod.close();
    }
  });

  it('keys: raw value shown once, listed by prefix only, revocation is idempotent', async () => {
    const { projectId, key } = await signup();
    const created = await api('POST', `/v1/projects/${projectId}/keys`, { key, json: { name: 'ci' } });
    expect(created.status).toBe(201);
    expect(created.body.api_key.startsWith(created.body.prefix)).toBe(true);
    const list = await api('GET', `/v1/projects/${projectId}/keys`, { key });
    expect(list.body.data).toHaveLength(2);
    expect(JSON.stringify(list.body)).not.toContain(created.body.api_key);
    expect((await api('DELETE', `/v1/projects/${projectId}/keys/${created.body.id}`, { key })).status).toBe(204);
    expect((await api('DELETE', `/v1/projects/${projectId}/keys/${created.body.id}`, { key })).status).toBe(204);
    expect((await api('GET', '/v1/me', { key: created.body.api_key })).status).toBe(401);
  });

  it('branding is validated and round-trips', async () => {
    const { projectId, key } = await signup();
    const branding = { name: 'Banco Ejemplo', primary_colour: '#0a7b3e', background_colour: '#ffffff', logo_url: 'https://cdn.example.com/logo.png' };
    expect((await api('PUT', `/v1/projects/${projectId}/branding`, { key, json: branding })).status).toBe(200);
    expect((await api('GET', `/v1/projects/${projectId}/branding`, { key })).body).toEqual(branding);
    const bad = await api('PUT', `/v1/projects/${projectId}/branding`, { key, json: { primary_colour: 'red;}</style><script>' } });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].field).toBe('primary_colour');
    expect((await api('GET', `/v1/projects/${projectId}/branding`, { key })).body).toEqual(branding);
  });

  it('webhook secret: minted on first set and returned once, never on read, regenerate mints anew, DELETE keeps it', async () => {
    const { projectId, key } = await signup();
    const first = await api('PUT', `/v1/projects/${projectId}/webhook`, { key, json: { url: 'http://127.0.0.1:9/hook' } });
    expect(first.status).toBe(200);
    expect(first.body.secret).toMatch(/^whsec_[A-Za-z0-9_-]{40,}$/);
    const again = await api('PUT', `/v1/projects/${projectId}/webhook`, { key, json: { url: 'http://127.0.0.1:9/other', include_result: true } });
    expect(again.body.secret).toBeUndefined();
    expect(again.body).toEqual({ url: 'http://127.0.0.1:9/other', include_result: true, previous_secret_expires_at: null });
    const read = await api('GET', `/v1/projects/${projectId}/webhook`, { key });
    expect(read.body).toEqual({ url: 'http://127.0.0.1:9/other', include_result: true, secret_set: true, previous_secret_expires_at: null });
    expect(JSON.stringify(read.body)).not.toContain('whsec_');
    const regen = await api('PUT', `/v1/projects/${projectId}/webhook`, { key, json: { url: 'http://127.0.0.1:9/other', regenerate: true } });
    expect(regen.body.secret).toMatch(/^whsec_/);
    expect(regen.body.secret).not.toBe(first.body.secret);
    expect((await api('DELETE', `/v1/projects/${projectId}/webhook`, { key })).status).toBe(204);
    expect((await api('GET', `/v1/projects/${projectId}/webhook`, { key })).body).toEqual({ url: null, include_result: true, secret_set: true, previous_secret_expires_at: regen.body.previous_secret_expires_at });
    expect((await api('GET', '/v1/me', { key })).body.webhook_url).toBeNull();
    const legacy = await api('POST', '/v1/webhook', { key, json: { url: 'http://127.0.0.1:9/legacy' } });
    expect(legacy.status).toBe(200);
    expect(legacy.body.secret).toBeUndefined(); // the secret survived the DELETE
    expect((await api('GET', '/v1/me', { key })).body.webhook_url).toBe('http://127.0.0.1:9/legacy');
  });

  it('ubos answers a clear error: KYB is not in this release', async () => {
    const { key } = await signup();
    const v = await createVerification(key);
    const r = await api('POST', `/v1/verifications/${v.id}/ubos`, { key, json: { owners: [] } });
    expect(r.status).toBe(422);
    expect(r.body.code).toBe('kyb_not_available');
  });
});

describe('verifications list', () => {
  it('is newest first with a stable cursor and filters', async () => {
    const { key } = await signup();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await createVerification(key)).id);
    const p1 = await api('GET', '/v1/verifications?limit=2', { key });
    const p2 = await api('GET', `/v1/verifications?limit=2&cursor=${p1.body.next_cursor}`, { key });
    const p3 = await api('GET', `/v1/verifications?limit=2&cursor=${p2.body.next_cursor}`, { key });
    const seen = [...p1.body.data, ...p2.body.data, ...p3.body.data].map((v: { id: string }) => v.id);
    expect(seen).toEqual([...ids].reverse());
    expect(p3.body.next_cursor).toBeNull();
    expect((await api('GET', '/v1/verifications?status=completed', { key })).body.data).toHaveLength(0);
    expect((await api('GET', '/v1/verifications?status=collecting&limit=100', { key })).body.data).toHaveLength(5);
    // The integrator's own reference finds its Case (exact match; erasure removes it with the other PII).
    const mine = await createVerification(key, { reference: 'crm-7781' });
    const byRef = await api('GET', '/v1/verifications?reference=crm-7781', { key });
    expect(byRef.body.data.map((v: { id: string }) => v.id)).toEqual([mine.id]);
    expect(byRef.body.data[0].reference).toBe('crm-7781');
    expect((await api('GET', '/v1/verifications?reference=crm-778', { key })).body.data).toHaveLength(0);
    expect((await api('DELETE', `/v1/verifications/${mine.id}`, { key })).status).toBe(200);
    expect((await api('GET', '/v1/verifications?reference=crm-7781', { key })).body.data).toHaveLength(0);
    const bad = await api('GET', '/v1/verifications?cursor=nonsense', { key });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].field).toBe('cursor');
  });
});

describe('OpenAPI', () => {
  it('serves an OpenAPI 3.1 document generated from the route schemas, and a docs page', async () => {
    const r = await api('GET', '/v1/openapi.json');
    expect(r.status).toBe(200);
    expect(r.body.openapi).toBe('3.1.0');
    for (const path of ['/v1/verifications', '/v1/verifications/{id}', '/v1/signup', '/v1/projects/{project_id}/webhook', '/o/{token}/uploads', '/o/{token}/frames']) {
      expect(Object.keys(r.body.paths)).toContain(path);
    }
    expect(Object.keys(r.body.components.schemas)).toEqual(expect.arrayContaining(['CreateVerification', 'Verification', 'Problem', 'ErasureReceipt', 'WebhookEvent', 'FramesUpload']));
    // Every event under `webhooks`, each with the headers, the envelope and the signature rule.
    expect(Object.keys(r.body.webhooks).sort()).toEqual(['verification.completed', 'verification.failed', 'verification.reviewed']);
    for (const [name, item] of Object.entries(r.body.webhooks) as [string, { post: any }][]) {
      const hook = item.post;
      expect(hook.parameters.map((p: { name: string }) => p.name)).toEqual(['X-Service-Event', 'X-Service-Timestamp', 'X-Service-Signature', 'X-Service-Signature-Previous']);
      expect(hook.parameters[0].schema.enum).toEqual([name]);
      expect(hook.requestBody.content['application/json'].schema.$ref).toBe('#/components/schemas/WebhookEvent');
      expect(hook.description).toContain('HMAC-SHA256(secret, `<X-Service-Timestamp>.<raw body>`)');
    }
    expect(r.body.webhooks['verification.reviewed'].post.description).toContain('review: { state, at }');
    expect(Object.keys(r.body.components.schemas.WebhookEvent.properties)).toEqual(expect.arrayContaining(['customer_disposition', 'review']));
    // The document is as strict as the validation where JSON Schema can say it: the invitation body a
    // client sends documents its email as an email (its input schema once showed a plain string, a trimmed
    // one piped into z.email(), so clients and the fuzzer sent "" and any text).
    const ref: string = r.body.paths['/v1/team/invitations'].post.requestBody.content['application/json'].schema.$ref;
    expect(r.body.components.schemas[ref.split('/').pop()!].properties.email).toMatchObject({ type: 'string', format: 'email', maxLength: 320 });
    const docs = await fetch(`${(await import('../helpers.js')).stack().apiUrl}/v1/docs/`);
    expect(docs.status).toBe(200);
    expect(await docs.text()).toContain('swagger');
  });
});
