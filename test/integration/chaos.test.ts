import { describe, expect, it } from 'vitest';
import { runChaos } from '../../bench/chaos-run.js';
import { prepareGenuineApplicant } from '../../bench/genuine-case.js';
import { newId } from '../../domain/ids.js';
import { CASE_WORKFLOW_TYPE, caseWorkflowId, type CaseWorkflowResult } from '../../domain/workflow-messages.js';
import { stack } from '../helpers.js';
import { withTemporal } from '../temporal.js';

/**
 * Issue 18 item 3, the scenarios cheap enough for every run (the full one, ≥ 30 Cases and every
 * process in a run of its own, is `npm run chaos`): one load of genuine Cases on a stack of its
 * own (its own PostgreSQL, which this test kills, and its own Temporal dev server, api and worker),
 * with three faults: the api SIGKILLed and started again, then PostgreSQL SIGKILLed and started
 * again (crash recovery), and meanwhile the webhook receiver down until 20 s after the first
 * delivery it refused.
 */
describe('chaos', () => {
  // Both tests mostly wait (on Cases, on a grace period): they run side by side.
  it.concurrent('api SIGKILL, PostgreSQL SIGKILL + restart, receiver down 20 s: every Case terminal, rows = workflows = terminal results, a verified webhook per Case, one assessment each, no crash', async () => {
    const applicant = await prepareGenuineApplicant();
    const r = await runChaos({
      applicant,
      cases: 6,
      concurrency: 3,
      faults: [
        { kind: 'api', afterSubmitted: 1, downMs: 1000 },
        { kind: 'postgres', afterSubmitted: 2, downMs: 1000 },
        // beside the kills: down from the first submitted Case until 20 s after it refused a delivery
        { kind: 'receiver', afterSubmitted: 1, downMs: 20_000 },
      ],
      settleMs: 240_000,
      // A create whose answer a kill swallowed is sent again with its Idempotency-Key and answers
      // the same Case (fresh-clone CI, 2026-11-29 05:40, before keys: a second Case was made and
      // the first was left collecting). The run counts any Case no create answered as a violation.
    });
    expect(r.violations).toEqual([]);
    expect(r.faults.map((f) => f.kind).sort()).toEqual(['api', 'postgres', 'receiver']);
    expect(r.submitted).toBe(6);
    expect(r.cases).toBe(6); // retried creates answered their own Case (Idempotency-Key)
    expect(r.terminal).toBe(r.cases);
    expect(r.workflows).toBe(r.cases);
    expect(r.workflowResults).toBe(r.cases);
    expect(r.casesWithWebhook).toBe(r.cases);
    expect(r.badSignatures).toBe(0);
    expect(r.unplannedExits).toEqual([]);
    // The receiver refused deliveries, and every one of those events arrived later all the same.
    expect(r.failedDeliveryAttempts).toBeGreaterThan(0);
    // The kills were felt by the load: requests were sent again.
    expect(r.clientRetries).toBeGreaterThan(0);
  }, 600_000);

  // What a create leaves when the api (or PostgreSQL) dies between the workflow start and the
  // commit: a workflow whose row never appears. It must end by itself, not wait out the link.
  it.concurrent('a workflow whose Case row never committed ends itself (not_created) after the grace period', async () => {
    const caseId = newId('verification');
    const started = Date.now();
    const result = await withTemporal(async (c) => {
      const h = await c.workflow.start(CASE_WORKFLOW_TYPE, {
        workflowId: caseWorkflowId(caseId),
        taskQueue: stack().env.TEMPORAL_TASK_QUEUE ?? 'cases',
        args: [{ caseId, linkExpiresAt: new Date(Date.now() + 7 * 86_400_000).toISOString() }],
      });
      return (await h.result()) as CaseWorkflowResult;
    });
    expect(result).toEqual({ caseId, status: 'not_created' });
    const tookMs = Date.now() - started;
    expect(tookMs).toBeGreaterThanOrEqual(30_000); // CASE_ROW_GRACE_MS: a slow commit still counts
    expect(tookMs).toBeLessThan(120_000);
  }, 180_000);
});
