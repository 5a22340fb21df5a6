import { defineEntity, p, type InferEntity } from '@mikro-orm/postgresql';

/** A short-lived capture session; the token itself is never stored, only its sha256. */
export const CaptureSession = defineEntity({
  name: 'CaptureSession',
  tableName: 'capture_sessions',
  properties: {
    id: p.string().length(40).primary(),
    verificationId: p.string().length(40).index(),
    tokenHash: p.string().length(64).unique(),
    expiresAt: p.datetime(),
    createdAt: p.datetime(),
  },
});
export type ICaptureSession = InferEntity<typeof CaptureSession>;
