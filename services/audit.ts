import type { EntityManager } from '@mikro-orm/postgresql';
import { newId } from '../domain/ids.js';
import type { Principal } from '../domain/principal.js';
import { AuditEvent, Project, User, type IAuditEvent } from '../db/entities/index.js';

/** The audited actions: privileged changes and sign-ins. Codes only; `meta` never carries PII. */
export const AUDIT_ACTIONS = [
  'session.signed_in', 'session.signed_out',
  'key.created', 'key.revoked', 'key.rotated',
  'webhook.set', 'webhook.secret_regenerated', 'webhook.cleared',
  'branding.updated', 'project.created',
  'member.role_changed', 'member.removed', 'member.owner_granted',
  'invitation.created', 'invitation.revoked', 'invitation.accepted',
  'case.disposition_recorded', 'case.erased',
  'template_draft.saved', 'template_draft.deleted', 'flow.activated', 'flow.version_published',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

type Meta = Record<string, string | number | boolean | null>;

/**
 * Records one audit event inside the caller's unit of work (flushed with the change it audits).
 * The org is taken from the principal, or from the project for API-key callers.
 */
export async function audit(em: EntityManager, actor: Principal | { kind: 'operator' } | { kind: 'user'; userId: string; orgId: string | null },
  action: AuditAction, target: { projectId?: string | null; targetId?: string | null; orgId?: string | null; meta?: Meta } = {}): Promise<void> {
  let orgId = target.orgId ?? null;
  if (!orgId && actor.kind === 'member') orgId = actor.orgId;
  if (!orgId && actor.kind === 'user') orgId = actor.orgId;
  const projectId = target.projectId ?? (actor.kind === 'api_key' ? actor.projectId : null);
  if (!orgId && projectId) orgId = (await em.findOne(Project, { id: projectId }, { fields: ['orgId'] }))?.orgId ?? null;
  em.create(AuditEvent, {
    id: newId('auditEvent'),
    orgId,
    projectId,
    actorUserId: actor.kind === 'member' || actor.kind === 'user' ? actor.userId : null,
    actorApiKeyId: actor.kind === 'api_key' ? actor.apiKeyId : null,
    action,
    targetId: target.targetId ?? null,
    meta: target.meta ?? null,
    createdAt: new Date(),
  });
}

export interface AuditView { id: string; at: string; action: string; actor: string; actor_kind: 'user' | 'api_key' | 'operator'; project_id: string | null; target_id: string | null; meta: Meta | null }

/** Newest first; the actor's email is joined at read time (owners and admins see their members). */
export async function listAudit(em: EntityManager, orgId: string, limit = 200): Promise<AuditView[]> {
  const events = await em.find(AuditEvent, { orgId }, { orderBy: { createdAt: 'desc', id: 'desc' }, limit });
  const userIds = [...new Set(events.map((e) => e.actorUserId).filter((x): x is string => Boolean(x)))];
  const users = userIds.length ? await em.find(User, { id: { $in: userIds } }) : [];
  const email = new Map(users.map((u) => [u.id, u.email]));
  return events.map((e: IAuditEvent) => ({
    id: e.id,
    at: e.createdAt.toISOString(),
    action: e.action,
    actor: e.actorUserId ? (email.get(e.actorUserId) ?? e.actorUserId) : (e.actorApiKeyId ?? 'operator'),
    actor_kind: e.actorUserId ? 'user' : e.actorApiKeyId ? 'api_key' : 'operator',
    project_id: e.projectId ?? null,
    target_id: e.targetId ?? null,
    meta: e.meta ?? null,
  }));
}
