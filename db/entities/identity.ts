import { defineEntity, p, type InferEntity } from '@mikro-orm/postgresql';

/** A provider account (Google `sub`, GitHub user id) linked to a user. */
export const Identity = defineEntity({
  name: 'Identity',
  tableName: 'identities',
  uniques: [{ properties: ['provider', 'subject'] }],
  properties: {
    id: p.string().length(40).primary(),
    userId: p.string().length(40).index(),
    provider: p.string().length(16),
    subject: p.string().length(255),
    createdAt: p.datetime(),
  },
});
export type IIdentity = InferEntity<typeof Identity>;
