import { z } from 'zod';

/**
 * The contract every check plugs into.
 *
 * A check activity reads its PII inputs from PostgreSQL and the blob store, runs an engine,
 * stores the full evidence (which may hold PII) in the database, and returns only a
 * `CheckSummary` to the workflow. Summaries enter Temporal history, so they must stay
 * PII-free: a status, reason codes, a score and the engine component that produced them.
 */

export const CHECK_NAMES = [
  'document_ocr',
  'template_match',
  'authenticity',
  'liveness',
  'face_match',
  'record_match',
] as const;
export const ZCheckName = z.enum(CHECK_NAMES);
export type TCheckName = z.infer<typeof ZCheckName>;

/**
 * - `passed`: the check ran and found nothing of concern.
 * - `review`: the check ran and found something a human should look at (soft signal).
 * - `failed`: the check ran and found a material inconsistency (hard signal).
 * - `unavailable`: the check could not run (not built, model missing, input unreadable by design
 *   of this release). Never a pass: the decision policy turns it into `assessment_incomplete`.
 * - `not_applicable`: the Case does not ask for this check (e.g. record match without a claimed record).
 */
export const CHECK_STATUSES = ['passed', 'review', 'failed', 'unavailable', 'not_applicable'] as const;
export const ZCheckStatus = z.enum(CHECK_STATUSES);
export type TCheckStatus = z.infer<typeof ZCheckStatus>;

/** Reason codes are short, PII-free, snake_case tokens. */
export const ZReasonCode = z.string().regex(/^[a-z][a-z0-9_]{2,63}$/);

export const ZModelStamp = z.object({ name: z.string(), sha256: z.string().regex(/^[0-9a-f]{64}$/) });
export type TModelStamp = z.infer<typeof ZModelStamp>;

/** PII-free: this is what a check activity returns through Temporal. */
export const ZCheckSummary = z.object({
  check: ZCheckName,
  status: ZCheckStatus,
  reasons: z.array(ZReasonCode),
  /** Check-specific score in 0..1 where defined (confidence for reads, risk for authenticity), else null. */
  score: z.number().min(0).max(1).nullable(),
  /** Which engine component and version produced it, e.g. `document-engine@1`. */
  component: z.string(),
});
export type TCheckSummary = z.infer<typeof ZCheckSummary>;

/** Full outcome, stored in the database only (evidence may contain PII). */
export const ZCheckOutcome = ZCheckSummary.extend({
  models: z.array(ZModelStamp).default([]),
  evidence: z.record(z.string(), z.unknown()),
  duration_ms: z.number().nonnegative(),
});
export type TCheckOutcome = z.infer<typeof ZCheckOutcome>;

export function summarize(outcome: TCheckOutcome): TCheckSummary {
  return {
    check: outcome.check,
    status: outcome.status,
    reasons: outcome.reasons,
    score: outcome.score,
    component: outcome.component,
  };
}

/** The honest answer of a check that cannot run: never a pass. */
export function unavailableOutcome(check: TCheckName, component: string, reason: string, detail?: string): TCheckOutcome {
  return {
    check,
    status: 'unavailable',
    reasons: [reason],
    score: null,
    component,
    models: [],
    evidence: detail ? { detail } : {},
    duration_ms: 0,
  };
}
