import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError } from '../domain/errors.js';
import type { ApiKeyPrincipal, Principal } from '../domain/principal.js';
import { Project, Verification, type IProject, type IVerification } from '../db/entities/index.js';

/**
 * Tenancy, in one place: which project a principal acts on. An API key acts on its own project
 * only; naming another project is 404 (never 403, so ids do not leak). Member principals (the
 * dashboard's sessions) are resolved to their allowed projects by the dashboard's guard, which
 * is not in this build: a member principal reaching a project service is refused here.
 */
export function actingProjectId(principal: Principal, requested?: string): string {
  if (principal.kind !== 'api_key') throw new AppError('forbidden', 'This action needs a project API key.');
  if (requested !== undefined && requested !== principal.projectId) throw new AppError('not_found', 'No such project.');
  return principal.projectId;
}

/** The principal's project row (the identity map already holds it after authentication: no second query). */
export async function actingProject(em: EntityManager, principal: Principal, requested?: string): Promise<IProject> {
  const id = actingProjectId(principal, requested);
  const project = await em.findOne(Project, { id });
  if (!project) throw new AppError('not_found', 'No such project.');
  return project;
}

/** For actions that only an API key itself can take (rotating the calling key). */
export function requireApiKeyPrincipal(principal: Principal): ApiKeyPrincipal {
  if (principal.kind !== 'api_key') throw new AppError('forbidden', 'This action needs a project API key.');
  return principal;
}

/** The Case ownership check: a Case of another project is 404, exactly like one that does not exist. */
export async function findOwnCase(em: EntityManager, principal: Principal, caseId: string): Promise<IVerification> {
  const v = await em.findOne(Verification, { id: caseId, projectId: actingProjectId(principal) });
  if (!v) throw new AppError('not_found', 'No such verification.');
  return v;
}
