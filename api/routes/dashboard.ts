import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ZBranding, ZInvitationBody, ZRole } from '../../domain/api-schemas.js';
import { AppError } from '../../domain/errors.js';
import type { Permission } from '../../domain/permissions.js';
import type { MemberPrincipal } from '../../domain/principal.js';
import type { IProject } from '../../db/entities/index.js';
import { capturePage } from '../../hosted/pages.js';
import { DASHBOARD_STRINGS, dashboardLocale } from '../../dashboard/i18n.js';
import * as views from '../../dashboard/views.js';
import { orgAccess } from '../../services/access.js';
import { listOrgEntries, resolveWorkspace } from '../../services/dashboard-workspace.js';
import { REPO_ROOT } from '../../platform/paths.js';
import { listAudit } from '../../services/audit.js';
import { clearWebhook, createKey, createProject, listDeliveries, listKeys, putWebhook, revokeKey, updateBranding, viewWebhook } from '../../services/project-settings.js';
import { changeRole, invite, listMembers, listPendingInvitations, removeMember, revokeInvitation } from '../../services/team.js';
import { acceptFormBodies } from '../plugins/form-body.js';
import { assertCsrf, currentSession, parseCookies, setCookie } from '../plugins/session.js';
import { safeReturnTo } from './auth.js';
import { dashboardCaseRoutes } from './dashboard-cases.js';
import { PAGE_HEADERS, PREVIEW_HEADERS } from './dashboard-headers.js';

const ASSETS: Record<string, string> = { 'dashboard.css': 'text/css', 'dashboard.js': 'text/javascript' };

class SignInRequired extends Error {}

type Ctx = views.PageContext & { userId: string; principal: MemberPrincipal | null; projectRow: IProject | null };

/**
 * The dashboard: server-rendered pages (dashboard/), every one through the one guard
 * (services/access.ts): a non-member gets the 404 page, a member without the permission 403.
 * Writes are HTML form posts carrying the session's CSRF token, answered with a redirect
 * (post/redirect/get) or, when something is shown once (a raw key, a secret), the page itself.
 */
