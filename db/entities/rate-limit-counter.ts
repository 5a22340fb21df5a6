import { defineEntity, p, type InferEntity } from '@mikro-orm/postgresql';

/**
 * Fixed-window request counters shared by every api process (api/plugins/rate-limit-store.ts
 * upserts them atomically). `key` is `<limiter>:<subject>`, where the subject is a client IP or a
 * sha256 prefix of a credential, never the credential itself.
 */
export const RateLimitCounter = defineEntity({
  name: 'RateLimitCounter',
  tableName: 'rate_limit_counters',
  properties: {
    key: p.string().length(200).primary(),
    count: p.integer(),
    windowEndsAt: p.datetime().index(),
  },
});
export type IRateLimitCounter = InferEntity<typeof RateLimitCounter>;
