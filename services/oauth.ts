import * as oidc from 'openid-client';
import { AppError } from '../domain/errors.js';
import type { AppConfig } from '../platform/config.js';

/**
 * Sign-in with Google (OpenID Connect) and GitHub (OAuth 2 + user API), both through
 * `openid-client`. The local stand-ins (platform/auth-standins.ts) take the same path; only the
 * issuer and base URLs differ, and only they may be plain http (never in production).
 */
export const PROVIDERS = ['google', 'github'] as const;
export type ProviderName = (typeof PROVIDERS)[number];

/** What a provider vouched for: a stable subject and a verified email. */
export interface ProviderIdentity {
  provider: ProviderName;
  subject: string;
  email: string;
  name: string | null;
}

/** The per-attempt secrets kept (sealed) in a short-lived cookie between start and callback. */
export interface AuthTransaction {
  provider: ProviderName;
  state: string;
  nonce: string;
  verifier: string;
  returnTo: string;
  exp: number;
}

const configs = new Map<string, Promise<oidc.Configuration>>();

function clientOf(config: AppConfig, provider: ProviderName) {
  const client = config.auth[provider].client;
  if (!client) throw new AppError('not_found', `Sign-in with ${provider} is not configured (set ${provider.toUpperCase()}_CLIENT_ID and _SECRET).`);
  return client;
}

/** Discovery (Google) or static metadata (GitHub has no discovery document); cached per process. */
function providerConfig(config: AppConfig, provider: ProviderName): Promise<oidc.Configuration> {
  const client = clientOf(config, provider);
  const insecure = config.mode !== 'production' && config.auth.standins;
  const key = `${provider}|${client.clientId}|${provider === 'google' ? config.auth.google.issuer : config.auth.github.oauthBase}`;
  let cached = configs.get(key);
  if (!cached) {
    if (provider === 'google') {
      cached = oidc.discovery(new URL(config.auth.google.issuer), client.clientId, client.clientSecret, undefined, insecure ? { execute: [oidc.allowInsecureRequests] } : undefined);
    } else {
      const base = config.auth.github.oauthBase;
      const c = new oidc.Configuration(
        { issuer: base, authorization_endpoint: `${base}/login/oauth/authorize`, token_endpoint: `${base}/login/oauth/access_token` },
        client.clientId, client.clientSecret,
      );
      if (insecure) oidc.allowInsecureRequests(c);
      cached = Promise.resolve(c);
    }
    // A failed discovery is retried on the next sign-in rather than cached.
    cached.catch(() => configs.delete(key));
    configs.set(key, cached);
  }
  return cached;
}

export function redirectUri(config: AppConfig, provider: ProviderName): string {
  return `${config.publicBaseUrl}/auth/${provider}/callback`;
}

/** Builds the provider's authorization URL with PKCE (S256), state and (Google) nonce. */
export async function beginSignIn(config: AppConfig, provider: ProviderName, returnTo: string): Promise<{ url: string; txn: AuthTransaction }> {
  const c = await providerConfig(config, provider);
  const verifier = oidc.randomPKCECodeVerifier();
  const txn: AuthTransaction = { provider, state: oidc.randomState(), nonce: oidc.randomNonce(), verifier, returnTo, exp: Date.now() + 10 * 60_000 };
  const params: Record<string, string> = {
    redirect_uri: redirectUri(config, provider),
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state: txn.state,
  };
  if (provider === 'google') Object.assign(params, { scope: 'openid email profile', nonce: txn.nonce });
  else Object.assign(params, { scope: 'read:user user:email', allow_signup: 'false' });
  return { url: oidc.buildAuthorizationUrl(c, params).toString(), txn };
}

/**
 * Exchanges the code (state, PKCE and, for Google, the ID token's signature, issuer, audience,
 * expiry and nonce are checked by openid-client) and returns the verified identity.
 * An unverified email is refused: invitations and account linking key on it.
 */
export async function completeSignIn(config: AppConfig, txn: AuthTransaction, callbackUrl: URL): Promise<ProviderIdentity> {
  const c = await providerConfig(config, txn.provider);
  let tokens: Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>;
  try {
    tokens = await oidc.authorizationCodeGrant(c, callbackUrl, {
      pkceCodeVerifier: txn.verifier,
      expectedState: txn.state,
      ...(txn.provider === 'google' ? { expectedNonce: txn.nonce, idTokenExpected: true } : {}),
    });
  } catch (err) {
    throw new AppError('unauthorized', `Sign-in with ${txn.provider} failed: ${(err as Error).message}`);
  }
  if (txn.provider === 'google') {
    const claims = tokens.claims()!;
    if (typeof claims.email !== 'string' || claims.email_verified !== true) throw new AppError('unauthorized', 'Google did not return a verified email address.');
    return { provider: 'google', subject: claims.sub, email: claims.email.toLowerCase(), name: typeof claims.name === 'string' ? claims.name : null };
  }
  const headers = new Headers({ accept: 'application/vnd.github+json', 'user-agent': 'identity-verification-service' });
  const get = async (path: string) => {
    const res = await oidc.fetchProtectedResource(c, tokens.access_token, new URL(`${config.auth.github.apiBase}${path}`), 'GET', undefined, headers);
    if (!res.ok) throw new AppError('unauthorized', `GitHub ${path} answered ${res.status}.`);
    return res.json() as Promise<unknown>;
  };
  const user = (await get('/user')) as { id?: number; name?: string | null; login?: string };
  const emails = (await get('/user/emails')) as { email: string; primary: boolean; verified: boolean }[];
  const primary = Array.isArray(emails) ? emails.find((e) => e.primary) : undefined;
  if (typeof user.id !== 'number' || !primary || !primary.verified) throw new AppError('unauthorized', 'GitHub did not return a verified primary email address.');
  return { provider: 'github', subject: String(user.id), email: primary.email.toLowerCase(), name: user.name ?? user.login ?? null };
}
