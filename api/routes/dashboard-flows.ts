import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../../domain/errors.js';
import { flowsPage } from '../../dashboard/flows-views.js';
import { createFlowFromJson, flowsWithVersions, publishFromJson } from '../../services/flow-pages.js';
import { setFlowActive } from '../../services/flows.js';
import type { DashboardHelpers } from './dashboard-cases.js';

/** The Flows page: versions with diffs, publish n+1 from JSON (inline validation errors), activate/deactivate. */
export function dashboardFlowRoutes(app: FastifyInstance, h: DashboardHelpers): void {
  const pid = (req: FastifyRequest) => (req.params as { project_id: string }).project_id;
  const slug = (req: FastifyRequest) => (req.params as { slug: string }).slug;
  const base = (req: FastifyRequest) => req.deps.config.publicBaseUrl.replace(/\/$/, '');

  app.get('/dashboard/projects/:project_id/flows', { schema: { hide: true } }, async (req, reply) => {
    const c = await h.context(req, reply, { projectId: pid(req), permission: 'project:read' });
    const q = req.query as { published?: string; v?: string };
    const published = q.published && q.v && /^\d+$/.test(q.v) ? { slug: q.published, version: Number(q.v) } : undefined;
    return h.send(reply, 200, flowsPage(c, await flowsWithVersions(req.em, c.project!.id), { baseUrl: base(req), published }));
  });

  // Activate a Template as a new Flow (version 1 under a new slug).
  app.post('/dashboard/projects/:project_id/flows', { schema: { hide: true } }, async (req, reply) => {
    const c = await h.context(req, reply, { projectId: pid(req), permission: 'flows:manage' });
    const b = (req.body ?? {}) as Record<string, unknown>;
    const text = String(b.definition ?? '');
    const newSlug = String(b.slug ?? '').trim();
    let created: string;
    try {
      created = await createFlowFromJson(req.em, c.project!.id, newSlug, String(b.name ?? ''), text);
    } catch (err) {
      if (!(err instanceof AppError) || err.status >= 500 || err.code === 'not_found') throw err;
      const fields = err.errors.map((e) => `${e.field}: ${e.message}`);
      return h.send(reply, err.status, flowsPage(c, await flowsWithVersions(req.em, c.project!.id), { baseUrl: base(req), error: { slug: '', newSlug, message: err.message, fields, text } }));
    }
    return reply.redirect(`/dashboard/projects/${c.project!.id}/flows?published=${encodeURIComponent(created)}&v=1`, 303);
  });

  app.post('/dashboard/projects/:project_id/flows/:slug/versions', { schema: { hide: true } }, async (req, reply) => {
    const c = await h.context(req, reply, { projectId: pid(req), permission: 'flows:manage' });
    const text = String((req.body as { definition?: unknown } | undefined)?.definition ?? '');
    let v: Awaited<ReturnType<typeof publishFromJson>>;
    try {
      v = await publishFromJson(req.em, c.project!.id, slug(req), text);
    } catch (err) {
      if (!(err instanceof AppError) || err.status >= 500 || err.code === 'not_found') throw err;
      const fields = err.errors.map((e) => `${e.field}: ${e.message}`);
      return h.send(reply, err.status, flowsPage(c, await flowsWithVersions(req.em, c.project!.id), { baseUrl: base(req), error: { slug: slug(req), message: err.message, fields, text } }));
    }
    return reply.redirect(`/dashboard/projects/${c.project!.id}/flows?published=${encodeURIComponent(slug(req))}&v=${v}`, 303);
  });

  for (const [action, active] of [['activate', true], ['deactivate', false]] as const) {
    app.post(`/dashboard/projects/:project_id/flows/:slug/${action}`, { schema: { hide: true } }, async (req, reply) => {
      const c = await h.context(req, reply, { projectId: pid(req), permission: 'flows:manage' });
      await setFlowActive(req.em, c.project!.id, slug(req), active);
      return reply.redirect(`/dashboard/projects/${c.project!.id}/flows`, 303);
    });
  }
}
