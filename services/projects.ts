import type { EntityManager } from '@mikro-orm/postgresql';
import type { TBranding } from '../domain/api-schemas.js';
import { AppError } from '../domain/errors.js';
import { newId } from '../domain/ids.js';
import type { Principal } from '../domain/principal.js';
import { Org, Project, type IOrg, type IProject } from '../db/entities/index.js';
import { decryptString } from '../platform/crypto.js';
import type { AppConfig } from '../platform/config.js';
import { createApiKey } from './api-keys.js';
import { seedSampleFlow } from './flows.js';
import { actingProject } from './tenancy.js';
import { previousSecretsExpireAt, rotateWebhookSecret } from '../platform/webhook-secrets.js';

/** `POST /v1/signup`: a sandbox org, its project and the project's first key (no owner yet; see grant-owner). */
export async function signupSandbox(em: EntityManager, config: AppConfig, name?: string): Promise<{ project: IProject; org: IOrg; rawKey: string }> {
  if (config.mode === 'production') throw new AppError('signup_disabled_in_production', 'Self-serve signup is only available outside production.');
  return em.transactional(async (tx) => {
    const org = createOrg(tx, name ?? 'Sandbox org');
    const project = createProjectRow(tx, org.id, name ?? 'Sandbox project', true);
    await tx.flush();
    const { raw } = await createApiKey(tx, project, 'default');
    await seedSampleFlow(tx, project.id);
    return { project, org, rawKey: raw };
  });
}

export function createOrg(em: EntityManager, name: string): IOrg {
  const now = new Date();
  return em.create(Org, { id: newId('org'), name, createdAt: now, updatedAt: now });
}

/** A project row in an org; the caller flushes. */
export function createProjectRow(em: EntityManager, orgId: string, name: string, sandbox: boolean): IProject {
  const now = new Date();
  return em.create(Project, {
    id: newId('project'),
    orgId,
    name,
    sandbox,
    webhookUrl: null,
    webhookSecretEnc: null,
    webhookPreviousSecrets: null,
    webhookIncludeResult: false,
    branding: null,
    createdAt: now,
    updatedAt: now,
  });
}

/** A new project in an org with its first key and the sample Flow (dashboard "new project"). */
export async function createProjectInOrg(em: EntityManager, orgId: string, name: string, sandbox: boolean): Promise<{ project: IProject; rawKey: string }> {
  return em.transactional(async (tx) => {
    const project = createProjectRow(tx, orgId, name, sandbox);
    await tx.flush();
    const { raw } = await createApiKey(tx, project, 'default');
    await seedSampleFlow(tx, project.id);
    return { project, rawKey: raw };
  });
}

/** `GET /v1/me`: the principal's project. */
export async function describeProject(em: EntityManager, principal: Principal) {
  const p = await actingProject(em, principal);
  return { project_id: p.id, name: p.name, sandbox: p.sandbox, webhook_url: p.webhookUrl ?? null };
}

/**
 * Sets the URL; mints the signing secret on first set or on `regenerate` and returns it that once.
 * A regenerated secret's predecessor keeps signing for `secret_grace_seconds` (default from config).
 */
export async function setWebhook(
  em: EntityManager,
  config: AppConfig,
  project: IProject,
  input: { url: string; regenerate?: boolean; include_result?: boolean; secret_grace_seconds?: number },
): Promise<{ url: string; include_result: boolean; secret?: string; previous_secret_expires_at: string | null }> {
  assertWebhookUrlAllowed(config, project, input.url);
  let secret: string | undefined;
  if (!project.webhookSecretEnc || input.regenerate) {
    secret = rotateWebhookSecret(config, project, input.secret_grace_seconds ?? config.webhookSecretGraceSeconds);
  }
  project.webhookUrl = input.url;
  if (input.include_result !== undefined) project.webhookIncludeResult = input.include_result;
  project.updatedAt = new Date();
  await em.flush();
  return { url: input.url, include_result: project.webhookIncludeResult, ...(secret ? { secret } : {}), previous_secret_expires_at: previousSecretsExpireAt(project) };
}

export function webhookSecret(config: AppConfig, project: IProject): string | null {
  return project.webhookSecretEnc ? decryptString(config.secretsKey, project.webhookSecretEnc) : null;
}

/**
 * Production and live projects: https only, no credentials in the URL. Private, loopback and
 * link-local addresses are refused again at delivery time after DNS resolution (see
 * activities/webhook-delivery.ts). Sandbox projects outside production may use http://127.0.0.1.
 */
export function assertWebhookUrlAllowed(config: AppConfig, project: IProject, raw: string): void {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new AppError('webhook_url_not_allowed', 'The webhook URL is not a valid URL.', [{ field: 'url', code: 'invalid_url', message: 'not a URL' }]);
  }
  const strict = config.mode === 'production' || !project.sandbox;
  const fail = (code: string, message: string): never => {
    throw new AppError('webhook_url_not_allowed', message, [{ field: 'url', code, message }]);
  };
  if (url.username || url.password) fail('credentials_in_url', 'Credentials in the webhook URL are not allowed.');
  if (!['http:', 'https:'].includes(url.protocol)) fail('unsupported_scheme', 'Use an http(s) URL.');
  if (strict && url.protocol !== 'https:') fail('https_required', 'Webhook URLs must use https.');
}
