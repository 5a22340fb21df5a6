import type { TDisposition, TErasureReceipt } from './api-schemas.js';
import type { TLivenessChallenge } from './liveness.js';
import type { ASSESSMENTS } from './policy.js';

/**
 * The shapes the dashboard's Case pages read: services/case-review.ts builds them, dashboard/cases-views.ts
 * renders them (neither may import the other). PII fields are filled only for `cases:read_pii`.
 */
export interface CaseListItem {
  id: string; status: string; assessment: string | null; confidence: number | null; reference: string | null;
  flow: { id: string; slug: string; version: number | null } | null; review: { state: string; at: string } | null; created_at: string;
}
export interface UploadView { id: string; kind: string; width: number; height: number; mime: string; meta: Record<string, unknown> | null; at: string }
export interface CheckView { check: string; status: string; reasons: string[]; score: number | null; component: string; models: { name: string; sha256: string }[]; duration_ms: number; evidence: Record<string, unknown> | null }
export interface DeliveryView { event: string; attempt: number; status_code: number | null; error: string | null; url_origin: string; duration_ms: number; at: string }
export interface CaseDetail {
  verification: {
    id: string; status: string; assessment?: string | null; confidence?: number | string | null; summaryReasons?: string[] | null; review?: { state: string; at: string } | null;
    reference?: string | null; createdAt: Date; engineProfile: string; policyRevision: string; flowVersionRef?: number | null; workflowId: string;
    livenessChallenge?: TLivenessChallenge | null; erasureReceipt?: TErasureReceipt | null;
  };
  flowSlug: string | null;
  pii: boolean;
  checks: CheckView[];
  uploads: UploadView[];
  deliveries: DeliveryView[];
  dispositions: TDisposition[];
}
export interface QueueView { counts: Record<(typeof ASSESSMENTS)[number], number>; items: CaseListItem[] }

