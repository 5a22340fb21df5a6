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
  await em.transactional(async (tx) => {
    const v = await tx.findOne(Verification, { id: caseId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!v || v.status === 'erased') return;
    await tx.nativeDelete(CheckResult, { verificationId: caseId, check: outcome.check });
    tx.create(CheckResult, {
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
  return summarize(outcome);
}
