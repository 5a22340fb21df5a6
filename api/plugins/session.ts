import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../domain/errors.js';
import type { IDashboardSession } from '../../db/entities/index.js';
import type { Caller } from '../../services/access.js';
import { csrfMatches, loadSession } from '../../services/sessions.js';
import { requireApiKey } from './api-key-auth.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** undefined: not looked up yet; null: no live session. */
    dashboardSession?: IDashboardSession | null;
  }
}

export function parseCookies(header: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (header ?? '').split(';')) {
    const i = part.indexOf('=');
    if (i < 1) continue;
    const k = part.slice(0, i).trim();
    try {
      out[k] = decodeURIComponent(part.slice(i + 1).trim());
    } catch {
      /* a malformed cookie is ignored */
    }
  }
  return out;
}

export function setCookie(reply: FastifyReply, name: string, value: string, o: { secure: boolean; maxAge?: number; path?: string }): void {
  const attrs = [`${name}=${encodeURIComponent(value)}`, `Path=${o.path ?? '/'}`, 'HttpOnly', 'SameSite=Lax'];
  if (o.secure) attrs.push('Secure');
  if (o.maxAge !== undefined) attrs.push(`Max-Age=${o.maxAge}`);
  const prev = reply.getHeader('set-cookie');
  reply.header('set-cookie', [...(Array.isArray(prev) ? prev : prev ? [String(prev)] : []), attrs.join('; ')]);
}

export function sessionToken(req: FastifyRequest): string | undefined {
  return parseCookies(req.headers.cookie)[req.deps.config.auth.cookieName];
}

export async function currentSession(req: FastifyRequest): Promise<IDashboardSession | null> {
  if (req.dashboardSession === undefined) req.dashboardSession = await loadSession(req.em, req.deps.config.auth, sessionToken(req));
  return req.dashboardSession;
}

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

/** A state-changing request on a session must echo its CSRF token (header or `_csrf` form field). */
export function assertCsrf(req: FastifyRequest, session: IDashboardSession): void {
  if (SAFE.has(req.method)) return;
  const presented = req.headers['x-csrf-token'] ?? (req.body as { _csrf?: unknown } | undefined)?._csrf;
  if (!csrfMatches(session, presented)) throw new AppError('csrf_failed', 'Missing or wrong CSRF token: reload the page and try again.');
}

/**
 * Session-or-key routes (`/v1/projects/{id}/…`): an `X-API-Key` header authenticates as the
 * project's key (no cookie is consulted); otherwise a live dashboard session, with CSRF on writes.
 */
export async function resolveCaller(req: FastifyRequest, reply: FastifyReply, opts: { allowApiKey: boolean }): Promise<Caller> {
  if (opts.allowApiKey && req.headers['x-api-key'] !== undefined) {
    await requireApiKey(req, reply);
    return { kind: 'api_key', principal: req.principal };
  }
  const session = await currentSession(req);
  if (!session) throw new AppError('unauthorized', opts.allowApiKey ? 'Send the project API key in X-API-Key, or sign in to the dashboard.' : 'Sign in to the dashboard.');
  assertCsrf(req, session);
  return { kind: 'user', userId: session.userId };
}
