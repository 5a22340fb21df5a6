import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError } from '../domain/errors.js';
import { IdempotencyKey, Verification } from '../db/entities/index.js';
import { decryptString, encryptString, hmacSha256Hex, safeEqual } from '../platform/crypto.js';
import { mintCaptureSession, onboardingUrl, shortUrl } from './case-links.js';
import type { ServiceDeps } from './deps.js';

/** How long a key answers with its Case: a day covers any client's retry policy (Stripe keeps 24 h too). */
export const IDEMPOTENCY_WINDOW_MS = 24 * 3600_000;

/** A create's key as stored: HMACs of the key and of the request, never either itself. */
export interface IdempotencyClaim {
  keyHash: string;
  /** `verifications`, or `intake:<slug>`: one key is one create on one route. */
  scope: string;
  requestHash: string;
}

/** JSON with object keys sorted at every depth: two requests that differ only in key order are the same request. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** The claim for a create, or null when the request carries no key. `body` is the validated body. */
export function idempotencyClaim(secretsKey: Buffer, key: string | undefined, scope: string, body: unknown): IdempotencyClaim | null {
  if (key === undefined) return null;
  return { keyHash: hmacSha256Hex(secretsKey, `key\0${key}`), scope, requestHash: hmacSha256Hex(secretsKey, `request\0${scope}\0${canonicalJson(body)}`) };
}

/**
 * Claims the key inside the create's transaction, before the workflow starts. The insert waits on
 * a concurrent create holding the same key until that one commits or rolls back, so exactly one
 * create makes a Case: true here means "this create owns the key, go on"; false means an
 * unexpired claim exists and the caller answers with `replayCreate`. An expired claim is taken over.
 */
export async function claimIdempotencyKey(tx: EntityManager, secretsKey: Buffer, projectId: string, claim: IdempotencyClaim, caseId: string, linkCode: string, now: Date): Promise<boolean> {
  const rows = await tx.execute<{ key_hash: string }[]>(
    `insert into idempotency_keys (project_id, key_hash, scope, request_hash, verification_id, link_code_enc, created_at, expires_at)
     values (?, ?, ?, ?, ?, ?, ?, ?)
     on conflict (project_id, key_hash) do update set scope = excluded.scope, request_hash = excluded.request_hash,
       verification_id = excluded.verification_id, link_code_enc = excluded.link_code_enc, created_at = excluded.created_at, expires_at = excluded.expires_at
     where idempotency_keys.expires_at <= excluded.created_at
     returning key_hash`,
    [projectId, claim.keyHash, claim.scope, claim.requestHash, caseId, encryptString(secretsKey, linkCode), now, new Date(now.getTime() + IDEMPOTENCY_WINDOW_MS)],
    'all',
  );
  return rows.length === 1;
}

export interface ReplayedCase {
  id: string;
  onboardingUrl: string;
  shortUrl: string;
  expiresAt: Date;
  createdAt: Date;
  flowVersionRef: number | null;
}

/**
 * The answer to a key already claimed: the same Case, with its same `short_url` and a fresh
 * capture session (the first answer's session may have lapsed; both stay valid). A different
 * request under the key is refused, as is a Case that no longer collects (submitted, finished,
 * expired, erased): its links would be dead, so the problem names the Case to poll instead.
 */
export async function replayCreate(deps: ServiceDeps, projectId: string, claim: IdempotencyClaim): Promise<ReplayedCase> {
  const em = deps.em.fork();
  const row = await em.findOne(IdempotencyKey, { projectId, keyHash: claim.keyHash });
  // The claim that refused this create was committed and unexpired a moment ago; only the prune
  // of a key expiring in between removes it, and a retry then creates.
  if (!row) throw new AppError('conflict', 'The Idempotency-Key was released while this request ran; send it again.');
  const field = [{ field: 'Idempotency-Key', code: 'idempotency_key_reused', message: 'already used with a different request' }];
  const requestHash = row.requestHash ?? null;
  const linkCodeEnc = row.linkCodeEnc ?? null;
  const v = await em.findOneOrFail(Verification, { id: row.verificationId, projectId });
  const now = new Date();
  // Erasure nulled the request HMAC: nothing is left to compare, and the Case is no longer collecting.
  if (requestHash !== null && !(row.scope === claim.scope && safeEqual(requestHash, claim.requestHash))) {
    throw new AppError('idempotency_key_reused', 'This Idempotency-Key was already used with a different request in the last 24 hours; use a new key for a new verification.', field);
  }
  if (v.status !== 'collecting' || v.linkExpiresAt <= now || linkCodeEnc === null) {
    throw new AppError('idempotent_case_not_collecting', `This Idempotency-Key already made verification ${v.id}, which is no longer collecting (${v.status}); poll GET /v1/verifications/${v.id}.`, [], { verification_id: v.id });
  }
  const session = await mintCaptureSession(em, v.id, deps.config.sessionTokenTtlSeconds, v.linkExpiresAt);
  return {
    id: v.id,
    onboardingUrl: onboardingUrl(deps.config.publicBaseUrl, session.token),
    shortUrl: shortUrl(deps.config.publicBaseUrl, decryptString(deps.config.secretsKey, linkCodeEnc)),
    expiresAt: v.linkExpiresAt,
    createdAt: v.createdAt,
    flowVersionRef: v.flowVersionRef ?? null,
  };
}

/** Erasure: the key keeps refusing a second Case, but nothing derived from the request or the link stays. */
export async function eraseIdempotencyKeys(tx: EntityManager, caseId: string): Promise<number> {
  return tx.nativeUpdate(IdempotencyKey, { verificationId: caseId }, { requestHash: null, linkCodeEnc: null });
}

/** Keys past their window, deleted now and then by each api process (the statement is idempotent). */
export const PRUNE_IDEMPOTENCY_SQL = `delete from idempotency_keys where expires_at < clock_timestamp()`;
