import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AppError } from '../../domain/errors.js';
import { decryptString, encryptString } from '../../platform/crypto.js';
import { audit } from '../../services/audit.js';
import { beginSignIn, completeSignIn, PROVIDERS, type AuthTransaction } from '../../services/oauth.js';
import { createSession, endSession } from '../../services/sessions.js';
import { signInUser } from '../../services/sign-in.js';
import { acceptFormBodies } from '../plugins/form-body.js';
import { assertCsrf, currentSession, parseCookies, sessionToken, setCookie } from '../plugins/session.js';

const TXN_COOKIE = 'ivs_auth';
const ZProvider = z.object({ provider: z.enum(PROVIDERS) });

/** Only paths inside the dashboard: no open redirect after sign-in. */
export function safeReturnTo(raw: unknown): string {
  return typeof raw === 'string' && /^\/dashboard(\/[A-Za-z0-9_\-/]*)?(\?[A-Za-z0-9_=&-]*)?$/.test(raw) ? raw : '/dashboard';
}

const signInError = (reply: FastifyReply, code: string) => reply.redirect(`/dashboard/sign-in?error=${encodeURIComponent(code)}`, 303);

/**
 * OAuth routes (internal to the dashboard, not the machine contract). The per-attempt state,
 * nonce and PKCE verifier travel sealed (AES-GCM with the secrets key) in a 10-minute cookie
 * scoped to /auth, so no row is written before someone actually signs in.
 */
export async function authRoutes(app: FastifyInstance): Promise<void> {
  acceptFormBodies(app);
  const txnCookie = (req: FastifyRequest) => parseCookies(req.headers.cookie)[TXN_COOKIE];

  app.get('/auth/:provider/start', { schema: { hide: true, params: ZProvider } }, async (req, reply) => {
    const { provider } = req.params as z.infer<typeof ZProvider>;
    const { config } = req.deps;
    if (!config.auth[provider].client) return signInError(reply, 'provider_not_configured');
    let started: Awaited<ReturnType<typeof beginSignIn>>;
    try {
      started = await beginSignIn(config, provider, safeReturnTo((req.query as { return_to?: unknown }).return_to));
    } catch (err) {
      req.log.warn({ provider, err: (err as Error).message }, 'sign-in provider unreachable');
      return signInError(reply, 'provider_unavailable');
    }
    setCookie(reply, TXN_COOKIE, encryptString(config.secretsKey, JSON.stringify(started.txn)), { secure: config.auth.secureCookies, maxAge: 600, path: '/auth' });
    reply.header('cache-control', 'no-store');
    return reply.redirect(started.url, 302);
  });

  app.get('/auth/:provider/callback', { schema: { hide: true, params: ZProvider } }, async (req, reply) => {
    const { provider } = req.params as z.infer<typeof ZProvider>;
    const { config } = req.deps;
    reply.header('cache-control', 'no-store');
    setCookie(reply, TXN_COOKIE, '', { secure: config.auth.secureCookies, maxAge: 0, path: '/auth' });
    let txn: AuthTransaction;
    try {
      txn = JSON.parse(decryptString(config.secretsKey, txnCookie(req) ?? ''));
    } catch {
      return signInError(reply, 'sign_in_expired');
    }
    if (txn.provider !== provider || txn.exp < Date.now()) return signInError(reply, 'sign_in_expired');
    const providerError = (req.query as { error?: string }).error;
    if (providerError) {
      req.log.warn({ provider, error: String(providerError).slice(0, 60) }, 'provider answered with an error');
      return signInError(reply, 'sign_in_cancelled');
    }
    let identity;
    try {
      identity = await completeSignIn(config, txn, new URL(`${config.publicBaseUrl}${req.url}`));
    } catch (err) {
      req.log.warn({ provider, code: err instanceof AppError ? err.code : 'error' }, 'sign-in refused');
      return signInError(reply, /verified/.test((err as Error).message) ? 'email_not_verified' : 'sign_in_failed');
    }
    const signedIn = await signInUser(req.em, identity);
    const { token } = await createSession(req.em, config.auth, signedIn.user.id, { orgId: signedIn.orgId, projectId: signedIn.projectId }, sessionToken(req));
    setCookie(reply, config.auth.cookieName, token, { secure: config.auth.secureCookies, maxAge: config.auth.absoluteSeconds });
    return reply.redirect(txn.returnTo, 303);
  });

  app.post('/auth/logout', { schema: { hide: true } }, async (req, reply) => {
    const session = await currentSession(req);
    const { config } = req.deps;
    if (session) {
      assertCsrf(req, session);
      await audit(req.em, { kind: 'user', userId: session.userId, orgId: session.activeOrgId ?? null }, 'session.signed_out');
      await req.em.flush();
      await endSession(req.em, sessionToken(req));
    }
    setCookie(reply, config.auth.cookieName, '', { secure: config.auth.secureCookies, maxAge: 0 });
    return reply.redirect('/dashboard/sign-in', 303);
  });
}
