import { LockMode } from '@mikro-orm/postgresql';
import { ApplicationFailure } from '@temporalio/common';
import type { EntityManager } from '@mikro-orm/postgresql';
import { ZCaseResult, type TCaseResult } from '../domain/case-result.js';
import type { TCheckSummary } from '../domain/checks.js';
import { decide, POLICY_REVISIONS } from '../domain/policy.js';
import { CheckResult, Verification } from '../db/entities/index.js';
import type { ActivityDeps } from './deps.js';
import { assertKnownPolicyRevision } from './stamps.js';

type Status = 'completed' | 'failed' | 'erased';

/** How long after its workflow started a Case row may still commit (a create holds one transaction for milliseconds). */
export const CASE_ROW_GRACE_MS = 30_000;

/** Status transitions of a Case, each idempotent under activity retries and guarded by the row lock. */
export function createLifecycleActivities(deps: ActivityDeps) {
  const tx = <T>(fn: (em: EntityManager) => Promise<T>): Promise<T> => deps.orm.em.fork().transactional(fn as never) as Promise<T>;
  const lock = (em: EntityManager, id: string) => em.findOne(Verification, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });

  return {
    /**
     * Whether the Case row of a just-started workflow committed. The workflow can run before the
     * api's commit, so a missing row is waited for; only after CASE_ROW_GRACE_MS since the
     * workflow started (far beyond any create transaction) is it taken as never committed.
     */
    async confirmCaseRow(caseId: string, workflowStartedAt: string): Promise<{ exists: boolean }> {
      const pollUntil = Date.now() + 20_000;
      for (;;) {
        const v = await deps.orm.em.fork().findOne(Verification, { id: caseId }, { fields: ['id'] });
        if (v) return { exists: true };
        if (Date.now() - Date.parse(workflowStartedAt) > CASE_ROW_GRACE_MS) {
          deps.log.warn({ caseId }, 'case row never committed; its workflow ends');
          return { exists: false };
        }
        if (Date.now() > pollUntil) throw ApplicationFailure.retryable('case row not committed yet', 'case_row_pending');
        await new Promise((r) => setTimeout(r, 200));
      }
    },

    /** pending → processing. `ok: false` when the Case is gone (erased). */
    async startProcessing(caseId: string): Promise<{ ok: boolean }> {
      return tx(async (em) => {
        const v = await lock(em, caseId);
        if (!v || v.status === 'erased') return { ok: false };
        if (v.status === 'pending') {
          v.status = 'processing';
          v.processingStartedAt = new Date();
          v.updatedAt = new Date();
        }
        return { ok: true };
      });
    },

    /** No submission before the link expired: completed / assessment_incomplete / capture_expired. */
    async expireCase(caseId: string): Promise<{ changed: boolean; status: Status }> {
      return tx(async (em) => {
        const v = await lock(em, caseId);
        if (!v || v.status === 'erased') return { changed: false, status: 'erased' as const };
        if (v.status !== 'collecting') return { changed: false, status: v.status as Status };
        const now = new Date();
        if (!POLICY_REVISIONS[v.policyRevision]) {
          // No decision under a revision this build does not have: the Case fails and says why.
          Object.assign(v, { status: 'failed', assessment: 'assessment_incomplete', confidence: 0, summaryReasons: ['unknown_policy_revision'], failureCode: 'unknown_policy_revision', completedAt: now, updatedAt: now });
          deps.log.error({ caseId, policyRevision: v.policyRevision }, 'case failed: unknown policy revision');
          return { changed: true, status: 'failed' as const };
        }
        const d = decide(v.policyRevision, [], { captureExpired: true });
        const result: TCaseResult = {
          basis: 'capture_expired',
          assessment: d.assessment,
          confidence: d.confidence,
          summary_reasons: d.summary_reasons,
          document: null,
          checks: {},
          decision: { policy_revision: v.policyRevision, engine_profile: v.engineProfile, flow_version_ref: v.flowVersionRef ?? null, capture_expired: true },
        };
        Object.assign(v, { status: 'completed', assessment: d.assessment, confidence: d.confidence, summaryReasons: d.summary_reasons, result: ZCaseResult.parse(result), completedAt: now, updatedAt: now });
        deps.log.info({ caseId, event: 'capture_expired' }, 'case expired without submission');
        return { changed: true, status: 'completed' as const };
      });
    },

    /** Decides with the Case's stamped policy revision and stores assessment and full result. */
    async finalizeCase(caseId: string, summaries: TCheckSummary[]): Promise<{ status: Status; assessment?: string; summaryReasons?: string[] }> {
      return tx(async (em) => {
        const v = await lock(em, caseId);
        if (!v || v.status === 'erased') return { status: 'erased' as const };
        if (v.status === 'completed') return { status: 'completed' as const, assessment: v.assessment ?? undefined, summaryReasons: v.summaryReasons ?? [] };
        assertKnownPolicyRevision(v.policyRevision);
        const d = decide(v.policyRevision, summaries);
        const rows = await em.find(CheckResult, { verificationId: caseId });
        const checks = Object.fromEntries(
          rows.map((r) => [r.check, { status: r.status, reasons: r.reasons, score: r.score === null ? null : Number(r.score), component: r.component, models: r.models, duration_ms: r.durationMs, evidence: r.evidence }]),
        );
        const now = new Date();
        // Parsed, not cast: the stored result is exactly the contract's CaseResult (domain/case-result.ts).
        const result = ZCaseResult.parse({
          basis: 'checks',
          assessment: d.assessment,
          confidence: d.confidence,
          summary_reasons: d.summary_reasons,
          document: v.declaredDocument ?? null,
          checks,
          decision: { policy_revision: v.policyRevision, engine_profile: v.engineProfile, flow_version_ref: v.flowVersionRef ?? null, capture_expired: false },
        });
        Object.assign(v, {
          status: 'completed',
          assessment: d.assessment,
          confidence: d.confidence,
          summaryReasons: d.summary_reasons,
          result,
          completedAt: now,
          updatedAt: now,
        });
        deps.log.info({ caseId, assessment: d.assessment, reasons: d.summary_reasons }, 'case completed');
        return { status: 'completed' as const, assessment: d.assessment, summaryReasons: d.summary_reasons };
      });
    },

    /** Terminal engine error → failed (assessment_incomplete, the error code as the reason). */
    async failCase(caseId: string, code: string): Promise<{ changed: boolean }> {
      const safeCode = /^[a-z][a-z0-9_]{2,63}$/.test(code) ? code : 'engine_error';
      return tx(async (em) => {
        const v = await lock(em, caseId);
        if (!v || v.status === 'erased' || v.status === 'completed' || v.status === 'failed') return { changed: false };
        const now = new Date();
        Object.assign(v, { status: 'failed', assessment: 'assessment_incomplete', confidence: 0, summaryReasons: [safeCode], failureCode: safeCode, completedAt: now, updatedAt: now });
        deps.log.warn({ caseId, code: safeCode }, 'case failed');
        return { changed: true };
      });
    },
  };
}
