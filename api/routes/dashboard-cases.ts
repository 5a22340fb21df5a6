import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ZDispositionBody, type TErasureReceipt } from '../../domain/api-schemas.js';
import { AppError } from '../../domain/errors.js';
import type { Permission } from '../../domain/permissions.js';
import { ASSESSMENTS } from '../../domain/policy.js';
import type { MemberPrincipal } from '../../domain/principal.js';
import type { IProject } from '../../db/entities/index.js';
import * as cases from '../../dashboard/cases-views.js';
import type { PageContext } from '../../dashboard/views.js';
import { REPO_ROOT } from '../../platform/paths.js';
import { caseAccess } from '../../services/access.js';
import { audit } from '../../services/audit.js';
import { captureImage, caseDetail, listProjectCases, projectFlows, queueNeighbours, reviewQueue } from '../../services/case-review.js';
import { recordDisposition } from '../../services/dispositions.js';
import { eraseCase } from '../../services/erase-verification.js';
import { dashboardBuildRoutes } from './dashboard-build.js';
import { dashboardFlowRoutes } from './dashboard-flows.js';

type Ctx = PageContext & { userId: string; principal: MemberPrincipal | null; projectRow: IProject | null };
export interface DashboardHelpers {
  context(req: FastifyRequest, reply: FastifyReply, o?: { projectId?: string; permission?: Permission }): Promise<Ctx>;
  send(reply: FastifyReply, status: number, body: string): FastifyReply;
}

const ZListFilters = z.object({
  status: z.enum(['collecting', 'pending', 'processing', 'completed', 'failed', 'erased']).optional(),
  assessment: z.enum(ASSESSMENTS).optional(),
  flow_id: z.string().max(64).optional(),
  flow_version_ref: z.coerce.number().int().min(1).max(1_000_000).optional(),
  created_after: z.iso.date().optional(),
  created_before: z.iso.date().optional(),
  reference: z.string().max(200).optional(),
  search: z.string().max(200).optional(),
  cursor: z.string().max(200).optional(),
});

/**
 * Verifications and Case Management pages (issue 17), registered inside the dashboard's scope so
 * they share its error pages, form parsing and session context. Every route passes the one guard
 * through `context` (project, permission) and, for one Case, `caseAccess`.
 */
