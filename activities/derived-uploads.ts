import type { EntityManager } from '@mikro-orm/postgresql';
import sharp from 'sharp';
import { newId } from '../domain/ids.js';
import { Upload } from '../db/entities/index.js';
import { sha256Hex } from '../platform/crypto.js';
import type { BlobStore } from '../platform/blob-store.js';

/**
 * Images the checks derive for each other (the normalised document crop, the best liveness
 * frame). They are PII like every capture: encrypted in the Case's blob directory and erased with
 * it. A retried activity replaces its earlier derivative.
 */
export type DerivedKind = 'document_normalized' | 'liveness_best';

export async function storeDerived(em: EntityManager, blobs: BlobStore, caseId: string, kind: DerivedKind, bytes: Buffer, meta: Record<string, unknown> | null): Promise<void> {
  const info = await sharp(bytes).metadata();
  const old = await em.find(Upload, { verificationId: caseId, kind });
  const blobKey = await blobs.put(caseId, bytes);
  for (const u of old) em.remove(u);
  em.create(Upload, { id: newId('upload'), verificationId: caseId, kind, blobKey, sha256: sha256Hex(bytes), sizeBytes: bytes.length, mime: `image/${info.format ?? 'jpeg'}`, width: info.width ?? 0, height: info.height ?? 0, meta, createdAt: new Date() });
  await em.flush();
  await Promise.all(old.map((u) => blobs.delete(u.blobKey)));
}
