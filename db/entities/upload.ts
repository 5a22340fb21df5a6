import { defineEntity, p, type InferEntity } from '@mikro-orm/postgresql';

/** An uploaded capture. The bytes are PII and live encrypted in the blob store under `blobKey`. */
export const Upload = defineEntity({
  name: 'Upload',
  tableName: 'uploads',
  properties: {
    id: p.string().length(40).primary(),
    verificationId: p.string().length(40).index(),
    kind: p.string().length(24),
    blobKey: p.string().length(80),
    sha256: p.string().length(64),
    sizeBytes: p.integer(),
    mime: p.string().length(40),
    width: p.integer(),
    height: p.integer(),
    /** PII-free capture metadata, e.g. a liveness frame's timestamp, colour and nonce. */
    meta: p.json<Record<string, unknown>>().nullable(),
    createdAt: p.datetime(),
  },
});
export type IUpload = InferEntity<typeof Upload>;
