import type { EntityManager } from '@mikro-orm/postgresql';
import { ApplicationFailure } from '@temporalio/common';
import { Upload, Verification, type IUpload, type IVerification } from '../db/entities/index.js';
import type { BlobStore } from '../platform/blob-store.js';

export interface CaseInputs {
  verification: IVerification;
  uploads: IUpload[];
  first(kind: string): IUpload | undefined;
  all(kind: string): IUpload[];
  bytes(upload: IUpload): Promise<Buffer>;
}

/**
 * Loads a Case and its uploads for a check. A Case that vanished (erased mid-flight) is a
 * non-retryable `case_inputs_missing`: retrying cannot bring PII back.
 */
export async function loadCaseInputs(em: EntityManager, blobs: BlobStore, caseId: string): Promise<CaseInputs> {
  const verification = await em.findOne(Verification, { id: caseId });
  if (!verification || verification.status === 'erased') {
    throw ApplicationFailure.create({ type: 'case_inputs_missing', message: 'case erased or missing', nonRetryable: true });
  }
  const uploads = await em.find(Upload, { verificationId: caseId }, { orderBy: { createdAt: 'asc' } });
  return {
    verification,
    uploads,
    first: (kind) => uploads.find((u) => u.kind === kind),
    all: (kind) => uploads.filter((u) => u.kind === kind),
    bytes: async (u) => {
      try {
        return await blobs.get(u.blobKey);
      } catch {
        throw ApplicationFailure.create({ type: 'case_inputs_missing', message: 'upload blob missing', nonRetryable: true });
      }
    },
  };
}
