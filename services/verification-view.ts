import type { EntityManager } from '@mikro-orm/postgresql';
import type { Principal } from '../domain/principal.js';
import type { IVerification } from '../db/entities/index.js';
import { findOwnCase } from './tenancy.js';

/** The integrator's view of a Case (`GET /v1/verifications/{id}` and list items). */
export function viewVerification(v: IVerification, opts: { includeResult: boolean }) {
  const terminal = v.status === 'completed' || v.status === 'failed';
  return {
    id: v.id,
    type: 'kyc' as const,
    status: v.status as 'collecting' | 'pending' | 'processing' | 'completed' | 'failed' | 'erased',
    ...(terminal || v.status === 'erased' ? (v.assessment ? { assessment: v.assessment as never } : {}) : {}),
    advisory: true as const,
    ...(v.confidence !== null && v.confidence !== undefined ? { confidence: Number(v.confidence) } : {}),
    ...(v.summaryReasons ? { summary_reasons: v.summaryReasons } : {}),
    ...(opts.includeResult && terminal && v.result ? { result: v.result } : {}),
    engine_profile: v.engineProfile,
    policy_revision: v.policyRevision,
    ...(v.flowId ? { flow_id: v.flowId } : {}),
    ...(v.flowVersionRef !== null && v.flowVersionRef !== undefined ? { flow_version_ref: v.flowVersionRef } : {}),
    ...(v.reference ? { reference: v.reference } : {}),
    ...(v.returnUrl ? { return_url: v.returnUrl } : {}),
    ...(v.review ? { customer_disposition: v.review.state, review: v.review } : {}),
    expires_at: v.linkExpiresAt.toISOString(),
    created_at: v.createdAt.toISOString(),
    updated_at: v.updatedAt.toISOString(),
  };
}

/** `GET /v1/verifications/{id}`: the principal's Case with its full result once complete. */
export async function getVerification(em: EntityManager, principal: Principal, caseId: string) {
  return viewVerification(await findOwnCase(em, principal, caseId), { includeResult: true });
}
