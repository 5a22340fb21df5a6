import { defineEntity, p, type InferEntity } from '@mikro-orm/postgresql';
import type { Role } from '../../domain/principal.js';

/** A user's role in an org; the permission table (domain/permissions.ts) maps it to permissions. */
export const Membership = defineEntity({
  name: 'Membership',
  tableName: 'memberships',
  uniques: [{ properties: ['orgId', 'userId'] }],
  properties: {
    id: p.string().length(40).primary(),
    orgId: p.string().length(40),
    userId: p.string().length(40).index(),
    role: p.string().length(16).$type<Role>(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export type IMembership = InferEntity<typeof Membership>;