export function dashboardCaseRoutes(app: FastifyInstance, h: DashboardHelpers): void {
  const pid = (req: FastifyRequest) => (req.params as { project_id: string }).project_id;
  const cid = (req: FastifyRequest) => (req.params as { id: string }).id;
  const base = (c: Ctx) => `/dashboard/projects/${c.project!.id}/verifications`;
  const temporalUrl = (req: FastifyRequest, workflowId: string) => {
    const t = req.deps.config.temporal;
    return `${t.uiUrl.replace(/\/$/, '')}/namespaces/${encodeURIComponent(t.namespace)}/workflows/${encodeURIComponent(workflowId)}`;
  };

  for (const [file, type] of [['cases.js', 'text/javascript'], ['cases.css', 'text/css'], ['build.css', 'text/css']] as const) {
    app.get(`/dashboard/assets/${file}`, { schema: { hide: true } }, async (_req, reply) =>
      reply.type(type).header('cache-control', 'public, max-age=300').header('x-content-type-options', 'nosniff').send(await readFile(path.join(REPO_ROOT, 'dashboard', file))));
  }

  app.get('/dashboard/projects/:project_id/verifications', { schema: { hide: true } }, async (req, reply) => {
    const c = await h.context(req, reply, { projectId: pid(req), permission: 'cases:read' });
    const raw = Object.fromEntries(Object.entries(req.query as Record<string, unknown>).filter(([, v]) => typeof v === 'string' && v.trim() !== '').map(([k, v]) => [k, (v as string).trim()]));
    const parsed = ZListFilters.safeParse(raw);
    const flows = await projectFlows(req.em, c.project!.id);
    if (!parsed.success) {
      const msg = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
      return h.send(reply, 400, cases.verificationsPage(c, [], null, raw as cases.ListFilters, flows, { error: msg }));
    }
    const f = parsed.data;
    // Dates are whole days in UTC: "until" includes that day.
    const before = f.created_before ? new Date(Date.parse(`${f.created_before}T00:00:00Z`) + 86_400_000).toISOString() : undefined;
    const page = await listProjectCases(req.em, c.principal!, c.projectRow!, {
      limit: 25, cursor: f.cursor, status: f.status, assessment: f.assessment, flow_id: f.flow_id, flow_version_ref: f.flow_version_ref,
      created_after: f.created_after ? `${f.created_after}T00:00:00Z` : undefined, created_before: before, reference: f.reference, search: f.search,
    });
    return h.send(reply, 200, cases.verificationsPage(c, page.items, page.nextCursor, raw as cases.ListFilters, flows));
  });

  const detail = async (req: FastifyRequest, c: Ctx, o: { saved?: boolean; error?: string; receipt?: TErasureReceipt } = {}) => {
    const d = await caseDetail(req.em, c.userId, c.project!.id, cid(req));
    const n = await queueNeighbours(req.em, c.principal!, c.project!.id, d.verification.id);
    return cases.verificationPage(c, d, { temporalUrl: temporalUrl(req, d.verification.workflowId), neighbours: n.position ? n : undefined, ...o });
  };

  app.get('/dashboard/projects/:project_id/verifications/:id', { schema: { hide: true } }, async (req, reply) => {
    const c = await h.context(req, reply, { projectId: pid(req), permission: 'cases:read' });
    return h.send(reply, 200, await detail(req, c, { saved: (req.query as { saved?: string }).saved === '1' }));
  });

  // A capture's bytes: members with `cases:read_pii` only, never cached, never a public URL.
  app.get('/dashboard/projects/:project_id/verifications/:id/captures/:upload_id', { schema: { hide: true } }, async (req, reply) => {
    const c = await h.context(req, reply, { projectId: pid(req), permission: 'cases:read_pii' });
    const u = await captureImage(req.em, c.userId, c.project!.id, cid(req), (req.params as { upload_id: string }).upload_id);
    const bytes = await req.deps.blobs.get(u.blobKey);
    return reply.code(200).type(u.mime).headers({
      'cache-control': 'no-store', 'x-content-type-options': 'nosniff', 'content-disposition': 'inline', 'referrer-policy': 'same-origin',
      'content-security-policy': "default-src 'none'; sandbox",
    }).send(bytes);
  });

  app.post('/dashboard/projects/:project_id/verifications/:id/disposition', { schema: { hide: true } }, async (req, reply) => {
    const c = await h.context(req, reply, { projectId: pid(req), permission: 'cases:review' });
    const b = (req.body ?? {}) as Record<string, string | undefined>;
    const parsed = ZDispositionBody.safeParse({ state: b.state, ...(b.note?.trim() ? { note: b.note } : {}) });
    if (!parsed.success) return h.send(reply, 400, await detail(req, c, { error: parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ') }));
    // The guard runs again on the Case itself (its project must be this one).
    const { verification } = await caseAccess(req.em, c.userId, cid(req), 'cases:review');
    if (verification.projectId !== c.project!.id) throw new AppError('not_found', 'No such verification.');
    const before = await queueNeighbours(req.em, c.principal!, c.project!.id, verification.id);
    try {
      await recordDisposition(req.deps, c.userId, verification.id, parsed.data);
    } catch (err) {
      if (err instanceof AppError && err.status === 409) return h.send(reply, 409, await detail(req, c, { error: err.message }));
      throw err;
    }
    // Keyboard review: straight on to the next Case in the queue.
    const next = before.position ? before.next : null;
    return reply.redirect(`${base(c)}/${next ?? verification.id}?saved=1`, 303);
  });

  app.post('/dashboard/projects/:project_id/verifications/:id/erase', { schema: { hide: true } }, async (req, reply) => {
    const c = await h.context(req, reply, { projectId: pid(req), permission: 'cases:erase' });
    const { verification, principal } = await caseAccess(req.em, c.userId, cid(req), 'cases:erase');
    if (verification.projectId !== c.project!.id) throw new AppError('not_found', 'No such verification.');
    if ((req.body as { confirm?: string } | undefined)?.confirm !== '1') return h.send(reply, 400, await detail(req, c, { error: cases.eraseNeedsConfirmation(c) }));
    const receipt = await eraseCase(req.deps, verification);
    await audit(req.em, principal, 'case.erased', { projectId: verification.projectId, targetId: verification.id });
    await req.em.flush();
    req.em.clear();
    return h.send(reply, 200, await detail(req, c, { receipt }));
  });

  dashboardFlowRoutes(app, h);
  dashboardBuildRoutes(app, h);

  app.get('/dashboard/projects/:project_id/review', { schema: { hide: true } }, async (req, reply) => {
    const c = await h.context(req, reply, { projectId: pid(req), permission: 'cases:read' });
    return h.send(reply, 200, cases.reviewQueuePage(c, await reviewQueue(req.em, c.principal!, c.project!.id)));
  });
}
