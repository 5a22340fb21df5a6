import { decryptString, encryptString, randomToken } from './crypto.js';
import type { AppConfig } from './config.js';

/**
 * Webhook signing secrets with overlap. `regenerate` mints a new current secret and keeps the
 * replaced one signing beside it until `now + grace`, so a receiver can deploy the new secret
 * without rejecting deliveries in between. Earlier secrets still in their grace are capped at the
 * same deadline: a rotation with grace 0 (a leaked secret) ends every old secret at once.
 */
export function mintWebhookSecret(): string {
  return `whsec_${randomToken(32)}`;
}

type Previous = Array<{ secretEnc: string; expiresAt: string }>;

/** The project columns this module reads and writes (structural, so platform/ needs no ORM entity). */
interface SecretHolder {
  webhookSecretEnc?: string | null;
  webhookPreviousSecrets?: Previous | null;
}

/** Mutates the project: new current secret, replaced ones kept for the grace period. Returns the raw new secret. */
export function rotateWebhookSecret(config: AppConfig, project: SecretHolder, graceSeconds: number, now = new Date()): string {
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
export function signingSecrets(config: AppConfig, project: SecretHolder, now = new Date()): { current: string; previous: string[] } | null {
  if (!project.webhookSecretEnc) return null;
  const previous = (project.webhookPreviousSecrets ?? [])
    .filter((p) => Date.parse(p.expiresAt) > now.getTime())
    .map((p) => decryptString(config.secretsKey, p.secretEnc));
  return { current: decryptString(config.secretsKey, project.webhookSecretEnc), previous };
}

/** When the last replaced secret stops signing, or null when none is in its grace period. */
export function previousSecretsExpireAt(project: SecretHolder, now = new Date()): string | null {
  const live = (project.webhookPreviousSecrets ?? []).map((p) => Date.parse(p.expiresAt)).filter((t) => t > now.getTime());
  return live.length ? new Date(Math.max(...live)).toISOString() : null;
}
