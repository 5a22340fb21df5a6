import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../domain/errors.js';
import { pieceOf, primitivesRegistry } from '../../domain/primitives.js';
import * as build from '../../dashboard/build-views.js';
import type { PageContext } from '../../dashboard/views.js';
import { capturePage } from '../../hosted/pages.js';
import { flowsWithVersions } from '../../services/flow-pages.js';
import { activateDraft, deleteDraft, getDraft, listDrafts, publishDraft, saveDraft } from '../../services/template-drafts.js';
import type { DashboardHelpers } from './dashboard-cases.js';
import { PREVIEW_HEADERS } from './dashboard-headers.js';

/**
 * The Build page (issue 17): drafts composed with forms generated from the primitives registry,
 * saved server-side, previewed as the hosted page they give, activated as a Flow. Reading needs
 * `project:read` (read-only without `flows:manage`); every write needs `flows:manage`.
 */
export function dashboardBuildRoutes(app: FastifyInstance, h: DashboardHelpers): void {
  const pid = (req: FastifyRequest) => (req.params as { project_id: string }).project_id;
  const did = (req: FastifyRequest) => (req.params as { id: string }).id;
  // Form posts carry strings only; anything else (a JSON body, say) is dropped rather than trusted.
  const body = (req: FastifyRequest): Record<string, string> =>
    Object.fromEntries(Object.entries(typeof req.body === 'object' && req.body !== null ? req.body : {}).filter((e): e is [string, string] => typeof e[1] === 'string'));
  const registry = () => primitivesRegistry().primitives as build.RegistryPiece[];
  const base = (projectId: string) => `/dashboard/projects/${projectId}/build`;
  // Straight to the Flow's section (an explicit fragment, so the form's own does not carry over).
  const flowsPage = (projectId: string, r: { flowId: string; slug: string; version: number }) => `/dashboard/projects/${projectId}/flows?published=${encodeURIComponent(r.slug)}&v=${r.version}#fl-${r.flowId}`;
  const flowChoices = async (req: FastifyRequest, projectId: string) => (await flowsWithVersions(req.em, projectId)).map((f) => ({ slug: f.slug, name: f.name, currentVersion: f.currentVersion }));
  const fresh = (reg: build.RegistryPiece[]): build.ComposerState => ({ name: '', value: build.compositionOf(reg), errors: [], blanks: {} });
  const stored = (reg: build.RegistryPiece[], d: build.DraftView): build.ComposerState => ({ name: d.name, value: build.compositionOf(reg, d.definition), errors: [], blanks: {} });
  /** A business refusal of a form re-renders the page (nothing written); anything else goes to the error page. */
  const refusal = (err: unknown): AppError => {
    if (err instanceof AppError && (err.code === 'validation_failed' || err.code === 'conflict')) return err;
    throw err;
  };

  const buildView = async (req: FastifyRequest, c: PageContext, st: build.ComposerState, o: { deleted?: boolean } = {}) =>
    build.buildPage(c, registry(), await listDrafts(req.em, c.project!.id), st, o);
  const draftView = async (req: FastifyRequest, c: PageContext, st?: build.ComposerState, o: Parameters<typeof build.draftPage>[5] = {}) => {
    const d = await getDraft(req.em, c.project!.id, did(req));
    return build.draftPage(c, registry(), d, st ?? stored(registry(), d), await flowChoices(req, c.project!.id), o);
  };

  app.get('/dashboard/projects/:project_id/build', { schema: { hide: true } }, async (req, reply) => {
    const c = await h.context(req, reply, { projectId: pid(req), permission: 'project:read' });
    return h.send(reply, 200, await buildView(req, c, fresh(registry()), { deleted: (req.query as { deleted?: string }).deleted === '1' }));
  });

  /** Saves (new or existing) from the composer; "add a row" re-renders with another blank row and saves nothing. */
  async function save(req: FastifyRequest, reply: FastifyReply, existing: boolean) {
    const c = await h.context(req, reply, { projectId: pid(req), permission: 'flows:manage' });
    const reg = registry();
    const form = build.compositionFromForm(reg, body(req));
    const again = (status: number, errors: build.ComposerState['errors']) => {
      const st = { name: form.name, value: form.value, errors, blanks: form.blanks };
      return existing ? draftView(req, c, st).then((page) => h.send(reply, status, page)) : buildView(req, c, st).then((page) => h.send(reply, status, page));
    };
    if (body(req)._op?.startsWith('add:')) {
      if (existing) await getDraft(req.em, c.project!.id, did(req));
      return again(200, []);
    }
    let d: Awaited<ReturnType<typeof saveDraft>>;
    try {
      d = await saveDraft(req.em, c.principal!, c.project!.id, { name: form.name, definition: form.definition }, existing ? did(req) : undefined);
    } catch (err) {
      const e = refusal(err);
      return again(e.status, e.errors.length ? e.errors : [{ field: 'definition', code: e.code, message: e.message }]);
    }
    return reply.redirect(`${base(c.project!.id)}/drafts/${d.id}?saved=1`, 303);
  }
  app.post('/dashboard/projects/:project_id/build/drafts', { schema: { hide: true } }, (req, reply) => save(req, reply, false));
  app.post('/dashboard/projects/:project_id/build/drafts/:id', { schema: { hide: true } }, (req, reply) => save(req, reply, true));

  app.get('/dashboard/projects/:project_id/build/drafts/:id', { schema: { hide: true } }, async (req, reply) => {
    const c = await h.context(req, reply, { projectId: pid(req), permission: 'project:read' });
    return h.send(reply, 200, await draftView(req, c, undefined, { saved: (req.query as { saved?: string }).saved === '1' }));
  });

  app.post('/dashboard/projects/:project_id/build/drafts/:id/delete', { schema: { hide: true } }, async (req, reply) => {
    const c = await h.context(req, reply, { projectId: pid(req), permission: 'flows:manage' });
    await deleteDraft(req.em, c.principal!, c.project!.id, did(req));
    return reply.redirect(`${base(c.project!.id)}?deleted=1`, 303);
  });

  app.get('/dashboard/projects/:project_id/build/drafts/:id/preview', { schema: { hide: true } }, async (req, reply) => {
    const c = await h.context(req, reply, { projectId: pid(req), permission: 'project:read' });
    const d = await getDraft(req.em, c.project!.id, did(req));
    return h.send(reply, 200, build.previewPage(c, d, {
      baseUrl: req.deps.config.publicBaseUrl.replace(/\/$/, ''),
      hostedSrc: `${base(c.project!.id)}/drafts/${d.id}/preview/hosted?lang=${c.locale}`,
      flows: await flowChoices(req, c.project!.id),
    }));
  });

  // The hosted page itself, rendered by the hosted page's code for this draft's documents and the
  // project's branding; framed by the preview only, with no script and no form target.
  app.get('/dashboard/projects/:project_id/build/drafts/:id/preview/hosted', { schema: { hide: true } }, async (req, reply) => {
    const c = await h.context(req, reply, { projectId: pid(req), permission: 'project:read' });
    const d = await getDraft(req.em, c.project!.id, did(req));
    const accepted = pieceOf(d.definition, 'document_capture')?.settings.accepted_documents ?? [];
    const page = capturePage(c.locale, c.projectRow!.branding ?? {}, accepted, 'collecting').replace(/<script[^>]*><\/script>/g, '');
    return reply.code(200).headers(PREVIEW_HEADERS).type('text/html; charset=utf-8').send(page);
  });

  const activationError = async (req: FastifyRequest, reply: FastifyReply, c: PageContext, form: 'activate' | 'publish', e: AppError) => {
    const b = body(req);
    return h.send(reply, e.status, await draftView(req, c, undefined, { error: { form, message: e.message, field: e.errors[0]?.field, fieldMessage: e.errors[0]?.message }, slug: b.slug, flowName: b.name }));
  };

  app.post('/dashboard/projects/:project_id/build/drafts/:id/activate', { schema: { hide: true } }, async (req, reply) => {
    const c = await h.context(req, reply, { projectId: pid(req), permission: 'flows:manage' });
    const b = body(req);
    let r: Awaited<ReturnType<typeof activateDraft>>;
    try {
      r = await activateDraft(req.em, c.principal!, c.project!.id, did(req), (b.slug ?? '').trim(), b.name ?? '');
    } catch (err) {
      return activationError(req, reply, c, 'activate', refusal(err));
    }
    return reply.redirect(flowsPage(c.project!.id, r), 303);
  });

  app.post('/dashboard/projects/:project_id/build/drafts/:id/publish', { schema: { hide: true } }, async (req, reply) => {
    const c = await h.context(req, reply, { projectId: pid(req), permission: 'flows:manage' });
    let r: Awaited<ReturnType<typeof publishDraft>>;
    try {
      r = await publishDraft(req.em, c.principal!, c.project!.id, did(req), (body(req).flow ?? '').trim());
    } catch (err) {
      return activationError(req, reply, c, 'publish', refusal(err));
    }
    return reply.redirect(flowsPage(c.project!.id, r), 303);
  });
}
