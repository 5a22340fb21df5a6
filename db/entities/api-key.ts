import { defineEntity, p, type InferEntity } from '@mikro-orm/postgresql';

/** Keys are stored as sha256 hashes; the raw value exists only in the creation response. */
export const ApiKey = defineEntity({
  name: 'ApiKey',
  tableName: 'api_keys',
  properties: {
    id: p.string().length(40).primary(),
    projectId: p.string().length(40).index(),
    name: p.string().length(200),
    /** First characters of the raw key, shown in listings so people can tell keys apart. */
    prefix: p.string().length(24),
    hash: p.string().length(64).unique(),
    createdAt: p.datetime(),
    revokedAt: p.datetime().nullable(),
    lastUsedAt: p.datetime().nullable(),
  },
});
export type IApiKey = InferEntity<typeof ApiKey>;
