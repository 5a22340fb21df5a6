import type { EntityManager } from '@mikro-orm/postgresql';
import { newId } from '../domain/ids.js';
import { CaptureSession } from '../db/entities/index.js';
import { randomToken, sha256Hex } from '../platform/crypto.js';

/**
 * Two credentials reach the hosted page:
 * - a capture session token (`/o/{token}`): short-lived, the only client-side credential;
 * - a link code (`/l/{code}`, the `short_url`): lives as long as the Case's link and only mints
 *   fresh session tokens. Neither is stored raw: only sha256 hashes.
 */
export async function mintCaptureSession(em: EntityManager, caseId: string, ttlSeconds: number, capAt?: Date): Promise<{ token: string; expiresAt: Date }> {
  const token = randomToken(32);
  let expiresAt = new Date(Date.now() + ttlSeconds * 1000);
  if (capAt && capAt < expiresAt) expiresAt = capAt;
  em.create(CaptureSession, { id: newId('session'), verificationId: caseId, tokenHash: sha256Hex(token), expiresAt, createdAt: new Date() });
  await em.flush();
  return { token, expiresAt };
}

export function mintLinkCode(): { code: string; hash: string } {
  const code = randomToken(16);
  return { code, hash: sha256Hex(code) };
}

export const onboardingUrl = (base: string, token: string): string => `${base}/o/${token}`;
export const shortUrl = (base: string, code: string): string => `${base}/l/${code}`;
