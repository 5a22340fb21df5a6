import type { EntityManager } from '@mikro-orm/postgresql';
import { newId } from '../domain/ids.js';
import { DashboardSession, type IDashboardSession } from '../db/entities/index.js';
import type { AuthConfig } from '../platform/config.js';
import { randomToken, safeEqual, sha256Hex } from '../platform/crypto.js';

/**
 * Dashboard sessions in PostgreSQL. The cookie carries a 256-bit random token; the row is keyed by
 * its sha256, so a database read does not yield usable cookies. Idle expiry (last seen + idle) and
 * absolute expiry (created + absolute, never extended) are both enforced on every load.
 */
export async function createSession(em: EntityManager, auth: AuthConfig, userId: string, active: { orgId: string | null; projectId: string | null }, replacingToken?: string): Promise<{ token: string; session: IDashboardSession }> {
  // Rotation: signing in always mints a new id; a session cookie presented at sign-in is ended.
  if (replacingToken) await em.nativeDelete(DashboardSession, { tokenHash: sha256Hex(replacingToken) });
  const token = randomToken(32);
  const now = new Date();
  // Sessions nobody comes back to are swept here (sign-ins are rare enough; no timer needed).
  await em.nativeDelete(DashboardSession, { $or: [{ expiresAt: { $lt: now } }, { lastSeenAt: { $lt: new Date(now.getTime() - auth.idleSeconds * 1000) } }] });
  const session = em.create(DashboardSession, {
    id: newId('dashboardSession'),
    tokenHash: sha256Hex(token),
    userId,
    csrfToken: randomToken(32),
    activeOrgId: active.orgId,
    activeProjectId: active.projectId,
    createdAt: now,
    lastSeenAt: now,
    expiresAt: new Date(now.getTime() + auth.absoluteSeconds * 1000),
  });
  await em.flush();
  return { token, session };
}

/** The live session for a cookie token, or null (unknown, idle too long, or past its absolute expiry; expired rows are deleted). */
export async function loadSession(em: EntityManager, auth: AuthConfig, token: string | undefined): Promise<IDashboardSession | null> {
  if (!token || token.length > 100) return null;
  const session = await em.findOne(DashboardSession, { tokenHash: sha256Hex(token) });
  if (!session) return null;
  const now = Date.now();
  if (now >= session.expiresAt.getTime() || now - session.lastSeenAt.getTime() >= auth.idleSeconds * 1000) {
    await em.nativeDelete(DashboardSession, { id: session.id });
    return null;
  }
  // Bounded write amplification: last-seen moves at most once a minute.
  if (now - session.lastSeenAt.getTime() > 60_000) {
    session.lastSeenAt = new Date(now);
    await em.flush();
  }
  return session;
}

export async function endSession(em: EntityManager, token: string | undefined): Promise<void> {
  if (token) await em.nativeDelete(DashboardSession, { tokenHash: sha256Hex(token) });
}

export function csrfMatches(session: IDashboardSession, presented: unknown): boolean {
  return typeof presented === 'string' && presented.length > 0 && safeEqual(presented, session.csrfToken);
}
