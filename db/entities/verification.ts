import { defineEntity, p, type InferEntity } from '@mikro-orm/postgresql';
import type { TErasureReceipt } from '../../domain/api-schemas.js';
import type { TCaseResult, TReview } from '../../domain/case-result.js';
import type { TDocumentType } from '../../domain/documents.js';
import type { TLivenessChallenge } from '../../domain/liveness.js';

/**
 * A Case: one verification run. Columns marked PII are erased by `DELETE /v1/verifications/{id}`;
 * the rest is the PII-free tombstone that remains.
 */
export const Verification = defineEntity({
  name: 'Verification',
  tableName: 'verifications',
  indexes: [{ properties: ['projectId', 'createdAt', 'id'] }, { properties: ['projectId', 'reference'] }],
  properties: {
    id: p.string().length(40).primary(),
    projectId: p.string().length(40),
    type: p.string().length(8),
    status: p.string().length(16).index(),
    /** Alpha-3 countries (normalised at creation) with their document types. */
    acceptedDocuments: p.json<{ country: string; types: TDocumentType[] }[]>(),
    /** PII: applicant data given at creation. */
    applicant: p.json<Record<string, unknown>>().nullable(),
    /** PII: the integrator's reference record for record match (intake). */
    claimed: p.json<Record<string, unknown>>().nullable(),
    /** PII: the verifiee's contact as given at intake (`{ email }`). */
    verifiee: p.json<{ email: string }>().nullable(),
    /** PII (may identify the person in the integrator's system). */
    reference: p.string().length(200).nullable(),
    locale: p.string().length(8).nullable(),
    /** PII (may carry the integrator's customer id): where the hosted page sends the applicant after submit. */
    returnUrl: p.string().length(2000).nullable(),
    engineProfile: p.string().length(40),
    policyRevision: p.string().length(40),
    flowId: p.string().length(40).nullable(),
    flowVersionRef: p.integer().nullable(),
    workflowId: p.string().length(64),
    linkCodeHash: p.string().length(64).unique(),
    linkExpiresAt: p.datetime(),
    /** Declared at submit: `{ country, type }` (not PII). */
    declaredDocument: p.json<{ country: string; type: TDocumentType }>().nullable(),
    /** The current liveness challenge issued to the hosted page (nonce, steps, colours; not PII). */
    livenessChallenge: p.json<TLivenessChallenge>().nullable(),
    submittedAt: p.datetime().nullable(),
    processingStartedAt: p.datetime().nullable(),
    assessment: p.string().length(32).nullable(),
    confidence: p.double().nullable(),
    summaryReasons: p.json<string[]>().nullable(),
    /** PII: the full result with per-check evidence. */
    result: p.json<TCaseResult>().nullable(),
    failureCode: p.string().length(64).nullable(),
    completedAt: p.datetime().nullable(),
    erasedAt: p.datetime().nullable(),
    erasureReceipt: p.json<TErasureReceipt>().nullable(),
    /** The customer review state (dashboard, Case Management). */
    review: p.json<TReview>().nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export type IVerification = InferEntity<typeof Verification>;
