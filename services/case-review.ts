import type { EntityManager, FilterQuery } from '@mikro-orm/postgresql';
import { AppError } from '../domain/errors.js';
import { can } from '../domain/permissions.js';
import type { MemberPrincipal } from '../domain/principal.js';
import { ASSESSMENTS } from '../domain/policy.js';
import { CheckResult, Flow, Upload, Verification, WebhookDelivery, type ICheckResult, type IProject, type IUpload, type IVerification } from '../db/entities/index.js';
import type { CaseDetail, CaseListItem, QueueView } from '../domain/case-views.js';
import { caseAccess } from './access.js';
import { dispositionsOf } from './dispositions.js';
import { listCases, type ListQuery } from './list-verifications.js';

/**
 * What the dashboard's Verifications and Case Management pages read. The pages' guard
 * (`projectAccess`/`caseAccess`) runs first; this module never decides access on its own, except
 * that PII (evidence, images, notes) is only returned to holders of `cases:read_pii`.
 */

/** A page of the project's Cases with the dashboard filters; `reference` only with `cases:read_pii`. */
export async function listProjectCases(em: EntityManager, principal: MemberPrincipal, project: IProject, q: ListQuery): Promise<{ items: CaseListItem[]; nextCursor: string | null }> {
  const page = await listCases(em, project.id, q);
  const flows = await flowSlugs(em, page.items);
  const pii = can(principal.role, 'cases:read_pii');
  return { items: page.items.map((v) => item(v, flows, pii)), nextCursor: page.nextCursor };
}

export async function projectFlows(em: EntityManager, projectId: string): Promise<{ id: string; slug: string; currentVersion: number }[]> {
  const rows = await em.find(Flow, { projectId }, { orderBy: { slug: 'asc' } });
  return rows.map((f) => ({ id: f.id, slug: f.slug, currentVersion: f.currentVersion }));
}

async function flowSlugs(em: EntityManager, cases: IVerification[]): Promise<Map<string, string>> {
  const ids = [...new Set(cases.map((v) => v.flowId).filter((x): x is string => Boolean(x)))];
  const rows = ids.length ? await em.find(Flow, { id: { $in: ids } }) : [];
  return new Map(rows.map((f) => [f.id, f.slug]));
}

function item(v: IVerification, flows: Map<string, string>, pii: boolean): CaseListItem {
  return {
    id: v.id, status: v.status, assessment: v.assessment ?? null, confidence: v.confidence === null || v.confidence === undefined ? null : Number(v.confidence),
    reference: pii ? (v.reference ?? null) : null,
    flow: v.flowId ? { id: v.flowId, slug: flows.get(v.flowId) ?? v.flowId, version: v.flowVersionRef ?? null } : null,
    review: v.review ?? null, created_at: v.createdAt.toISOString(),
  };
}

export type CaseDetailWithPrincipal = CaseDetail & { verification: IVerification; principal: MemberPrincipal };

/** The detail page: the Case, each check (evidence only with `cases:read_pii`), captures, deliveries, dispositions. */
export async function caseDetail(em: EntityManager, userId: string, projectId: string, caseId: string): Promise<CaseDetailWithPrincipal> {
  const { verification: v, principal } = await caseAccess(em, userId, caseId, 'cases:read');
  if (v.projectId !== projectId) throw new AppError('not_found', 'No such verification.');
  const pii = can(principal.role, 'cases:read_pii');
  const checks = await em.find(CheckResult, { verificationId: v.id }, { orderBy: { createdAt: 'asc' } });
  const uploads = pii ? await em.find(Upload, { verificationId: v.id }, { orderBy: { createdAt: 'asc' } }) : [];
  const deliveries = await em.find(WebhookDelivery, { verificationId: v.id }, { orderBy: { createdAt: 'asc', attempt: 'asc' } });
  const flow = v.flowId ? await em.findOne(Flow, { id: v.flowId }) : null;
  return {
    verification: v,
    flowSlug: flow?.slug ?? null,
    pii,
    checks: checks.map((c: ICheckResult) => ({ check: c.check, status: c.status, reasons: c.reasons, score: c.score === null || c.score === undefined ? null : Number(c.score), component: c.component, models: c.models, duration_ms: c.durationMs, evidence: pii ? c.evidence : null })),
    uploads: uploads.map((u: IUpload) => ({ id: u.id, kind: u.kind, width: u.width, height: u.height, mime: u.mime, meta: u.meta ?? null, at: u.createdAt.toISOString() })),
    deliveries: deliveries.map((d) => ({ event: d.event, attempt: d.attempt, status_code: d.statusCode ?? null, error: d.error ?? null, url_origin: d.urlOrigin, duration_ms: d.durationMs, at: d.createdAt.toISOString() })),
    dispositions: await dispositionsOf(em, v.id, { withNotes: pii }),
    principal,
  };
}

/** One capture's bytes, for a holder of `cases:read_pii` on the Case's project (never a public URL). */
export async function captureImage(em: EntityManager, userId: string, projectId: string, caseId: string, uploadId: string): Promise<IUpload> {
  const { verification: v } = await caseAccess(em, userId, caseId, 'cases:read_pii');
  if (v.projectId !== projectId) throw new AppError('not_found', 'No such verification.');
  const u = await em.findOne(Upload, { id: uploadId, verificationId: v.id });
  if (!u) throw new AppError('not_found', 'No such capture.');
  return u;
}

/** Review order: the assessments that most need a person first, then oldest first. */
export const QUEUE_ORDER = ['material_inconsistency', 'manual_review_recommended', 'assessment_incomplete', 'no_material_concerns'] as const;
const OPEN = { $or: [{ review: null }, { review: { state: 'customer_review_continues' } }] };

/**
 * The review queue: completed Cases with no disposition yet, or whose review continues.
 * `material_inconsistency` and `manual_review_recommended` come first, each oldest first.
 */
export async function reviewQueue(em: EntityManager, principal: MemberPrincipal, projectId: string, limit = 100): Promise<QueueView> {
  const counts = Object.fromEntries(ASSESSMENTS.map((a) => [a, 0])) as QueueView['counts'];
  const items: IVerification[] = [];
  for (const a of QUEUE_ORDER) {
    const where = { projectId, status: 'completed', assessment: a, ...OPEN } as FilterQuery<IVerification>;
    counts[a] = await em.count(Verification, where);
    if (items.length < limit) items.push(...await em.find(Verification, where, { orderBy: { createdAt: 'asc', id: 'asc' }, limit: limit - items.length }));
  }
  const flows = await flowSlugs(em, items);
  const pii = can(principal.role, 'cases:read_pii');
  return { counts, items: items.map((v) => item(v, flows, pii)) };
}

/** The Case after and before `caseId` in the queue order (keyboard next/previous). */
export async function queueNeighbours(em: EntityManager, principal: MemberPrincipal, projectId: string, caseId: string): Promise<{ prev: string | null; next: string | null; position: number | null; total: number }> {
  const q = await reviewQueue(em, principal, projectId, 500);
  const i = q.items.findIndex((x) => x.id === caseId);
  const total = q.items.length;
  if (i < 0) return { prev: null, next: q.items[0]?.id ?? null, position: null, total };
  return { prev: q.items[i - 1]?.id ?? null, next: q.items[i + 1]?.id ?? null, position: i + 1, total };
}
