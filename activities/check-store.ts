import { LockMode, type EntityManager } from '@mikro-orm/postgresql';
import { summarize, type TCheckOutcome, type TCheckSummary } from '../domain/checks.js';
import { newId } from '../domain/ids.js';
import { CheckResult, Verification } from '../db/entities/index.js';

/**
 * Stores a check's full outcome (evidence may hold PII) and returns the PII-free summary for the
 * workflow. Under the Case's row lock: an erased Case gets nothing written (erasure takes the
 * same lock), and a retried activity replaces its earlier row instead of adding a second one.
 */
export async function saveOutcome(em: EntityManager, caseId: string, outcome: TCheckOutcome): Promise<TCheckSummary> {
  return (await saveOutcomes(em, caseId, [outcome]))[0]!;
}

/**
 * Several outcomes of one activity (the document's `document_ocr` and `template_match`) in one
 * transaction under one row lock: one round of lock, delete and insert instead of one per check,
 * on the Case's critical path, and record match never sees one without the other.
 */
export async function saveOutcomes(em: EntityManager, caseId: string, outcomes: TCheckOutcome[]): Promise<TCheckSummary[]> {
  await em.transactional(async (tx) => {
    const v = await tx.findOne(Verification, { id: caseId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!v || v.status === 'erased') return;
    for (const outcome of outcomes) await tx.nativeDelete(CheckResult, { verificationId: caseId, check: outcome.check });
    for (const outcome of outcomes) tx.create(CheckResult, {
      id: newId('check'),
      verificationId: caseId,
      check: outcome.check,
      status: outcome.status,
      reasons: outcome.reasons,
      score: outcome.score,
      component: outcome.component,
      models: outcome.models,
      evidence: outcome.evidence,
      durationMs: Math.round(outcome.duration_ms),
      createdAt: new Date(),
    });
  });
  return outcomes.map((o) => summarize(o));
}
