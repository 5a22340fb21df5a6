import { defineEntity, p, type InferEntity } from '@mikro-orm/postgresql';
import type { Role } from '../../domain/principal.js';

/**
 * An invitation by email and role. `pending` until the invitee signs in with that verified email
 * (`accepted`) or a manager revokes it (`revoked`). No email is sent.
 */
export const Invitation = defineEntity({
  name: 'Invitation',
  tableName: 'invitations',
  indexes: [{ properties: ['email', 'status'] }],
  properties: {
    id: p.string().length(40).primary(),
    orgId: p.string().length(40).index(),
    email: p.string().length(320),
    role: p.string().length(16).$type<Role>(),
    status: p.string().length(16).$type<'pending' | 'accepted' | 'revoked'>(),
    invitedByUserId: p.string().length(40).nullable(),
    acceptedUserId: p.string().length(40).nullable(),
    createdAt: p.datetime(),
    resolvedAt: p.datetime().nullable(),
  },
});
export type IInvitation = InferEntity<typeof Invitation>;
