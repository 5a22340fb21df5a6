import type { EntityManager } from '@mikro-orm/postgresql';
import type { Permission } from '../domain/permissions.js';
import type { MemberPrincipal, Role } from '../domain/principal.js';
import { Membership, Org, Project, User, type IDashboardSession, type IOrg, type IProject, type IUser } from '../db/entities/index.js';
import { memberOf, orgAccess, projectAccess } from './access.js';

/**
 * What a dashboard page works in: the signed-in user, the org and project it acts on, and the
 * user's membership there. With a project id the guard resolves it for `permission` (404 for an
 * outsider); otherwise the session's active org (or the user's first), and its active project.
 * The session remembers the choice.
 */
export async function resolveWorkspace(
  em: EntityManager,
  session: IDashboardSession,
  o: { projectId?: string; permission?: Permission; orgPermission?: Permission } = {},
): Promise<{ user: IUser; principal: MemberPrincipal | null; project: IProject | null; org: IOrg | null }> {
  const user = await em.findOneOrFail(User, { id: session.userId });
  let principal: MemberPrincipal | null = null;
  let project: IProject | null = null;
  if (o.projectId) {
    const r = await projectAccess(em, { kind: 'user', userId: user.id }, o.projectId, o.permission ?? 'project:read');
    project = r.project;
    principal = r.principal as MemberPrincipal;
  } else {
    let orgId = session.activeOrgId;
    if (!orgId || !(await memberOf(em, user.id, orgId))) orgId = (await em.findOne(Membership, { userId: user.id }, { orderBy: { createdAt: 'asc' } }))?.orgId ?? null;
    principal = orgId ? (o.orgPermission ? await orgAccess(em, user.id, orgId, o.orgPermission) : await memberOf(em, user.id, orgId)) : null;
    if (principal) {
      project = session.activeProjectId ? await em.findOne(Project, { id: session.activeProjectId, orgId: principal.orgId }) : null;
      project ??= await em.findOne(Project, { orgId: principal.orgId }, { orderBy: { createdAt: 'asc' } });
    }
  }
  if (principal && (session.activeOrgId !== principal.orgId || (project && session.activeProjectId !== project.id))) {
    session.activeOrgId = principal.orgId;
    session.activeProjectId = project?.id ?? null;
    await em.flush();
  }
  const org = principal ? await em.findOneOrFail(Org, { id: principal.orgId }) : null;
  return { user, principal, project, org };
}

export interface OrgEntry {
  id: string;
  name: string;
  role: Role;
  projects: Array<{ id: string; name: string; sandbox: boolean }>;
}

/** The org and project switcher: every org the user belongs to, with its projects. */
export async function listOrgEntries(em: EntityManager, userId: string): Promise<OrgEntry[]> {
  const ms = await em.find(Membership, { userId }, { orderBy: { createdAt: 'asc' } });
  const orgs = ms.length ? await em.find(Org, { id: { $in: ms.map((m) => m.orgId) } }) : [];
  const projects = ms.length ? await em.find(Project, { orgId: { $in: ms.map((m) => m.orgId) } }, { orderBy: { createdAt: 'asc' } }) : [];
  return ms.map((m) => ({
    id: m.orgId, name: orgs.find((o) => o.id === m.orgId)!.name, role: m.role,
    projects: projects.filter((p) => p.orgId === m.orgId).map((p) => ({ id: p.id, name: p.name, sandbox: p.sandbox })),
  }));
}
