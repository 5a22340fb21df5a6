import { LockMode, type EntityManager } from '@mikro-orm/postgresql';
import { WorkflowIdReusePolicy } from '@temporalio/client';
import type { TDisposition, TDispositionBody } from '../domain/api-schemas.js';
import type { TReviewState } from '../domain/case-result.js';
import { AppError } from '../domain/errors.js';
import { newId } from '../domain/ids.js';
import { can } from '../domain/permissions.js';
import { REVIEW_WORKFLOW_TYPE, reviewWorkflowId, type ReviewWorkflowInput } from '../domain/workflow-messages.js';
import { CaseDisposition, User, Verification, type ICaseDisposition } from '../db/entities/index.js';
import { caseAccess } from './access.js';
import { audit } from './audit.js';
import type { ServiceDeps } from './deps.js';

/** A disposition is the integrator's outcome on an assessed Case: there must be an outcome to review. */
const REVIEWABLE = new Set(['completed', 'failed']);

/**
 * Records a customer disposition (Case Management). Append-only: a new row in
 * `case_dispositions`; the Case's `review` column mirrors the latest one for reads. The assessment,
 * confidence, reasons and result are not touched. `verification.reviewed` is delivered by a
 * per-disposition workflow started inside the transaction: if Temporal refuses, nothing is
 * recorded (503); if the commit fails after the start, the workflow finds no row and sends nothing.
 */
export async function recordDisposition(deps: ServiceDeps, userId: string, caseId: string, body: TDispositionBody): Promise<TDisposition> {
  const { verification, principal } = await caseAccess(deps.em, userId, caseId, 'cases:review');
  if (!REVIEWABLE.has(verification.status)) {
    throw new AppError('conflict', verification.status === 'erased'
      ? 'This verification was erased; a disposition can no longer be recorded.'
      : `A disposition can be recorded once the verification is completed or failed (it is ${verification.status}).`);
  }
  const note = body.note?.trim() ? body.note.trim() : null;
  const created = await deps.em.transactional(async (tx: EntityManager) => {
    const row = await tx.findOneOrFail(Verification, { id: caseId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!REVIEWABLE.has(row.status)) throw new AppError('conflict', 'This verification can no longer be reviewed.');
    const now = new Date();
    const d = tx.create(CaseDisposition, {
      id: newId('disposition'),
      verificationId: row.id,
      projectId: row.projectId,
      actorUserId: userId,
      state: body.state,
      note,
      noteErasedAt: null,
      createdAt: now,
    });
    // Only the review mirror and updatedAt change on the Case row.
    row.review = { state: body.state, at: now.toISOString() };
    row.updatedAt = now;
    await audit(tx, principal, 'case.disposition_recorded', { projectId: row.projectId, targetId: row.id, meta: { state: body.state } });
    await tx.flush();
    const input: ReviewWorkflowInput = { caseId: row.id, dispositionId: d.id };
    try {
      await deps.temporal.workflow.start(REVIEW_WORKFLOW_TYPE, {
        workflowId: reviewWorkflowId(d.id),
        taskQueue: deps.config.temporal.taskQueue,
        args: [input],
        workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
      });
    } catch (err) {
      deps.log.error({ caseId: row.id, err: (err as Error).message }, 'review workflow start failed; disposition not recorded');
      throw new AppError('workflow_unavailable', 'The disposition could not be recorded right now; nothing was changed. Try again shortly.');
    }
    return d;
  });
  const email = (await deps.em.findOne(User, { id: userId }))?.email ?? null;
  return view(created, email);
}

/** The history, newest first, with each recorder's email joined at read time (members only). */
export async function listDispositions(em: EntityManager, userId: string, caseId: string): Promise<TDisposition[]> {
  const { principal } = await caseAccess(em, userId, caseId, 'cases:read');
  return dispositionsOf(em, caseId, { withNotes: can(principal.role, 'cases:read_pii') });
}

/** For pages that already passed the guard. Notes are PII-ish: only for `cases:read_pii`. */
export async function dispositionsOf(em: EntityManager, caseId: string, o: { withNotes: boolean }): Promise<TDisposition[]> {
  const rows = await em.find(CaseDisposition, { verificationId: caseId }, { orderBy: { createdAt: 'desc', id: 'desc' } });
  const ids = [...new Set(rows.map((r) => r.actorUserId))];
  const users = ids.length ? await em.find(User, { id: { $in: ids } }) : [];
  const email = new Map(users.map((u) => [u.id, u.email]));
  return rows.map((r) => view(r, email.get(r.actorUserId) ?? null, o.withNotes));
}

/** Erasure: notes go, the trace (who, when, state) stays. Returns how many notes were removed. */
export async function eraseDispositionNotes(tx: EntityManager, caseId: string, now: Date): Promise<number> {
  return tx.nativeUpdate(CaseDisposition, { verificationId: caseId, note: { $ne: null } }, { note: null, noteErasedAt: now });
}

function view(d: ICaseDisposition, email: string | null, withNote = true): TDisposition {
  return {
    id: d.id,
    verification_id: d.verificationId,
    state: d.state as TReviewState,
    note: withNote ? (d.note ?? null) : null,
    note_erased: d.noteErasedAt !== null && d.noteErasedAt !== undefined,
    recorded_by: { user_id: d.actorUserId, email },
    recorded_at: d.createdAt.toISOString(),
  };
}
