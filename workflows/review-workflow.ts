import { proxyActivities } from '@temporalio/workflow';
import type { ReviewWorkflowInput } from '../domain/workflow-messages.js';
import type { CaseActivities } from '../activities/index.js';

/**
 * The same delivery profile as the Case workflow's webhooks: the activity makes its own 3 attempts
 * within about 7 s and never throws for a failing receiver; Temporal retries it only when the
 * worker dies mid-delivery or the database cannot be reached, without a limit on attempts (a
 * duplicate is allowed by the contract, a lost event is not).
 */
const hooks = proxyActivities<CaseActivities>({
  startToCloseTimeout: '20 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds' },
});

/** `verification.reviewed` for one recorded disposition (started by services/dispositions.ts). */
export async function reviewWorkflow(input: ReviewWorkflowInput): Promise<{ delivered: boolean; attempts: number }> {
  return hooks.deliverWebhook(input.caseId, 'verification.reviewed', input.dispositionId);
}
