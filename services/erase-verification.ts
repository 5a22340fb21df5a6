import { LockMode, type EntityManager } from '@mikro-orm/postgresql';
import { WorkflowNotFoundError } from '@temporalio/client';
import type { TErasureReceipt } from '../domain/api-schemas.js';
import type { Principal } from '../domain/principal.js';
import { CaptureSession, CheckResult, Upload, Verification, type IVerification } from '../db/entities/index.js';
import type { ServiceDeps } from './deps.js';
import { eraseDispositionNotes } from './dispositions.js';
import { eraseIdempotencyKeys } from './idempotency.js';
import { findOwnCase } from './tenancy.js';

/** Columns of `verifications` that can hold PII; all are nulled on erasure. */
export const PII_COLUMNS = ['applicant', 'claimed', 'verifiee', 'reference', 'returnUrl', 'result'] as const;
/** The receipt names fields as the API does. */
const RECEIPT_NAME: Partial<Record<(typeof PII_COLUMNS)[number], string>> = { returnUrl: 'return_url' };

export type ErasureReceipt = TErasureReceipt;

/**
 * Erases a Case at any status: stops its workflow, deletes blobs, uploads, sessions and check
 * evidence, nulls the PII columns and keeps a PII-free tombstone (status, stamps, assessment,
 * reason codes, timestamps). Idempotent: a second call returns the stored receipt.
 * The row lock makes a concurrently finishing activity see `erased` and write nothing.
 */
export async function eraseVerification(deps: ServiceDeps, principal: Principal, caseId: string): Promise<ErasureReceipt> {
  return eraseCase(deps, await findOwnCase(deps.em, principal, caseId));
}

/** The erasure itself, for a Case the caller's guard already resolved (API key or dashboard member). */
export async function eraseCase(deps: ServiceDeps, v: IVerification): Promise<ErasureReceipt> {
  if (v.status === 'erased' && v.erasureReceipt) return v.erasureReceipt;

  // Stop the workflow first so no new activity starts while we erase.
  try {
    await deps.temporal.workflow.getHandle(v.workflowId).terminate('verification erased');
  } catch (err) {
    if (!(err instanceof WorkflowNotFoundError)) {
      // Already closed workflows answer "not found" for terminate; anything else must not block erasure.
      deps.log.warn({ caseId: v.id, err: (err as Error).name }, 'could not terminate workflow before erasure');
    }
  }

  return deps.em.transactional(async (tx: EntityManager) => {
    const row = await tx.findOneOrFail(Verification, { id: v.id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (row.status === 'erased' && row.erasureReceipt) return row.erasureReceipt;
    const fields: string[] = PII_COLUMNS.filter((c) => row[c] !== null && row[c] !== undefined).map((c) => RECEIPT_NAME[c] ?? c);
    const uploads = await tx.count(Upload, { verificationId: v.id });
    const checks = await tx.count(CheckResult, { verificationId: v.id });
    if (uploads) fields.push('uploads');
    if (checks) fields.push('check_evidence');
    const files = await deps.blobs.deleteCase(v.id);
    const now = new Date();
    // Reviewers' notes may name the person; the disposition trace (who, when, state) stays.
    if (await eraseDispositionNotes(tx, v.id, now)) fields.push('disposition_notes');
    // An idempotency key's request HMAC and sealed link code go; the key still refuses a second Case.
    if (await eraseIdempotencyKeys(tx, v.id)) fields.push('idempotency_key');
    await tx.nativeDelete(Upload, { verificationId: v.id });
    await tx.nativeDelete(CheckResult, { verificationId: v.id });
    // Capture sessions hold only token hashes: kept so old links answer 410 "no longer available".
    await tx.nativeUpdate(CaptureSession, { verificationId: v.id, expiresAt: { $gt: new Date() } }, { expiresAt: new Date() });
    const receipt: ErasureReceipt = { id: v.id, status: 'erased', erased_at: now.toISOString(), erased: { fields, files } };
    for (const c of PII_COLUMNS) row[c] = null;
    row.status = 'erased';
    row.erasedAt = now;
    row.erasureReceipt = receipt;
    row.updatedAt = now;
    await tx.flush();
    deps.log.info({ caseId: v.id, fields: fields.length, files }, 'verification erased');
    return receipt;
  });
}
