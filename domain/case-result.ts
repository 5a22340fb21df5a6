import { z } from 'zod';
import { ZCheckStatus, ZModelStamp } from './checks.js';
import { ASSESSMENTS } from './policy.js';

/**
 * The full result of a Case (`verifications.result`, `GET /v1/verifications/{id}` once terminal,
 * the opted-in webhook `result`). PII: check evidence may hold what the document says.
 *
 * One shape for every way a Case completes; `basis` says which: `checks` (the checks ran and the
 * stamped policy decided) or `capture_expired` (nothing was submitted before the link expired:
 * no checks, `assessment_incomplete`). Readers switch on `basis`, never on which keys exist.
 */
export const ZStoredCheck = z
  .object({
    status: ZCheckStatus,
    reasons: z.array(z.string()),
    score: z.number().nullable(),
    component: z.string(),
    models: z.array(ZModelStamp),
    duration_ms: z.number(),
    evidence: z.record(z.string(), z.unknown()),
  })
  .meta({ id: 'CheckResult' });
export type TStoredCheck = z.infer<typeof ZStoredCheck>;

export const ZDecisionStamp = z.object({
  policy_revision: z.string(),
  engine_profile: z.string(),
  flow_version_ref: z.number().int().nullable(),
  capture_expired: z.boolean(),
});

const resultFields = {
  assessment: z.enum(ASSESSMENTS),
  confidence: z.number(),
  summary_reasons: z.array(z.string()),
  /** What the applicant declared at submission; null when nothing was submitted. */
  document: z.object({ country: z.string(), type: z.string() }).nullable(),
  checks: z.record(z.string(), ZStoredCheck),
  decision: ZDecisionStamp,
};

export const ZCaseResult = z
  .discriminatedUnion('basis', [
    z.object({ basis: z.literal('checks'), ...resultFields }),
    z.object({ basis: z.literal('capture_expired'), ...resultFields }),
  ])
  .meta({ id: 'CaseResult' });
export type TCaseResult = z.infer<typeof ZCaseResult>;

/** Customer review state of a Case (spec: Customer review state). Recorded from the dashboard. */
export const REVIEW_STATES = ['no_customer_concerns_recorded', 'customer_review_continues', 'customer_concern_recorded'] as const;
export const ZReview = z
  .object({ state: z.enum(REVIEW_STATES), at: z.string() })
  .meta({ id: 'Review' });
export type TReview = z.infer<typeof ZReview>;
export type TReviewState = (typeof REVIEW_STATES)[number];
