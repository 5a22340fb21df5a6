import { createHash, generateKeyPairSync, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

/**
 * Local stand-ins for the sign-in providers, for development and tests only (production refuses
 * to start with them: platform/config.ts). The api reaches them through exactly the code path it
 * uses for the real ones (services/oauth.ts); only the issuer and base URLs differ.
 *
 * - Google: a real OpenID provider (`oidc-provider`): discovery, authorization code with PKCE,
 *   signed ID tokens with nonce. Its development login form accepts any email as the login: that
 *   email becomes `sub` and the verified `email` claim, so a test picks who signs in.
 * - GitHub: GitHub's OAuth web flow (`/login/oauth/authorize`, `/login/oauth/access_token`, with
 *   PKCE) and the user API (`/user`, `/user/emails`). Its form takes an email and whether it is
 *   verified (an unverified primary email must be refused by the api).
 */
export interface StandinClient { clientId: string; clientSecret: string }
export interface RunningStandins {
  google: { issuer: string } & StandinClient;
  github: { oauthBase: string; apiBase: string } & StandinClient;
  env: Record<string, string>;
  stop(): Promise<void>;
}

function listen(server: http.Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
}

export async function startGoogleStandin(port: number, redirectUris: string[], client: StandinClient): Promise<{ issuer: string; close(): Promise<void> }> {
  const server = http.createServer();
  const actualPort = await listen(server, port);
  const issuer = `http://127.0.0.1:${actualPort}`;
  const jwk = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' });
  const provider = new Provider(issuer, {
    clients: [{ client_id: client.clientId, client_secret: client.clientSecret, redirect_uris: redirectUris, grant_types: ['authorization_code'], response_types: ['code'] }],
    jwks: { keys: [{ ...jwk, kid: 'standin', use: 'sig', alg: 'RS256' } as never] },
    cookies: { keys: [randomBytes(32).toString('hex')] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    // Google puts email and name in the ID token; so does the stand-in.
    conformIdTokenClaims: false,
    pkce: { required: () => true },
    features: { devInteractions: { enabled: true } },
    async findAccount(_ctx, sub) {
      const email = sub.trim().toLowerCase();
      return {
        accountId: sub,
        async claims() {
          return { sub, email, email_verified: true, name: email.split('@')[0] };
        },
      };
    },
    // First-party client: grant the requested scopes without a consent screen (as Google does after the first consent).
    async loadExistingGrant(ctx) {
      const session = ctx.oidc.session!;
      const clientId = ctx.oidc.client!.clientId;
      const existing = session.grantIdFor(clientId);
      if (existing) return ctx.oidc.provider.Grant.find(existing);
      const grant = new ctx.oidc.provider.Grant({ clientId, accountId: session.accountId! });
      grant.addOIDCScope('openid email profile');
      await grant.save();
      session.grantIdFor(clientId, grant.jti);
      return grant;
    },
  });
  server.on('request', provider.callback());
  return { issuer, close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }) };
}

interface GithubCode { email: string; verified: boolean; redirectUri: string; challenge: string; expires: number }

const page = (body: string) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>GitHub stand-in</title></head><body><main>${body}</main></body></html>`;
const escHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export async function startGithubStandin(port: number, redirectUris: string[], client: StandinClient): Promise<{ base: string; close(): Promise<void> }> {
  const codes = new Map<string, GithubCode>();
  const tokens = new Map<string, { email: string; verified: boolean }>();
  const userId = (email: string) => Number.parseInt(createHash('sha256').update(email).digest('hex').slice(0, 8), 16);
  const readBody = (req: http.IncomingMessage) => new Promise<string>((resolve) => {
    let s = '';
    req.on('data', (c) => { s += c; });
    req.on('end', () => resolve(s));
  });
  const json = (res: http.ServerResponse, status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  const server = http.createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? '/', 'http://x');
      if (url.pathname === '/login/oauth/authorize' && req.method === 'GET') {
        const q = url.searchParams;
        if (q.get('client_id') !== client.clientId || !redirectUris.includes(q.get('redirect_uri') ?? '') || q.get('code_challenge_method') !== 'S256' || !q.get('code_challenge')) {
          return res.writeHead(400, { 'content-type': 'text/plain' }).end('bad authorization request');
        }
        const hidden = ['redirect_uri', 'state', 'code_challenge'].map((k) => `<input type="hidden" name="${k}" value="${escHtml(q.get(k) ?? '')}">`).join('');
        return res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page(`<h1>Sign in to GitHub (local stand-in)</h1>
