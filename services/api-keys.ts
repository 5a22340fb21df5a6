import type { EntityManager } from '@mikro-orm/postgresql';
import { newId } from '../domain/ids.js';
import type { ApiKeyPrincipal, Principal } from '../domain/principal.js';
import { ApiKey, Project, type IApiKey, type IProject } from '../db/entities/index.js';
import { randomToken, sha256Hex } from '../platform/crypto.js';
import { actingProject, actingProjectId, requireApiKeyPrincipal } from './tenancy.js';

/** Raw keys look like `ivs_sk_<43 random chars>`; only the sha256 is stored. */
export function mintRawKey(sandbox: boolean): string {
  return `ivs_${sandbox ? 'test' : 'live'}_${randomToken(32)}`;
}

export async function createApiKey(em: EntityManager, project: IProject, name = 'default'): Promise<{ key: IApiKey; raw: string }> {
  const raw = mintRawKey(project.sandbox);
  const key = em.create(ApiKey, {
    id: newId('apiKey'),
    projectId: project.id,
    name,
    prefix: raw.slice(0, 16),
    hash: sha256Hex(raw),
    createdAt: new Date(),
    revokedAt: null,
    lastUsedAt: null,
  });
  await em.flush();
  return { key, raw };
}

/** Looks a raw key up by its hash; a unique index makes this constant-time with respect to the secret. */
export async function authenticateKey(em: EntityManager, raw: string): Promise<{ key: IApiKey; project: IProject } | null> {
  if (!/^ivs_(test|live)_[A-Za-z0-9_-]{43}$/.test(raw)) return null;
  const key = await em.findOne(ApiKey, { hash: sha256Hex(raw), revokedAt: null });
  if (!key) return null;
  const project = await em.findOne(Project, { id: key.projectId });
  if (!project) return null;
  return { key, project };
}

/**
 * Resolves a raw key to the acting principal (null: unknown, revoked or rotated). Refreshes the
 * key's last-used time at most once a minute, which bounds the write amplification of hot keys.
 */
export async function principalForKey(em: EntityManager, raw: string): Promise<ApiKeyPrincipal | null> {
  const found = await authenticateKey(em, raw);
  if (!found) return null;
  const now = Date.now();
  if (!found.key.lastUsedAt || now - found.key.lastUsedAt.getTime() > 60_000) {
    found.key.lastUsedAt = new Date(now);
    await em.flush();
  }
  return { kind: 'api_key', projectId: found.project.id, apiKeyId: found.key.id };
}

export async function listApiKeys(em: EntityManager, principal: Principal, projectId: string) {
  const keys = await em.find(ApiKey, { projectId: actingProjectId(principal, projectId) }, { orderBy: { createdAt: 'desc' } });
  return keys.map(viewKey);
}

/** A new key for the project; the raw value is returned this once. */
export async function createProjectApiKey(em: EntityManager, principal: Principal, projectId: string, name: string) {
  const { key, raw } = await createApiKey(em, await actingProject(em, principal, projectId), name);
  return { ...viewKey(key), api_key: raw };
}

/** Revokes a key of the project; unknown or already revoked keys are a no-op (idempotent). */
export async function revokeApiKey(em: EntityManager, principal: Principal, projectId: string, keyId: string): Promise<void> {
  const key = await em.findOne(ApiKey, { id: keyId, projectId: actingProjectId(principal, projectId) });
  if (key && !key.revokedAt) {
    key.revokedAt = new Date();
    await em.flush();
  }
}

/** Replaces the calling key in one transaction: the old key stops working at once, the new one is returned once. */
export async function rotateApiKey(em: EntityManager, principal: Principal): Promise<{ api_key: string }> {
  const caller = requireApiKeyPrincipal(principal);
  return em.transactional(async (tx) => {
    const key = await tx.findOneOrFail(ApiKey, { id: caller.apiKeyId, projectId: caller.projectId });
    key.revokedAt = new Date();
    const project = await tx.findOneOrFail(Project, { id: caller.projectId });
    const created = await createApiKey(tx, project, key.name);
    return { api_key: created.raw };
  });
}

export function viewKey(k: IApiKey) {
  return {
    id: k.id,
    name: k.name,
    prefix: k.prefix,
    created_at: k.createdAt.toISOString(),
    revoked_at: k.revokedAt?.toISOString() ?? null,
    last_used_at: k.lastUsedAt?.toISOString() ?? null,
  };
}