export async function dashboardRoutes(app: FastifyInstance): Promise<void> {
  acceptFormBodies(app);

  const locale = (req: FastifyRequest, reply: FastifyReply) => {
    const q = (req.query as { lang?: string } | undefined)?.lang;
    const l = dashboardLocale(q, parseCookies(req.headers.cookie).ivs_lang, req.headers['accept-language']);
    if (q === l) setCookie(reply, 'ivs_lang', l, { secure: req.deps.config.auth.secureCookies, maxAge: 365 * 86_400 });
    return l;
  };
  const bare = (req: FastifyRequest, reply: FastifyReply): views.PageContext => {
    const l = locale(req, reply);
    return { locale: l, t: DASHBOARD_STRINGS[l], path: req.url.split('?')[0]!, csrf: null, user: null, org: null, role: null, project: null };
  };
  const send = (reply: FastifyReply, status: number, body: string) => reply.code(status).headers(PAGE_HEADERS).type('text/html; charset=utf-8').send(body);

  app.setErrorHandler(async (err: FastifyError, req, reply) => {
    if (err instanceof SignInRequired) return reply.redirect(`/dashboard/sign-in?return_to=${encodeURIComponent(safeReturnTo(req.method === 'GET' ? req.url.split('?')[0] : '/dashboard'))}`, 303);
    const c = (req as FastifyRequest & { pageCtx?: Ctx }).pageCtx ?? bare(req, reply);
    if (err instanceof AppError) return send(reply, err.status, views.errorPage(c, err.status, err.status === 404 ? undefined : err.message));
    if (err.validation) return send(reply, 400, views.errorPage(c, 400, err.message));
    req.log.error({ err: { message: err.message, code: err.code } }, 'dashboard error');
    return send(reply, 500, views.errorPage(c, 500));
  });

  /** Session → context; with a project id, the guard resolves it for `permission`; otherwise the active org. */
  async function context(req: FastifyRequest, reply: FastifyReply, o: { projectId?: string; permission?: Permission; orgPermission?: Permission } = {}): Promise<Ctx> {
    const base = bare(req, reply);
    const session = await currentSession(req);
    if (!session) throw new SignInRequired();
    assertCsrf(req, session);
    const { user, principal, project, org } = await resolveWorkspace(req.em, session, o);
    const c: Ctx = {
      ...base, csrf: session.csrfToken, user: { email: user.email },
      org: org ? { id: org.id, name: org.name } : null, role: principal?.role ?? null,
      project: project ? { id: project.id, name: project.name, sandbox: project.sandbox } : null,
      userId: user.id, principal, projectRow: project,
    };
    (req as FastifyRequest & { pageCtx?: Ctx }).pageCtx = c;
    return c;
  }
  const body = (req: FastifyRequest) => (req.body ?? {}) as Record<string, string | undefined>;
  const pid = (req: FastifyRequest) => (req.params as { project_id: string }).project_id;
  const back = (reply: FastifyReply, to: string) => reply.redirect(to, 303);
  /** A business error on a form re-renders the page with the message and its status. */
  const formError = (err: unknown): AppError => {
    if (err instanceof AppError && err.status < 500 && err.status !== 404 && err.code !== 'forbidden' && err.code !== 'csrf_failed') return err;
    throw err;
  };

  app.get('/dashboard/assets/:file', { schema: { hide: true } }, async (req, reply) => {
    const file = (req.params as { file: string }).file;
    const type = ASSETS[file];
    if (!type) throw new AppError('not_found', 'No such asset.');
    return reply.type(type).header('cache-control', 'public, max-age=300').header('x-content-type-options', 'nosniff').send(await readFile(path.join(REPO_ROOT, 'dashboard', file)));
  });

  app.get('/dashboard/sign-in', { schema: { hide: true } }, async (req, reply) => {
    const q = req.query as { error?: string; return_to?: string };
    const { auth } = req.deps.config;
    return send(reply, q.error ? 401 : 200, views.signInPage(bare(req, reply), {
      error: typeof q.error === 'string' ? q.error.replace(/[^a-z_]/g, '') : undefined,
      google: Boolean(auth.google.client), github: Boolean(auth.github.client), standins: auth.standins, returnTo: safeReturnTo(q.return_to),
    }));
  });

  app.get('/dashboard', { schema: { hide: true } }, async (req, reply) => {
    const c = await context(req, reply);
    return back(reply, c.project ? `/dashboard/projects/${c.project.id}/keys` : '/dashboard/orgs');
  });

  // Org and project switcher.
  app.get('/dashboard/orgs', { schema: { hide: true } }, async (req, reply) => send(reply, 200, views.orgsPage(await context(req, reply), await orgEntries(req))));
  async function orgEntries(req: FastifyRequest): Promise<views.OrgEntry[]> {
    return listOrgEntries(req.em, (await currentSession(req))!.userId);
  }
  app.post('/dashboard/switch', { schema: { hide: true } }, async (req, reply) => {
    await context(req, reply);
    const projectId = body(req).project_id ?? '';
    // Opening a project goes through the guard (404 for an outsider) and makes it active.
    await context(req, reply, { projectId, permission: 'project:read' });
    return back(reply, `/dashboard/projects/${projectId}/keys`);
  });
  app.post('/dashboard/orgs/:org_id/projects', { schema: { hide: true } }, async (req, reply) => {
    const c = await context(req, reply);
    const principal = await orgAccess(req.em, c.userId, (req.params as { org_id: string }).org_id, 'projects:create');
    const name = (body(req).name ?? '').trim();
    if (!name || name.length > 200) return send(reply, 400, views.orgsPage(c, await orgEntries(req), { error: c.t.projectName }));
    const project = await createProject(req.em, principal, name);
    return back(reply, `/dashboard/projects/${project.id}/keys`);
  });

  // API keys.
  app.get('/dashboard/projects/:project_id/keys', { schema: { hide: true } }, async (req, reply) => {
    const c = await context(req, reply, { projectId: pid(req) });
    return send(reply, 200, views.keysPage(c, await listKeys(req.em, c.projectRow!)));
  });
  app.post('/dashboard/projects/:project_id/keys', { schema: { hide: true } }, async (req, reply) => {
    const c = await context(req, reply, { projectId: pid(req), permission: 'keys:manage' });
    const name = (body(req).name ?? '').trim().slice(0, 200) || 'unnamed';
    const created = await createKey(req.em, c.principal!, c.projectRow!, name);
    // Shown once, in this response only (never in a URL or a later page).
    return send(reply, 201, views.keysPage(c, await listKeys(req.em, c.projectRow!), { newKey: created.api_key }));
  });
  app.post('/dashboard/projects/:project_id/keys/:key_id/revoke', { schema: { hide: true } }, async (req, reply) => {
    const c = await context(req, reply, { projectId: pid(req), permission: 'keys:manage' });
    await revokeKey(req.em, c.principal!, c.projectRow!, (req.params as { key_id: string }).key_id);
    return back(reply, `/dashboard/projects/${c.project!.id}/keys`);
  });

  // Webhook.
  const webhookView = async (req: FastifyRequest, c: Ctx, o: Parameters<typeof views.webhookPage>[3] = {}) =>
    views.webhookPage(c, viewWebhook(c.projectRow!), await listDeliveries(req.em, c.projectRow!), o);
  app.get('/dashboard/projects/:project_id/webhook', { schema: { hide: true } }, async (req, reply) => {
    const c = await context(req, reply, { projectId: pid(req) });
    return send(reply, 200, await webhookView(req, c, { saved: (req.query as { saved?: string }).saved === '1' }));
  });
  app.post('/dashboard/projects/:project_id/webhook', { schema: { hide: true } }, async (req, reply) => {
    const c = await context(req, reply, { projectId: pid(req), permission: 'webhook:manage' });
    const b = body(req);
    let r: Awaited<ReturnType<typeof putWebhook>>;
    try {
      r = await putWebhook(req.em, req.deps.config, c.principal!, c.projectRow!, { url: (b.url ?? '').trim(), include_result: b.include_result === '1', regenerate: b.regenerate === '1' });
    } catch (err) {
      const e = formError(err);
      return send(reply, e.status, await webhookView(req, c, { error: e.errors[0]?.message ? `${e.message}` : e.message }));
    }
    if (r.secret) return send(reply, 200, await webhookView(req, c, { secret: r.secret, saved: true }));
    return back(reply, `/dashboard/projects/${c.project!.id}/webhook?saved=1`);
  });
  app.post('/dashboard/projects/:project_id/webhook/clear', { schema: { hide: true } }, async (req, reply) => {
    const c = await context(req, reply, { projectId: pid(req), permission: 'webhook:manage' });
    await clearWebhook(req.em, c.principal!, c.projectRow!);
    return back(reply, `/dashboard/projects/${c.project!.id}/webhook?saved=1`);
  });

  // Branding, with a live preview of the hosted page.
  const brandingFrom = (b: Record<string, string | undefined>) =>
    Object.fromEntries(['name', 'logo_url', 'primary_colour', 'background_colour', 'text_colour'].map((k) => [k, (b[k] ?? '').trim()]).filter(([, v]) => v));
  app.get('/dashboard/projects/:project_id/branding', { schema: { hide: true } }, async (req, reply) => {
    const c = await context(req, reply, { projectId: pid(req) });
    return send(reply, 200, views.brandingPage(c, c.projectRow!.branding ?? {}, { saved: (req.query as { saved?: string }).saved === '1' }));
  });
  app.post('/dashboard/projects/:project_id/branding', { schema: { hide: true } }, async (req, reply) => {
    const c = await context(req, reply, { projectId: pid(req), permission: 'branding:manage' });
    const candidate = brandingFrom(body(req));
    const parsed = ZBranding.safeParse(candidate);
    if (!parsed.success) {
      const msg = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
      return send(reply, 422, views.brandingPage(c, candidate, { error: msg }));
    }
    await updateBranding(req.em, c.principal!, c.projectRow!, parsed.data);
    return back(reply, `/dashboard/projects/${c.project!.id}/branding?saved=1`);
  });
  app.get('/dashboard/projects/:project_id/branding/preview', { schema: { hide: true } }, async (req, reply) => {
    const c = await context(req, reply, { projectId: pid(req) });
    // Invalid fields are dropped (the hosted page would ignore them too).
    const q = brandingFrom(req.query as Record<string, string>);
    const b: Record<string, string> = {};
    for (const [k, v] of Object.entries(q)) if (ZBranding.safeParse({ [k]: v }).success) b[k] = v as string;
    const page = capturePage(c.locale, b, [{ country: 'MOZ', types: ['national_id', 'passport'] }], 'collecting').replace(/<script[^>]*><\/script>/g, '');
    return reply.code(200).headers(PREVIEW_HEADERS).type('text/html; charset=utf-8').send(page);
  });

  // Team.
  const teamView = async (req: FastifyRequest, c: Ctx, error?: string) => {
    const p = await orgAccess(req.em, c.userId, c.org?.id, 'team:read');
    return views.teamPage(c, await listMembers(req.em, p), await listPendingInvitations(req.em, p), { error });
  };
  app.get('/dashboard/team', { schema: { hide: true } }, async (req, reply) => {
    const c = await context(req, reply, { orgPermission: 'team:read' });
    return send(reply, 200, await teamView(req, c));
  });
  app.post('/dashboard/team/invitations', { schema: { hide: true } }, async (req, reply) => {
    const c = await context(req, reply, { orgPermission: 'team:manage' });
    const parsed = ZInvitationBody.safeParse({ email: body(req).email ?? '', role: body(req).role });
    if (!parsed.success) return send(reply, 400, await teamView(req, c, `${c.t.email}: ${parsed.error.issues[0]?.message ?? 'invalid'}`));
    try {
      await invite(req.em, c.principal!, parsed.data);
    } catch (err) {
      const e = formError(err);
      return send(reply, e.status, await teamView(req, c, e.message));
    }
    return back(reply, '/dashboard/team');
  });
  app.post('/dashboard/team/invitations/:id/revoke', { schema: { hide: true } }, async (req, reply) => {
    const c = await context(req, reply, { orgPermission: 'team:manage' });
    await revokeInvitation(req.em, c.principal!, (req.params as { id: string }).id);
    return back(reply, '/dashboard/team');
  });
  app.post('/dashboard/team/members/:user_id/role', { schema: { hide: true } }, async (req, reply) => {
    const c = await context(req, reply, { orgPermission: 'team:manage' });
    const role = ZRole.safeParse(body(req).role);
    if (!role.success) return send(reply, 400, await teamView(req, c, c.t.role));
    try {
      await changeRole(req.em, c.principal!, (req.params as { user_id: string }).user_id, role.data);
    } catch (err) {
      const e = formError(err);
      return send(reply, e.status, await teamView(req, c, e.message));
    }
    return back(reply, '/dashboard/team');
  });
  app.post('/dashboard/team/members/:user_id/remove', { schema: { hide: true } }, async (req, reply) => {
    const c = await context(req, reply, { orgPermission: 'team:manage' });
    try {
      await removeMember(req.em, c.principal!, (req.params as { user_id: string }).user_id);
    } catch (err) {
      const e = formError(err);
      return send(reply, e.status, await teamView(req, c, e.message));
    }
    return back(reply, '/dashboard/team');
  });

  // Audit log (owners and admins).
  app.get('/dashboard/audit', { schema: { hide: true } }, async (req, reply) => {
    const c = await context(req, reply, { orgPermission: 'audit:read' });
    return send(reply, 200, views.auditPage(c, await listAudit(req.em, c.org!.id)));
  });

  // Verifications and Case Management (issue 17): api/routes/dashboard-cases.ts.
  dashboardCaseRoutes(app, { context, send });
}