<form method="post" action="/login/oauth/authorize">${hidden}
<label for="email">Email</label> <input id="email" name="email" type="email" required autofocus>
<label><input type="checkbox" name="verified" value="1" checked> verified</label>
<button type="submit">Sign in</button></form>`));
      }
      if (url.pathname === '/login/oauth/authorize' && req.method === 'POST') {
        const f = new URLSearchParams(await readBody(req));
        const redirectUri = f.get('redirect_uri') ?? '';
        if (!redirectUris.includes(redirectUri)) return res.writeHead(400).end('bad redirect_uri');
        const code = randomBytes(16).toString('hex');
        codes.set(code, { email: (f.get('email') ?? '').trim().toLowerCase(), verified: f.get('verified') === '1', redirectUri, challenge: f.get('code_challenge') ?? '', expires: Date.now() + 600_000 });
        const to = new URL(redirectUri);
        to.searchParams.set('code', code);
        if (f.get('state')) to.searchParams.set('state', f.get('state')!);
        return res.writeHead(302, { location: to.toString() }).end();
      }
      if (url.pathname === '/login/oauth/access_token' && req.method === 'POST') {
        const f = new URLSearchParams(await readBody(req));
        let id = f.get('client_id');
        let secret = f.get('client_secret');
        const basic = /^Basic (.+)$/.exec(req.headers.authorization ?? '');
        if (basic) [id, secret] = Buffer.from(basic[1]!, 'base64').toString().split(':').map(decodeURIComponent) as [string, string];
        if (id !== client.clientId || secret !== client.clientSecret) return json(res, 401, { error: 'incorrect_client_credentials' });
        const c = codes.get(f.get('code') ?? '');
        codes.delete(f.get('code') ?? '');
        const verifier = f.get('code_verifier') ?? '';
        if (!c || c.expires < Date.now() || c.redirectUri !== f.get('redirect_uri') || createHash('sha256').update(verifier).digest('base64url') !== c.challenge) {
          return json(res, 400, { error: 'bad_verification_code' });
        }
        const token = `gho_${randomBytes(18).toString('hex')}`;
        tokens.set(token, { email: c.email, verified: c.verified });
        return json(res, 200, { access_token: token, token_type: 'bearer', scope: 'read:user,user:email' });
      }
      const auth = /^(?:Bearer|token) (.+)$/i.exec(req.headers.authorization ?? '');
      const who = auth ? tokens.get(auth[1]!) : undefined;
      if ((url.pathname === '/user' || url.pathname === '/user/emails') && req.method === 'GET') {
        if (!who) return json(res, 401, { message: 'Requires authentication' });
        if (url.pathname === '/user') return json(res, 200, { id: userId(who.email), login: who.email.split('@')[0], name: who.email.split('@')[0], email: null });
        return json(res, 200, [
          { email: `${userId(who.email)}+noreply@users.noreply.github.com`, primary: false, verified: true, visibility: null },
          { email: who.email, primary: true, verified: who.verified, visibility: 'private' },
        ]);
      }
      return json(res, 404, { message: 'Not Found' });
    } catch {
      if (!res.headersSent) json(res, 500, { message: 'stand-in error' });
    }
  });
  const actualPort = await listen(server, port);
  return { base: `http://127.0.0.1:${actualPort}`, close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }) };
}

/** Both stand-ins, with fresh client credentials, and the env that points the api at them. */
export async function startAuthStandins(publicBaseUrl: string, ports: { google: number; github: number }): Promise<RunningStandins> {
  const google = { clientId: 'standin-google', clientSecret: randomBytes(24).toString('hex') };
  const github = { clientId: 'standin-github', clientSecret: randomBytes(24).toString('hex') };
  const g = await startGoogleStandin(ports.google, [`${publicBaseUrl}/auth/google/callback`], google);
  const h = await startGithubStandin(ports.github, [`${publicBaseUrl}/auth/github/callback`], github);
  return {
    google: { issuer: g.issuer, ...google },
    github: { oauthBase: h.base, apiBase: h.base, ...github },
    env: {
      AUTH_STANDINS: '1',
      GOOGLE_ISSUER: g.issuer, GOOGLE_CLIENT_ID: google.clientId, GOOGLE_CLIENT_SECRET: google.clientSecret,
      GITHUB_OAUTH_BASE: h.base, GITHUB_API_BASE: h.base, GITHUB_CLIENT_ID: github.clientId, GITHUB_CLIENT_SECRET: github.clientSecret,
    },
    stop: async () => { await Promise.all([g.close(), h.close()]); },
  };
}
