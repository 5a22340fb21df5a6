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
    /**
     * Capture metadata, e.g. a liveness frame's timestamp, colour and nonce. One exception to
     * "no PII": the first liveness frame's camera facts carry the device label, which can name
     * its owner; like the frames it is Case data (reviewers of the Case, erased with it) and never
     * goes into check evidence, logs or webhooks (the engine keeps only the label's class).
     */
    meta: p.json<Record<string, unknown>>().nullable(),
    createdAt: p.datetime(),
  },
});
export type IUpload = InferEntity<typeof Upload>;
