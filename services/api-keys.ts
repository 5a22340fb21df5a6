import type { EntityManager } from '@mikro-orm/postgresql';
import { newId } from '../domain/ids.js';
import type { ApiKeyPrincipal, Principal } from '../domain/principal.js';
import { ApiKey, Project, type IApiKey, type IProject } from '../db/entities/index.js';
import { randomToken, sha256Hex } from '../platform/crypto.js';
import { audit } from './audit.js';
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

/** Replaces the calling key in one transaction: the old key stops working at once, the new one is returned once. */
export async function rotateApiKey(em: EntityManager, principal: Principal): Promise<{ api_key: string }> {
  const caller = requireApiKeyPrincipal(principal);
  return em.transactional(async (tx) => {
    const key = await tx.findOneOrFail(ApiKey, { id: caller.apiKeyId, projectId: caller.projectId });
    key.revokedAt = new Date();
    const project = await tx.findOneOrFail(Project, { id: caller.projectId });
    const created = await createApiKey(tx, project, key.name);
    await audit(tx, caller, 'key.rotated', { targetId: created.key.id });
    await tx.flush();
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
