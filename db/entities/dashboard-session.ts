import { defineEntity, p, type InferEntity } from '@mikro-orm/postgresql';

/**
 * A signed-in dashboard session. The cookie holds a random token; only its sha256 is stored.
 * `csrfToken` is the synchroniser token every state-changing request must echo.
 */
export const DashboardSession = defineEntity({
  name: 'DashboardSession',
  tableName: 'dashboard_sessions',
  properties: {
    id: p.string().length(40).primary(),
    tokenHash: p.string().length(64).unique(),
    userId: p.string().length(40).index(),
    csrfToken: p.string().length(64),
    activeOrgId: p.string().length(40).nullable(),
    activeProjectId: p.string().length(40).nullable(),
    createdAt: p.datetime(),
    lastSeenAt: p.datetime(),
    /** Absolute expiry: createdAt + 7 days, never extended. */
    expiresAt: p.datetime(),
  },
});
export type IDashboardSession = InferEntity<typeof DashboardSession>;
