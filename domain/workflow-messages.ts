import { defineQuery, defineSignal } from '@temporalio/workflow';

/**
 * Temporal message definitions shared by the API (which signals) and the workflow (which handles).
 * Everything here crosses into Temporal history: ids, timestamps and codes only, never PII.
 */
export const CASE_WORKFLOW_TYPE = 'caseWorkflow';
export const caseWorkflowId = (caseId: string): string => `case-${caseId}`;

export interface CaseWorkflowInput {
  caseId: string;
  /** ISO timestamp; the capture timer fires then. */
  linkExpiresAt: string;
}

export interface CaseWorkflowResult {
  caseId: string;
  /** `not_created`: the create that started this workflow never committed its Case row. */
  status: 'completed' | 'failed' | 'erased' | 'not_created';
  assessment?: string;
  summaryReasons?: string[];
}

export interface CaptureSubmittedSignal {
  submittedAt: string;
}

export const captureSubmittedSignal = defineSignal<[CaptureSubmittedSignal]>('captureSubmitted');
export const caseStageQuery = defineQuery<string>('caseStage');

/**
 * One short workflow per recorded customer disposition (`review-<disposition id>`): it delivers
 * `verification.reviewed` through the same activity as the Case's own events, so the delivery
 * survives an API or worker restart. Input: ids only.
 */
export const REVIEW_WORKFLOW_TYPE = 'reviewWorkflow';
export const reviewWorkflowId = (dispositionId: string): string => `review-${dispositionId}`;
export interface ReviewWorkflowInput {
  caseId: string;
  dispositionId: string;
}
