import { WorkflowIdReusePolicy } from '@temporalio/client';
import type { TCreateVerificationBody } from '../domain/api-schemas.js';
import { normalizeCountry, type TAcceptedDocument } from '../domain/documents.js';
import { CURRENT_ENGINE_PROFILE } from '../domain/engine-profile.js';
import { AppError, type FieldError } from '../domain/errors.js';
import { newId } from '../domain/ids.js';
import type { Principal } from '../domain/principal.js';
import { CURRENT_POLICY_REVISION } from '../domain/policy.js';
import { CASE_WORKFLOW_TYPE, caseWorkflowId, type CaseWorkflowInput } from '../domain/workflow-messages.js';
import { Verification, type IProject } from '../db/entities/index.js';
import { caseSearchAttributes } from './search-attributes.js';
import { claimIdempotencyKey, idempotencyClaim, replayCreate, type IdempotencyClaim } from './idempotency.js';
import { mintCaptureSession, mintLinkCode, onboardingUrl, shortUrl } from './case-links.js';
import type { ServiceDeps } from './deps.js';
import { actingProject } from './tenancy.js';

/** Accepted documents with every country normalised to alpha-3; wildcards and unknown codes are named per field. */
export function normalizeAcceptedDocuments(docs: TAcceptedDocument[], fieldPrefix = 'accepted_documents'): TAcceptedDocument[] {
  const errors: FieldError[] = [];
  const out = docs.map((d, i) => {
    const c = normalizeCountry(d.country);
    if (!c.ok) {
      errors.push({ field: `${fieldPrefix}.${i}.country`, code: c.code, message: c.code === 'wildcard_country_not_allowed' ? 'Give explicit ISO 3166-1 country codes; wildcards are not accepted.' : `Unknown country code.` });
      return d;
    }
    return { country: c.alpha3, types: [...new Set(d.types)] };
  });
  if (errors.length) {
    const wildcard = errors.some((e) => e.code === 'wildcard_country_not_allowed');
    throw new AppError(wildcard ? 'wildcard_country_not_allowed' : 'unknown_country', wildcard ? 'Wildcard countries are not accepted; list explicit country codes.' : 'Unknown country code.', errors);
  }
  return out;
}

export interface NewCaseInput {
  acceptedDocuments: TAcceptedDocument[];
  applicant: Record<string, unknown> | null;
  claimed: Record<string, unknown> | null;
  verifiee?: { email: string } | null;
  reference: string | null;
  locale: string | null;
  returnUrl?: string | null;
  linkExpiresInSeconds: number;
  flow?: { id: string; versionRef: number };
}

export interface CreatedCase {
  id: string;
  onboardingUrl: string;
  shortUrl: string;
  expiresAt: Date;
  createdAt: Date;
  /** True when an `Idempotency-Key` answered a Case an earlier create made. */
  replayed: boolean;
  /** The Flow version the Case runs (a replay answers the Case's own, not the Flow's newest). */
  flowVersionRef: number | null;
}

/**
 * Inserts the Case and starts its workflow inside one database transaction: if the workflow
 * cannot be started the insert rolls back. If the commit fails after the start (PostgreSQL or this
 * process dies in between), the workflow finds no row and ends itself (`confirmCaseRow`,
 * workflows/case-workflow.ts): it is not terminated from here, because a commit that failed on
 * this side may still have committed on the server, and terminating would strand that Case.
 */
export async function createCase(deps: ServiceDeps, project: IProject, input: NewCaseInput, idempotency: IdempotencyClaim | null = null): Promise<CreatedCase> {
  const id = newId('verification');
  const now = new Date();
  const expiresAt = new Date(now.getTime() + input.linkExpiresInSeconds * 1000);
  const link = mintLinkCode();
  const workflowId = caseWorkflowId(id);
  const token = await deps.em.transactional(async (tx) => {
    // First, so a concurrent create with the same key waits here and then replays this Case.
    if (idempotency && !(await claimIdempotencyKey(tx, deps.config.secretsKey, project.id, idempotency, id, link.code, now))) return null;
    tx.create(Verification, {
      id,
      projectId: project.id,
      type: 'kyc',
      status: 'collecting',
      acceptedDocuments: input.acceptedDocuments,
      applicant: input.applicant,
      claimed: input.claimed,
      verifiee: input.verifiee ?? null,
      reference: input.reference,
      locale: input.locale,
      returnUrl: input.returnUrl ?? null,
      engineProfile: CURRENT_ENGINE_PROFILE,
      policyRevision: CURRENT_POLICY_REVISION,
      flowId: input.flow?.id ?? null,
      flowVersionRef: input.flow?.versionRef ?? null,
      workflowId,
      linkCodeHash: link.hash,
      linkExpiresAt: expiresAt,
      declaredDocument: null,
      submittedAt: null,
      processingStartedAt: null,
      assessment: null,
      confidence: null,
      summaryReasons: null,
      result: null,
      failureCode: null,
      completedAt: null,
      erasedAt: null,
      erasureReceipt: null,
      review: null,
      createdAt: now,
      updatedAt: now,
    });
    const session = await mintCaptureSession(tx, id, deps.config.sessionTokenTtlSeconds, expiresAt);
    const workflowInput: CaseWorkflowInput = { caseId: id, linkExpiresAt: expiresAt.toISOString() };
    try {
      await deps.temporal.workflow.start(CASE_WORKFLOW_TYPE, {
        workflowId,
        taskQueue: deps.config.temporal.taskQueue,
        args: [workflowInput],
        workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
        typedSearchAttributes: caseSearchAttributes({ projectId: project.id, engineProfile: CURRENT_ENGINE_PROFILE, policyRevision: CURRENT_POLICY_REVISION, flow: input.flow }),
      });
    } catch (err) {
      deps.log.error({ caseId: id, err: (err as Error).message }, 'workflow start failed; case not created');
      throw new AppError('workflow_unavailable', 'The verification could not be started; nothing was created. Try again shortly.');
    }
    return session.token;
  });
  if (token === null) return { ...(await replayCreate(deps, project.id, idempotency!)), replayed: true };
  return { id, onboardingUrl: onboardingUrl(deps.config.publicBaseUrl, token), shortUrl: shortUrl(deps.config.publicBaseUrl, link.code), expiresAt, createdAt: now, replayed: false, flowVersionRef: input.flow?.versionRef ?? null };
}

export async function createVerification(deps: ServiceDeps, principal: Principal, body: TCreateVerificationBody, idempotencyKey?: string): Promise<CreatedCase> {
  const type = body.type.trim().toLowerCase();
  if (type === 'kyb') throw new AppError('kyb_not_available', 'KYB verifications are not available in this release; use type "kyc".', [{ field: 'type', code: 'kyb_not_available', message: 'KYB is not in this release' }]);
  if (type !== 'kyc') throw new AppError('validation_failed', 'Unknown verification type.', [{ field: 'type', code: 'invalid_enum_value', message: 'expected "kyc"' }]);
  const acceptedDocuments = normalizeAcceptedDocuments(body.accepted_documents);
  return createCase(deps, await actingProject(deps.em, principal), {
    acceptedDocuments,
    applicant: body.applicant && Object.keys(body.applicant).length ? { ...body.applicant } : null,
    claimed: null,
    reference: body.reference ?? null,
    locale: body.locale ?? null,
    returnUrl: body.return_url ?? null,
    linkExpiresInSeconds: body.link_expires_in ?? deps.config.linkTtlSeconds,
  }, idempotencyClaim(deps.config.secretsKey, idempotencyKey, 'verifications', body));
}
