import { defineEntity, p, type InferEntity } from '@mikro-orm/postgresql';

/** A dashboard user. The email is the verified address from the provider, lower-cased. */
export const User = defineEntity({
  name: 'User',
  tableName: 'users',
  properties: {
    id: p.string().length(40).primary(),
    email: p.string().length(320).unique(),
    name: p.string().length(200).nullable(),
    createdAt: p.datetime(),
    lastSignInAt: p.datetime().nullable(),
  },
});
export type IUser = InferEntity<typeof User>;
