import { ActivityFailure, ApplicationFailure, condition, log, patched, proxyActivities, proxyLocalActivities, setHandler, sleep, workflowInfo } from '@temporalio/workflow';
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
 * The same short database steps as local activities (`patched('local-db-steps')`, issue 18 item 2):
 * the worker that runs the workflow task runs them at once and records each as a marker, instead of
 * a task scheduled on the queue, dispatched, started and completed, and a further workflow task to
 * go on. Per Case that is 3–4 activity tasks and 3 workflow tasks fewer, each a write of the
 * workflow's state (a PostgreSQL transaction on PostgreSQL-backed Temporal) and RPCs between the
 * worker and the server's services. Same retry policy: retried until they succeed. Each step is a
 * few milliseconds and idempotent under the row lock, which local activities need (a worker that
 * dies mid-step runs it again from the last workflow task).
 */
const localDb = proxyLocalActivities<CaseActivities>({
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

/** Record match (a comparison of stored fields, milliseconds) as a local activity, with the checks' retry policy. */
const localChecks = proxyLocalActivities<CaseActivities>({
  startToCloseTimeout: '5 minutes',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumAttempts: 4, nonRetryableErrorTypes: ['case_inputs_missing'] },
});

/**
 * Webhook delivery makes its own bounded attempts (3 within about 7 s) and never throws for a
 * failing receiver; Temporal retries it only if the worker dies mid-delivery or the database
 * cannot be reached (duplicates are allowed by the contract, loss is not), so without a limit on
 * attempts: the former 5 attempts lasted 15 s, less than a PostgreSQL restart under load (17.6 s
 * in `npm run chaos -- --scenario postgres`), after which the workflow of a completed Case would
 * have taken its failure path and the event would have been lost.
 */
const hooks = proxyActivities<CaseActivities>({
  startToCloseTimeout: '20 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds' },
});

/**
 * When every attempt of a delivery failed (the receiver is down, not merely slow), the event is
 * delivered again later, each time as a new delivery of the same profile (3 attempts within about
 * 7 s): a receiver that is down for minutes still gets every event once it is back (issue 18,
 * chaos; docs/decisions.md "Chaos"). The Case itself is terminal already; only this workflow stays
 * open, on a timer. About 1 h 50 min in all, then the failure is logged and left (polling remains
 * the fallback). WEBHOOK_REDELIVERY=off (the activity reports it) keeps to the single delivery.
 */
export const WEBHOOK_REDELIVERY_DELAYS = ['30 seconds', '1 minute', '2 minutes', '5 minutes', '10 minutes', '30 minutes', '1 hour'] as const;

async function notify(caseId: string, event: 'verification.completed' | 'verification.failed'): Promise<void> {
  const first = await hooks.deliverWebhook(caseId, event);
  // Histories recorded before redelivery existed replay without it (no marker: patched is false).
  if (first.delivered || first.attempts === 0 || !first.redeliver || !patched('webhook-redelivery')) return;
  for (const delay of WEBHOOK_REDELIVERY_DELAYS) {
    await sleep(delay);
    const again = await hooks.deliverWebhook(caseId, event);
    if (again.delivered || again.attempts === 0 || !again.redeliver) return;
  }
  log.warn('webhook not delivered after every redelivery; the integrator can poll', { caseId, event });
}

