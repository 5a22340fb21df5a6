import type { EntityManager } from '@mikro-orm/postgresql';
import { newId } from '../domain/ids.js';
import { ApiKey, Project, type IApiKey, type IProject } from '../db/entities/index.js';
import { randomToken, sha256Hex } from '../platform/crypto.js';

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
