import { ActivityFailure, ApplicationFailure, condition, log, proxyActivities, setHandler } from '@temporalio/workflow';
import type { TCheckSummary } from '../domain/checks.js';
import { captureSubmittedSignal, caseStageQuery, type CaseWorkflowInput, type CaseWorkflowResult } from '../domain/workflow-messages.js';
import type { CaseActivities } from '../activities/index.js';

// Activities grouped by timeout and retry profile (STYLE §9). Every argument and result is an id,
// a timestamp or a PII-free code: this is what Temporal history records.

/** Short database writes: retried until they succeed (the database may be restarting). */
const db = proxyActivities<CaseActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '500 milliseconds', backoffCoefficient: 2, maximumInterval: '30 seconds' },
});

/**
 * CPU-heavy checks. They heartbeat, so a killed worker is noticed within the heartbeat timeout
 * and the check is retried on another worker instead of waiting out the whole start-to-close.
 */
const checks = proxyActivities<CaseActivities>({
  startToCloseTimeout: '5 minutes',
  heartbeatTimeout: '15 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumAttempts: 4, nonRetryableErrorTypes: ['case_inputs_missing'] },
});

/**
 * Webhook delivery makes its own bounded attempts (3 within about 7 s) and never throws for a
 * failing receiver; Temporal retries it only if the worker dies mid-delivery (duplicates are
 * allowed by the contract, loss is not).
 */
const hooks = proxyActivities<CaseActivities>({
  startToCloseTimeout: '20 seconds',
  retry: { initialInterval: '1 second', maximumAttempts: 5 },
});

/** One workflow per Case (`case-<id>`): wait for capture, run the checks, decide, persist, notify. */
export async function caseWorkflow(input: CaseWorkflowInput): Promise<CaseWorkflowResult> {
  let submitted = false;
  let stage = 'collecting';
  // Handlers are registered before the first await so an early signal is never lost.
  setHandler(captureSubmittedSignal, () => {
    submitted = true;
  });
  setHandler(caseStageQuery, () => stage);

  const waitMs = Math.max(1, Date.parse(input.linkExpiresAt) - Date.now());
  if (!(await condition(() => submitted, waitMs))) {
    stage = 'expired';
    const expired = await db.expireCase(input.caseId);
    // `failed` only when this build lacks the Case's policy revision (activities/stamps.ts); recorded
    // histories never took that branch, so replaying them issues the same commands.
    const failed = expired.status === 'failed';
    if (expired.changed) await hooks.deliverWebhook(input.caseId, failed ? 'verification.failed' : 'verification.completed');
    return { caseId: input.caseId, status: expired.status, assessment: 'assessment_incomplete', summaryReasons: [failed ? 'unknown_policy_revision' : 'capture_expired'] };
  }

  stage = 'processing';
  const started = await db.startProcessing(input.caseId);
  if (!started.ok) return { caseId: input.caseId, status: 'erased' };

  try {
    // Independent checks run in parallel; face match needs the document portrait and the best
    // liveness frame, which the first two store for it.
    const [documentChecks, authenticity, liveness] = await Promise.all([
      checks.runDocumentChecks(input.caseId),
      checks.runAuthenticityCheck(input.caseId),
      checks.runLivenessCheck(input.caseId),
    ]);
    const faceMatch = await checks.runFaceMatch(input.caseId);
    const recordMatch = await checks.runRecordMatch(input.caseId);
    const summaries: TCheckSummary[] = [...documentChecks, authenticity, liveness, faceMatch, recordMatch];
    stage = 'deciding';
    const decision = await db.finalizeCase(input.caseId, summaries);
    stage = decision.status;
    if (decision.status === 'completed') await hooks.deliverWebhook(input.caseId, 'verification.completed');
    return { caseId: input.caseId, status: decision.status, assessment: decision.assessment, summaryReasons: decision.summaryReasons };
  } catch (err) {
    // A check that keeps failing after its retries is a terminal engine error: `failed`, not a guess.
    const code = err instanceof ActivityFailure && err.cause instanceof ApplicationFailure && err.cause.type ? err.cause.type : 'engine_error';
    log.warn('case failed', { caseId: input.caseId, code });
    stage = 'failed';
    const failed = await db.failCase(input.caseId, code);
    if (failed.changed) await hooks.deliverWebhook(input.caseId, 'verification.failed');
    return { caseId: input.caseId, status: 'failed', assessment: 'assessment_incomplete', summaryReasons: [code] };
  }
}
