import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forkService } from '../../scripts/stack.js';
import { freePort } from '../../platform/temporal-server.js';
import { inProcessApp } from '../app-factory.js';
import { api, createVerification, sampleJpeg, signup, sql, stack, tokenOf } from '../helpers.js';

/**
 * Two api processes of their own with tight limits, on the test stack's database: every limit is
 * counted in PostgreSQL, so requests spread over both processes add up. They trust
 * X-Forwarded-For (as behind a proxy), so per-IP tests use an address no other suite sends from.
 */
const clientIp = () => `198.51.100.${1 + Math.floor(Math.random() * 250)}`;
const LIMITS = { TRUST_PROXY: 'true', RATE_LIMIT_API_KEY: '5/1m', RATE_LIMIT_CAPTURE_TOKEN: '4/1m', RATE_LIMIT_SIGNUP: '2/1h', RATE_LIMIT_ANONYMOUS: '6/1m' };
const apis: { url: string; child: ChildProcess }[] = [];

beforeAll(async () => {
  for (let i = 0; i < 2; i++) {
    const port = await freePort();
    const env = { ...process.env, ...stack().env, ...LIMITS, PORT: String(port), PUBLIC_BASE_URL: `http://127.0.0.1:${port}` };
    apis.push({ url: `http://127.0.0.1:${port}`, child: await forkService('api/server.ts', env, `api-limited-${i}`, { logFile: stack().logFile }) });
  }
}, 240_000);

afterAll(async () => {
  await Promise.all(apis.map(({ child }) => new Promise<void>((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  })));
});

async function call(i: number, method: string, path: string, headers: Record<string, string> = {}, body?: BodyInit) {
  const res = await fetch(`${apis[i]!.url}${path}`, { method, headers, body, redirect: 'manual' });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text.startsWith('{') ? JSON.parse(text) : text };
}

function expectLimited(r: Awaited<ReturnType<typeof call>>, field: string, maxRetryAfter: number) {
  expect(r.status).toBe(429);
  expect(r.headers.get('content-type')).toContain('application/problem+json');
  expect(r.body).toMatchObject({ status: 429, code: 'rate_limited', title: 'Too Many Requests' });
  expect(r.body.errors[0].field).toBe(field);
  const retryAfter = Number(r.headers.get('retry-after'));
  expect(Number.isInteger(retryAfter)).toBe(true);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(maxRetryAfter);
}

