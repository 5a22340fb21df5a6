import type { IProject } from '../db/entities/index.js';
import { decryptString, encryptString, randomToken } from '../platform/crypto.js';
import type { AppConfig } from '../platform/config.js';

/**
 * Webhook signing secrets with overlap. `regenerate` mints a new current secret and keeps the
 * replaced one signing beside it until `now + grace`, so a receiver can deploy the new secret
 * without rejecting deliveries in between. Earlier secrets still in their grace are capped at the
 * same deadline: a rotation with grace 0 (a leaked secret) ends every old secret at once.
 */
export function mintWebhookSecret(): string {
  return `whsec_${randomToken(32)}`;
}

type Previous = NonNullable<IProject['webhookPreviousSecrets']>;

/** Mutates the project: new current secret, replaced ones kept for the grace period. Returns the raw new secret. */
export function rotateWebhookSecret(config: AppConfig, project: IProject, graceSeconds: number, now = new Date()): string {
  const deadline = now.getTime() + graceSeconds * 1000;
  const kept: Previous = [];
  if (project.webhookSecretEnc && graceSeconds > 0) kept.push({ secretEnc: project.webhookSecretEnc, expiresAt: new Date(deadline).toISOString() });
  for (const prev of project.webhookPreviousSecrets ?? []) {
    const expires = Math.min(Date.parse(prev.expiresAt), deadline);
    if (expires > now.getTime()) kept.push({ secretEnc: prev.secretEnc, expiresAt: new Date(expires).toISOString() });
  }
  const secret = mintWebhookSecret();
  project.webhookSecretEnc = encryptString(config.secretsKey, secret);
  project.webhookPreviousSecrets = kept.length ? kept : null;
  return secret;
}

/** The secrets that sign a delivery now: the current one first, then those still in their grace period. */
export function signingSecrets(config: AppConfig, project: IProject, now = new Date()): { current: string; previous: string[] } | null {
  if (!project.webhookSecretEnc) return null;
  const previous = (project.webhookPreviousSecrets ?? [])
    .filter((p) => Date.parse(p.expiresAt) > now.getTime())
    .map((p) => decryptString(config.secretsKey, p.secretEnc));
  return { current: decryptString(config.secretsKey, project.webhookSecretEnc), previous };
}

/** When the last replaced secret stops signing, or null when none is in its grace period. */
export function previousSecretsExpireAt(project: IProject, now = new Date()): string | null {
  const live = (project.webhookPreviousSecrets ?? []).map((p) => Date.parse(p.expiresAt)).filter((t) => t > now.getTime());
  return live.length ? new Date(Math.max(...live)).toISOString() : null;
}