/** One workflow per Case (`case-<id>`): wait for capture, run the checks, decide, persist, notify. */
export async function caseWorkflow(input: CaseWorkflowInput): Promise<CaseWorkflowResult> {
  let submitted = false;
  let stage = 'collecting';
  // Handlers are registered before the first await so an early signal is never lost.
  setHandler(captureSubmittedSignal, () => {
    submitted = true;
  });
  setHandler(caseStageQuery, () => stage);

  // Runs started before local activities keep scheduling the database steps as activity tasks:
  // decided once, in the first workflow task, so a run never changes shape halfway.
  const local = patched('local-db-steps');
  const lifecycle = local ? localDb : db;

  // The api starts this workflow inside the transaction that inserts the Case, then commits. If the
  // api or PostgreSQL dies in between, the row never commits and nothing is left to terminate this
  // run: it ends itself instead of waiting out the link for days (found by `npm run chaos`).
  // Histories recorded before this step replay without it.
  if (patched('confirm-case-row')) {
    const row = await lifecycle.confirmCaseRow(input.caseId, workflowInfo().runStartTime.toISOString());
    if (!row.exists) {
      stage = 'not_created';
      return { caseId: input.caseId, status: 'not_created' };
    }
  }

  const waitMs = Math.max(1, Date.parse(input.linkExpiresAt) - Date.now());
  if (!(await condition(() => submitted, waitMs))) {
    stage = 'expired';
    const expired = await lifecycle.expireCase(input.caseId);
    // `failed` only when this build lacks the Case's policy revision (activities/stamps.ts); recorded
    // histories never took that branch, so replaying them issues the same commands.
    const failed = expired.status === 'failed';
    if (expired.changed) await notify(input.caseId, failed ? 'verification.failed' : 'verification.completed');
    return { caseId: input.caseId, status: expired.status, assessment: 'assessment_incomplete', summaryReasons: [failed ? 'unknown_policy_revision' : 'capture_expired'] };
  }

  stage = 'processing';
  const started = await lifecycle.startProcessing(input.caseId);
  if (!started.ok) return { caseId: input.caseId, status: 'erased' };

  try {
    let documentChecks: TCheckSummary[], authenticity: TCheckSummary, liveness: TCheckSummary, faceMatch: TCheckSummary, recordMatch: TCheckSummary;
    if (patched('checks-as-inputs-arrive')) {
      // Each check starts as soon as what it reads is stored: face match once the document
      // portrait and the best liveness frame are (not after authenticity too), record match once
      // the document's extracted data is. Every promise is awaited by the one Promise.all, so a
      // failing check fails the Case as before and no rejection goes unhandled.
      const document = checks.runDocumentChecks(input.caseId);
      const live = checks.runLivenessCheck(input.caseId);
      [documentChecks, authenticity, liveness, faceMatch, recordMatch] = await Promise.all([
        document,
        checks.runAuthenticityCheck(input.caseId),
        live,
        Promise.all([document, live]).then(() => checks.runFaceMatch(input.caseId)),
        document.then(() => (local ? localChecks : checks).runRecordMatch(input.caseId)),
      ]);
    } else {
      // Histories recorded before: the three independent checks, then face match, then record match.
      [documentChecks, authenticity, liveness] = await Promise.all([
        checks.runDocumentChecks(input.caseId),
        checks.runAuthenticityCheck(input.caseId),
        checks.runLivenessCheck(input.caseId),
      ]);
      faceMatch = await checks.runFaceMatch(input.caseId);
      recordMatch = await checks.runRecordMatch(input.caseId);
    }
    const summaries: TCheckSummary[] = [...documentChecks, authenticity, liveness, faceMatch, recordMatch];
    stage = 'deciding';
    const decision = await lifecycle.finalizeCase(input.caseId, summaries);
    stage = decision.status;
    if (decision.status === 'completed') await notify(input.caseId, 'verification.completed');
    return { caseId: input.caseId, status: decision.status, assessment: decision.assessment, summaryReasons: decision.summaryReasons };
  } catch (err) {
    // A check that keeps failing after its retries is a terminal engine error: `failed`, not a guess.
    const code = err instanceof ActivityFailure && err.cause instanceof ApplicationFailure && err.cause.type ? err.cause.type : 'engine_error';
    log.warn('case failed', { caseId: input.caseId, code });
    stage = 'failed';
    const failed = await lifecycle.failCase(input.caseId, code);
    if (failed.changed) await notify(input.caseId, 'verification.failed');
    return { caseId: input.caseId, status: 'failed', assessment: 'assessment_incomplete', summaryReasons: [code] };
  }
}
