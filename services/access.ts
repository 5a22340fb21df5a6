import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError } from '../domain/errors.js';
import { can, type Permission } from '../domain/permissions.js';
import type { ApiKeyPrincipal, MemberPrincipal } from '../domain/principal.js';
import { Membership, Project, Verification, type IProject, type IVerification } from '../db/entities/index.js';

/**
 * The one access guard. Every dashboard page and every session-scoped /v1 route asks it before
 * touching a project or an org. Outsiders get 404 (the object's existence is not disclosed);
 * members without the permission get 403.
 *
 * The caller is either a project API key (already authenticated) or a signed-in user; the user
 * becomes a MemberPrincipal of the org that owns the object.
 */
export type Caller = { kind: 'api_key'; principal: ApiKeyPrincipal } | { kind: 'user'; userId: string };

const notFound = (what: string) => new AppError('not_found', `No such ${what}.`);

export async function memberOf(em: EntityManager, userId: string, orgId: string): Promise<MemberPrincipal | null> {
  const m = await em.findOne(Membership, { orgId, userId });
  return m ? { kind: 'member', userId, orgId, role: m.role } : null;
}

export async function projectAccess(em: EntityManager, caller: Caller, projectId: string, permission: Permission): Promise<{ project: IProject; principal: ApiKeyPrincipal | MemberPrincipal }> {
  if (caller.kind === 'api_key') {
    // A key acts on its own project only, with the project-settings permissions it always had.
    if (caller.principal.projectId !== projectId) throw notFound('project');
    const project = await em.findOne(Project, { id: projectId });
    if (!project) throw notFound('project');
    if (!['project:read', 'keys:manage', 'webhook:manage', 'branding:manage'].includes(permission)) throw new AppError('forbidden', 'This needs a signed-in dashboard session.');
    return { project, principal: caller.principal };
  }
  const project = await em.findOne(Project, { id: projectId });
  if (!project) throw notFound('project');
  const principal = await memberOf(em, caller.userId, project.orgId);
  if (!principal) throw notFound('project');
  if (!can(principal.role, permission)) throw new AppError('forbidden', `Your role (${principal.role}) does not allow ${permission}.`);
  return { project, principal };
}

export async function orgAccess(em: EntityManager, userId: string, orgId: string | null | undefined, permission: Permission): Promise<MemberPrincipal> {
  if (!orgId) throw notFound('org');
  const principal = await memberOf(em, userId, orgId);
  if (!principal) throw notFound('org');
  if (!can(principal.role, permission)) throw new AppError('forbidden', `Your role (${principal.role}) does not allow ${permission}.`);
  return principal;
}

/**
 * A Case, for a signed-in member of the org that owns its project: 404 when the Case does not
 * exist or the caller is not a member (its existence is not disclosed), 403 without the permission.
 */
export async function caseAccess(em: EntityManager, userId: string, caseId: string, permission: Permission): Promise<{ verification: IVerification; project: IProject; principal: MemberPrincipal }> {
  const verification = await em.findOne(Verification, { id: caseId });
  if (!verification) throw notFound('verification');
  const project = await em.findOne(Project, { id: verification.projectId });
  if (!project) throw notFound('verification');
  const principal = await memberOf(em, userId, project.orgId);
  if (!principal) throw notFound('verification');
  if (!can(principal.role, permission)) throw new AppError('forbidden', `Your role (${principal.role}) does not allow ${permission}.`);
  return { verification, project, principal };
}
