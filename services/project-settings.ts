import type { EntityManager } from '@mikro-orm/postgresql';
import type { TBranding } from '../domain/api-schemas.js';
import type { ApiKeyPrincipal, MemberPrincipal } from '../domain/principal.js';
import { ApiKey, WebhookDelivery, type IProject } from '../db/entities/index.js';
import type { AppConfig } from '../platform/config.js';
import { createApiKey, viewKey } from './api-keys.js';
import { audit } from './audit.js';
import { previousSecretsExpireAt } from '../platform/webhook-secrets.js';
import { createProjectInOrg, setWebhook } from './projects.js';
import { actingProject } from './tenancy.js';

/**
 * Project settings writes shared by the /v1 routes (key or session) and the dashboard pages.
 * Each is audited. The caller (services/access.ts) has resolved the project and the permission.
 */
type Actor = ApiKeyPrincipal | MemberPrincipal;

export async function listKeys(em: EntityManager, project: IProject) {
  return (await em.find(ApiKey, { projectId: project.id }, { orderBy: { createdAt: 'desc' } })).map(viewKey);
}

export async function createKey(em: EntityManager, actor: Actor, project: IProject, name: string) {
  const { key, raw } = await createApiKey(em, project, name);
  await audit(em, actor, 'key.created', { projectId: project.id, targetId: key.id });
  await em.flush();
  return { ...viewKey(key), api_key: raw };
}

/** Idempotent: an unknown, foreign or already revoked key changes nothing. */
export async function revokeKey(em: EntityManager, actor: Actor, project: IProject, keyId: string): Promise<void> {
  const key = await em.findOne(ApiKey, { id: keyId, projectId: project.id });
  if (key && !key.revokedAt) {
    key.revokedAt = new Date();
    await audit(em, actor, 'key.revoked', { projectId: project.id, targetId: key.id });
    await em.flush();
  }
}

export async function updateBranding(em: EntityManager, actor: Actor, project: IProject, branding: TBranding): Promise<TBranding> {
  project.branding = { ...branding };
  project.updatedAt = new Date();
  await audit(em, actor, 'branding.updated', { projectId: project.id });
  await em.flush();
  return branding;
}

export function viewWebhook(project: IProject) {
  return { url: project.webhookUrl ?? null, include_result: project.webhookIncludeResult, secret_set: Boolean(project.webhookSecretEnc), previous_secret_expires_at: previousSecretsExpireAt(project) };
}

export async function putWebhook(em: EntityManager, config: AppConfig, actor: Actor, project: IProject, input: { url: string; regenerate?: boolean; include_result?: boolean; secret_grace_seconds?: number }) {
  const r = await setWebhook(em, config, project, input);
  // The URL itself may carry a path token: the audit keeps only that it changed.
  await audit(em, actor, r.secret && input.regenerate ? 'webhook.secret_regenerated' : 'webhook.set', { projectId: project.id, meta: { include_result: r.include_result, secret_minted: Boolean(r.secret) } });
  await em.flush();
  return r;
}

export async function clearWebhook(em: EntityManager, actor: Actor, project: IProject): Promise<void> {
  project.webhookUrl = null;
  project.updatedAt = new Date();
  await audit(em, actor, 'webhook.cleared', { projectId: project.id });
  await em.flush();
}

/** Every delivery attempt, newest first (PII-free rows: origin, status, error code, timing). */
export async function listDeliveries(em: EntityManager, project: IProject, limit = 100) {
  const rows = await em.find(WebhookDelivery, { projectId: project.id }, { orderBy: { createdAt: 'desc', id: 'desc' }, limit });
  return rows.map((d) => ({ id: d.id, verification_id: d.verificationId, event: d.event, delivery_key: d.deliveryKey, attempt: d.attempt, url_origin: d.urlOrigin, status_code: d.statusCode ?? null, error: d.error ?? null, duration_ms: d.durationMs, at: d.createdAt.toISOString() }));
}

/** A new sandbox project in the member's org (dashboard), with its first key and the sample Flow; audited. */
export async function createProject(em: EntityManager, actor: MemberPrincipal, name: string): Promise<IProject> {
  const { project } = await createProjectInOrg(em, actor.orgId, name, true);
  await audit(em, actor, 'project.created', { projectId: project.id, targetId: project.id });
  await em.flush();
  return project;
}

/**
 * Legacy `POST /v1/webhook` (a key acts on its own project): set the URL, or clear it with null.
 * Audited like the project route.
 */
export async function setOwnWebhook(em: EntityManager, config: AppConfig, principal: ApiKeyPrincipal, url: string | null) {
  const project = await actingProject(em, principal);
  if (url === null) {
    await clearWebhook(em, principal, project);
    return { url: null, include_result: project.webhookIncludeResult };
  }
  const { url: set, include_result, secret } = await putWebhook(em, config, principal, project, { url });
  return { url: set, include_result, ...(secret ? { secret } : {}) };
}
