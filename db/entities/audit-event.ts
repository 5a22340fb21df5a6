import { defineEntity, p, type InferEntity } from '@mikro-orm/postgresql';

/**
 * A privileged action: who (user or API key id), when, what, on which object. PII-free: ids and
 * codes only, never an email or a name (the page joins the actor's email at read time, for members).
 */
export const AuditEvent = defineEntity({
  name: 'AuditEvent',
  tableName: 'audit_events',
  indexes: [{ properties: ['orgId', 'createdAt'] }],
  properties: {
    id: p.string().length(40).primary(),
    orgId: p.string().length(40).nullable(),
    projectId: p.string().length(40).nullable(),
    actorUserId: p.string().length(40).nullable(),
    actorApiKeyId: p.string().length(40).nullable(),
    action: p.string().length(48),
    targetId: p.string().length(48).nullable(),
    meta: p.json<Record<string, string | number | boolean | null>>().nullable(),
    createdAt: p.datetime(),
  },
});
export type IAuditEvent = InferEntity<typeof AuditEvent>;
