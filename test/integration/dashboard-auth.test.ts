import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../engine/assets.js';
import { loadConfig } from '../../platform/config.js';
import { inProcessApp } from '../app-factory.js';
import { Browser, csrfOf, signIn, uniqueEmail, userIdOf } from '../dashboard-helpers.js';
import { api, countRows, sql, stack } from '../helpers.js';

const apiUrl = () => stack().apiUrl;
const sessionCookie = (b: Browser) => b.setCookies.filter((c) => c.startsWith('ivs_session=')).at(-1)!;

describe('dashboard sign-in through the local providers', () => {
  it('Google (OIDC, PKCE, nonce): a first sign-in creates the user, a personal org and an HttpOnly SameSite=Lax session', async () => {
    const email = uniqueEmail('g');
    const s = await signIn('google', email);
    expect(s.landing).toBe(`${apiUrl()}/dashboard`);
    // The authorization request carried PKCE S256, state and nonce.
    const authorize = new URL(s.chain.find((u) => u.includes('/auth?') || u.includes('/authorize'))!);
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorize.searchParams.get('state')).toBeTruthy();
    expect(authorize.searchParams.get('nonce')).toBeTruthy();
    const cookie = sessionCookie(s.browser);
    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).toMatch(/; SameSite=Lax/);
    expect(cookie).toMatch(/; Path=\//);
    expect(cookie).not.toMatch(/Secure/); // plain http outside production
    expect(cookie).toMatch(/Max-Age=604800/);
    expect(s.token.length).toBeGreaterThan(40);
    // Only the hash is stored.
    expect(await countRows('dashboard_sessions', 'token_hash = encode(sha256($1::bytea), \'hex\')', [s.token])).toBe(1);

    const home = await s.browser.fetch(`${apiUrl()}/dashboard`);
    expect(home.status).toBe(303);
    expect(home.headers.get('location')).toMatch(/^\/dashboard\/projects\/prj_[0-9A-Z]{26}\/keys$/);
    const page = await s.browser.fetch(new URL(home.headers.get('location')!, apiUrl()).toString());
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(email);
    const uid = await userIdOf(email);
    expect(await sql('select provider, subject from identities where user_id = $1', [uid])).toEqual([{ provider: 'google', subject: email }]);
    expect(await sql('select role from memberships where user_id = $1', [uid])).toEqual([{ role: 'owner' }]);
    expect((await sql<{ action: string; meta: unknown }>('select action, meta from audit_events where actor_user_id = $1', [uid]))).toEqual([{ action: 'session.signed_in', meta: { provider: 'google' } }]);
  });

  it('GitHub (OAuth 2 + /user + /user/emails): the verified primary email links to the same user; an unverified one is refused', async () => {
    const email = uniqueEmail('h');
    await signIn('google', email);
    const s = await signIn('github', email);
    expect(s.landing).toBe(`${apiUrl()}/dashboard`);
    const authorize = new URL(s.chain.find((u) => u.includes('/login/oauth/authorize'))!);
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorize.searchParams.get('state')).toBeTruthy();
    const uid = await userIdOf(email);
    expect(await countRows('users', 'email = $1', [email])).toBe(1);
    expect((await sql<{ provider: string }>('select provider from identities where user_id = $1 order by provider', [uid])).map((r) => r.provider)).toEqual(['github', 'google']);

    const unverified = await signIn('github', uniqueEmail('unverified'), { verified: false });
    expect(unverified.landing).toBe(`${apiUrl()}/dashboard/sign-in?error=email_not_verified`);
    expect(unverified.token).toBe('');
    const page = await unverified.browser.fetch(unverified.landing);
    expect(await page.text()).toContain('did not confirm your email');
  });

  it('rotates the session id at sign-in: the old cookie stops working', async () => {
    const email = uniqueEmail('rot');
    const first = await signIn('google', email);
    const old = first.token;
    const second = await signIn('github', email, { browser: first.browser });
    expect(second.token).not.toBe(old);
    expect(await countRows('dashboard_sessions', 'token_hash = encode(sha256($1::bytea), \'hex\')', [old])).toBe(0);
    const stale = new Browser();
    stale.set(apiUrl(), 'ivs_session', old);
    const r = await stale.fetch(`${apiUrl()}/dashboard/orgs`);
    expect(r.status).toBe(303);
    expect(r.headers.get('location')).toMatch(/^\/dashboard\/sign-in/);
  });

  it('refuses a callback with a forged state or without the sign-in cookie', async () => {
    const b = new Browser();
    const start = await b.fetch(`${apiUrl()}/auth/github/start`);
    const authorize = new URL(start.headers.get('location')!);
    const forged = await b.fetch(`${apiUrl()}/auth/github/callback?code=x&state=${authorize.searchParams.get('state')}x`);
    expect(forged.headers.get('location')).toBe('/dashboard/sign-in?error=sign_in_failed');
    const noCookie = await new Browser().fetch(`${apiUrl()}/auth/github/callback?code=x&state=y`);
    expect(noCookie.headers.get('location')).toBe('/dashboard/sign-in?error=sign_in_expired');
  });

  it('rejects session writes without the CSRF token (forms and JSON) and accepts them with it', async () => {
    const s = await signIn('google', uniqueEmail('csrf'));
    const home = await s.browser.fetch(`${apiUrl()}/dashboard`);
    const projectId = /prj_[0-9A-Z]{26}/.exec(home.headers.get('location')!)![0];
    const keysBefore = await countRows('api_keys', 'project_id = $1', [projectId]);
    const noToken = await s.browser.fetch(`${apiUrl()}/dashboard/projects/${projectId}/keys`, { form: { name: 'x' } });
    expect(noToken.status).toBe(403);
    const wrong = await s.browser.fetch(`${apiUrl()}/dashboard/projects/${projectId}/keys`, { form: { name: 'x', _csrf: 'not-the-token' } });
    expect(wrong.status).toBe(403);
    const json = await s.browser.fetch(`${apiUrl()}/v1/projects/${projectId}/branding`, { method: 'PUT', json: { name: 'Acme' } });
    expect(json.status).toBe(403);
    expect((await json.json()).code).toBe('csrf_failed');
    const logoutNoToken = await s.browser.fetch(`${apiUrl()}/auth/logout`, { form: {} });
    expect(logoutNoToken.status).toBe(403);
    expect(await countRows('api_keys', 'project_id = $1', [projectId])).toBe(keysBefore);

    const csrf = await csrfOf(s.browser);
    const ok = await s.browser.fetch(`${apiUrl()}/dashboard/projects/${projectId}/keys`, { form: { name: 'ci', _csrf: csrf } });
    expect(ok.status).toBe(201);
    expect(await ok.text()).toMatch(/ivs_test_[A-Za-z0-9_-]{43}/);
    const jsonOk = await s.browser.fetch(`${apiUrl()}/v1/projects/${projectId}/branding`, { method: 'PUT', json: { name: 'Acme' }, headers: { 'x-csrf-token': csrf } });
    expect(jsonOk.status).toBe(200);
    expect(await countRows('api_keys', 'project_id = $1', [projectId])).toBe(keysBefore + 1);
  });

  it('expires sessions after 8 h idle and after 7 days absolute', async () => {
    const idle = await signIn('google', uniqueEmail('idle'));
    await sql(`update dashboard_sessions set last_seen_at = now() - interval '8 hours 1 minute' where token_hash = encode(sha256($1::bytea), 'hex')`, [idle.token]);
    const r1 = await idle.browser.fetch(`${apiUrl()}/dashboard/orgs`);
    expect(r1.status).toBe(303);
    expect(r1.headers.get('location')).toMatch(/^\/dashboard\/sign-in/);
    expect(await countRows('dashboard_sessions', 'token_hash = encode(sha256($1::bytea), \'hex\')', [idle.token])).toBe(0);

    const fresh = await signIn('google', uniqueEmail('abs'));
    // Active a minute ago, but created more than 7 days ago.
    await sql(`update dashboard_sessions set created_at = now() - interval '7 days 1 minute', expires_at = now() - interval '1 minute', last_seen_at = now() - interval '1 minute' where token_hash = encode(sha256($1::bytea), 'hex')`, [fresh.token]);
    const r2 = await fresh.browser.fetch(`${apiUrl()}/v1/team/members`);
    expect(r2.status).toBe(401);
    // A session within both limits works.
    const live = await signIn('google', uniqueEmail('live'));
    await sql(`update dashboard_sessions set last_seen_at = now() - interval '7 hours 59 minutes' where token_hash = encode(sha256($1::bytea), 'hex')`, [live.token]);
    expect((await live.browser.fetch(`${apiUrl()}/v1/team/members`)).status).toBe(200);
  });

  it('logout ends the session and clears the cookie', async () => {
    const email = uniqueEmail('out');
    const s = await signIn('google', email);
    const csrf = await csrfOf(s.browser);
    const token = s.token;
    const r = await s.browser.fetch(`${apiUrl()}/auth/logout`, { form: { _csrf: csrf } });
    expect(r.status).toBe(303);
    expect(r.headers.get('location')).toBe('/dashboard/sign-in');
    expect(sessionCookie(s.browser)).toMatch(/^ivs_session=; .*Max-Age=0/);
    expect(await countRows('dashboard_sessions', 'token_hash = encode(sha256($1::bytea), \'hex\')', [token])).toBe(0);
    const again = new Browser();
    again.set(apiUrl(), 'ivs_session', token);
    expect((await again.fetch(`${apiUrl()}/v1/team/members`)).status).toBe(401);
    expect((await sql<{ action: string }>('select action from audit_events where actor_user_id = $1 order by created_at', [await userIdOf(email)])).map((x) => x.action)).toEqual(['session.signed_in', 'session.signed_out']);
  });

  it('production refuses the stand-ins and missing client credentials, and uses __Host- Secure cookies', async () => {
    const prodBase = { SERVICE_MODE: 'production', DATABASE_URL: stack().databaseUrl, BLOB_ENCRYPTION_KEY: 'a'.repeat(64), SECRETS_ENCRYPTION_KEY: 'b'.repeat(64), PUBLIC_BASE_URL: 'https://verify.example.com' };
    const real = { GOOGLE_CLIENT_ID: 'g', GOOGLE_CLIENT_SECRET: 'gs', GITHUB_CLIENT_ID: 'h', GITHUB_CLIENT_SECRET: 'hs' };
    expect(() => loadConfig(prodBase)).toThrow(/GOOGLE_CLIENT_ID, GOOGLE_CLIENT_SECRET, GITHUB_CLIENT_ID, GITHUB_CLIENT_SECRET/);
    expect(() => loadConfig({ ...prodBase, ...real, AUTH_STANDINS: '1' })).toThrow(/stand-ins/);
    expect(() => loadConfig({ ...stack().env, NODE_ENV: 'production', AUTH_STANDINS: '1' })).toThrow(/NODE_ENV=production refuses/);
    expect(() => loadConfig({ ...prodBase, ...real, GOOGLE_ISSUER: stack().standins.googleIssuer })).toThrow(/GOOGLE_ISSUER/);
    expect(() => loadConfig({ ...prodBase, ...real, GITHUB_OAUTH_BASE: stack().standins.githubBase, GITHUB_API_BASE: stack().standins.githubBase })).toThrow(/GITHUB_OAUTH_BASE, GITHUB_API_BASE/);
    // The api process itself refuses to start with the stand-ins' settings.
    const child = spawnSync(process.execPath, ['--import', 'tsx', path.join(REPO_ROOT, 'api/server.ts')], {
      env: { ...process.env, ...prodBase, ...real, AUTH_STANDINS: '1', GOOGLE_ISSUER: stack().standins.googleIssuer, PORT: '0' }, encoding: 'utf8', timeout: 60_000,
    });
    expect(child.status).not.toBe(0);
    expect(child.stderr + child.stdout).toMatch(/stand-ins/);

    const prod = await inProcessApp({ ...prodBase, ...real });
    try {
      expect(prod.config.auth.cookieName).toBe('__Host-ivs_session');
      const start = await prod.app.inject({ method: 'GET', url: '/auth/github/start' });
      expect(start.statusCode).toBe(302);
      expect(start.headers.location).toMatch(/^https:\/\/github\.com\/login\/oauth\/authorize\?/);
      expect(String(start.headers['set-cookie'])).toMatch(/^ivs_auth=.*; HttpOnly; SameSite=Lax; Secure; Max-Age=600/);
      const out = await prod.app.inject({ method: 'POST', url: '/auth/logout' });
      expect(String(out.headers['set-cookie'])).toBe('__Host-ivs_session=; Path=/; HttpOnly; SameSite=Lax; Secure; Max-Age=0');
    } finally {
      await prod.close();
    }
  });

  it('logs neither the signed-in email nor the OAuth code', async () => {
    const email = uniqueEmail('logcheck');
    await signIn('google', email);
    await signIn('github', email);
    await new Promise((r) => setTimeout(r, 500)); // the api's log stream flushes
    const log = readFileSync(stack().logFile, 'utf8');
    expect(log).toContain('/auth/google/callback?[redacted]');
    expect(log).not.toContain(email);
    expect(log).not.toMatch(/callback\?code=/);
  });

  it('the API key path is unchanged: a key still reads its project settings without a session', async () => {
    const r = await api('POST', '/v1/signup', { json: { name: 'key path' } });
    const keys = await api('GET', `/v1/projects/${r.body.project_id}/keys`, { key: r.body.api_key });
    expect(keys.status).toBe(200);
    expect(r.body.org_id).toMatch(/^org_/);
  });
});