describe('abuse limits shared by two api processes', () => {
  it('limits each API key across both processes; another key is unaffected', async () => {
    const a = await signup('limited a');
    const b = await signup('limited b');
    const statuses: number[] = [];
    for (let n = 0; n < 5; n++) statuses.push((await call(n % 2, 'GET', '/v1/me', { 'x-api-key': a.key })).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200]);
    const limited = await call(1, 'GET', '/v1/me', { 'x-api-key': a.key });
    expectLimited(limited, 'X-API-Key', 60);
    expect(limited.headers.get('x-ratelimit-limit')).toBe('5');
    // over the limit nothing runs: a create is refused before its body is read, and no Case appears
    const before = await sql<{ n: string }>('select count(*)::text as n from verifications where project_id = $1', [a.projectId]);
    const create = await call(0, 'POST', '/v1/verifications', { 'x-api-key': a.key, 'content-type': 'application/json' }, JSON.stringify({ type: 'kyc', accepted_documents: [{ country: 'MEX', types: ['passport'] }] }));
    expect(create.status).toBe(429);
    expect(await sql<{ n: string }>('select count(*)::text as n from verifications where project_id = $1', [a.projectId])).toEqual(before);
    expect((await call(0, 'GET', '/v1/me', { 'x-api-key': b.key })).status).toBe(200);
    // the main api (its own, generous limits) still serves the limited key: limits are per deployment config, counts per key
    expect((await api('GET', '/v1/me', { key: a.key })).status).toBe(200);
    // counters hold digests, never the key
    const keys = (await sql<{ key: string }>('select key from rate_limit_counters')).map((r) => r.key);
    expect(keys.some((k) => k.startsWith('api_key:'))).toBe(true);
    expect(keys.join('\n')).not.toContain(a.key);
  });

  it('limits each capture token, uploads included, before the upload is read', async () => {
    const { key } = await signup('limited capture');
    const v = await createVerification(key);
    const token = tokenOf(v.onboarding_url);
    const other = tokenOf((await createVerification(key)).onboarding_url);
    const statuses: number[] = [];
    for (let n = 0; n < 4; n++) statuses.push((await call(n % 2, 'GET', `/o/${token}/session`)).status);
    expect(statuses).toEqual([200, 200, 200, 200]);
    const form = new FormData();
    form.append('kind', 'document_front');
    form.append('file', new Blob([new Uint8Array(await sampleJpeg())], { type: 'image/jpeg' }), 'front.jpg');
    const upload = await call(1, 'POST', `/o/${token}/uploads`, {}, form);
    expectLimited(upload, 'token', 60);
    expect(await sql('select id from uploads where verification_id = $1', [v.id])).toEqual([]);
    expect((await call(0, 'GET', `/o/${other}/session`)).status).toBe(200);
    const keys = (await sql<{ key: string }>('select key from rate_limit_counters')).map((r) => r.key).join('\n');
    expect(keys).not.toContain(token);
  });

  it('limits signup per client IP with a Retry-After up to the hour window', async () => {
    const headers = { 'content-type': 'application/json', 'x-forwarded-for': clientIp() };
    const name = `limited signup ${Date.now()}`;
    expect((await call(0, 'POST', '/v1/signup', headers, JSON.stringify({ name }))).status).toBe(201);
    expect((await call(1, 'POST', '/v1/signup', headers, JSON.stringify({ name }))).status).toBe(201);
    const third = await call(0, 'POST', '/v1/signup', headers, JSON.stringify({ name }));
    expectLimited(third, 'ip', 3600);
    expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(3000);
    expect(await sql('select id from projects where name = $1', [name])).toHaveLength(2);
    // another client address signs up
    expect((await call(1, 'POST', '/v1/signup', { ...headers, 'x-forwarded-for': '203.0.113.9' }, JSON.stringify({ name }))).status).toBe(201);
  });

  it('limits requests without a key per client IP; health checks and static assets are never limited', async () => {
    const statuses: number[] = [];
    const ip = { 'x-forwarded-for': clientIp() };
    for (let n = 0; n < 8; n++) statuses.push((await call(n % 2, 'GET', '/v1/me', ip)).status);
    expect(statuses.slice(0, 6)).toEqual([401, 401, 401, 401, 401, 401]);
    expect(statuses.slice(6)).toEqual([429, 429]);
    for (let n = 0; n < 10; n++) expect((await call(n % 2, 'GET', '/healthz', ip)).status).toBe(200);
    for (let n = 0; n < 10; n++) expect((await call(n % 2, 'GET', '/hosted/capture.js', ip)).status).toBe(200);
  });

  it('counts atomically: 20 concurrent requests on one key over two processes let exactly the limit through', async () => {
    const { key } = await signup('limited concurrent');
    const results = await Promise.all(Array.from({ length: 20 }, (_, n) => call(n % 2, 'GET', '/v1/me', { 'x-api-key': key })));
    expect(results.filter((r) => r.status === 200)).toHaveLength(5);
    expect(results.filter((r) => r.status === 429)).toHaveLength(15);
  });
});

describe('security headers', () => {
  it('on the API and the hosted page: CSP with a style nonce and no unsafe-inline, frame-ancestors none, nosniff, camera for this origin only; no HSTS outside production', async () => {
    const { key } = await signup('headers');
    const v = await createVerification(key);
    for (const r of [await api('GET', '/v1/me', { key }), await api('GET', '/v1/nope'), await fetch(v.onboarding_url)]) {
      const csp = r.headers.get('content-security-policy')!;
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("media-src 'self' blob: mediastream:");
      expect(csp).not.toContain('unsafe-inline');
      expect(csp).not.toContain('unsafe-eval');
      expect(r.headers.get('x-frame-options')).toBe('DENY');
      expect(r.headers.get('x-content-type-options')).toBe('nosniff');
      expect(r.headers.get('referrer-policy')).toBe('no-referrer');
      expect(r.headers.get('permissions-policy')).toContain('camera=(self)');
      expect(r.headers.get('strict-transport-security')).toBeNull();
    }
    const page = await fetch(v.onboarding_url);
    const html = await page.text();
    const nonce = /style-src 'self' 'nonce-([^']+)'/.exec(page.headers.get('content-security-policy')!)![1]!;
    expect(html).toContain(`<style nonce="${nonce}">`);
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)/); // no inline script at all
    const again = /'nonce-([^']+)'/.exec((await fetch(v.onboarding_url)).headers.get('content-security-policy')!)![1];
    expect(again).not.toBe(nonce); // fresh per response
  });

  it('sends HSTS in production', async () => {
    const prod = await inProcessApp({ SERVICE_MODE: 'production', BLOB_ENCRYPTION_KEY: 'a'.repeat(64), SECRETS_ENCRYPTION_KEY: 'b'.repeat(64), PUBLIC_BASE_URL: 'https://verify.example.com', GOOGLE_CLIENT_ID: 'g', GOOGLE_CLIENT_SECRET: 'gs', GITHUB_CLIENT_ID: 'h', GITHUB_CLIENT_SECRET: 'hs' });
    try {
      const r = await prod.app.inject({ method: 'GET', url: '/healthz' });
      expect(r.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
      expect(String(r.headers['content-security-policy'])).toContain('upgrade-insecure-requests');
    } finally {
      await prod.close();
    }
  });
});
