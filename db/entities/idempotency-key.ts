import { defineEntity, p, type InferEntity } from '@mikro-orm/postgresql';

/**
 * An `Idempotency-Key` sent with a create (`POST /v1/verifications`, Flow intake), kept 24 h so a
 * client that retries a create whose answer it lost gets the same Case back instead of a second
 * one (services/idempotency.ts). Neither the key nor the request is stored: only HMACs under the
 * secrets key (a key may be anything the integrator chose, an email included). `linkCodeEnc` is the
 * Case's link code, sealed, so a replay can answer the same `short_url`; erasure nulls it and the
 * request HMAC, and the row stays as a tombstone that still refuses a second Case for the key.
 */
export const IdempotencyKey = defineEntity({
  name: 'IdempotencyKey',
  tableName: 'idempotency_keys',
  properties: {
    projectId: p.string().length(40).primary(),
    keyHash: p.string().length(64).primary(),
    /** The route the key was used on (`verifications`, or `intake:<flow slug>`). */
    scope: p.string().length(120),
    requestHash: p.string().length(64).nullable(),
    verificationId: p.string().length(40).index(),
    linkCodeEnc: p.text().nullable(),
    createdAt: p.datetime(),
    expiresAt: p.datetime().index(),
  },
});
export type IIdempotencyKey = InferEntity<typeof IdempotencyKey>;
