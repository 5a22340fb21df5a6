import { defineEntity, p, type InferEntity } from '@mikro-orm/postgresql';
import type { TReviewState } from '../../domain/case-result.js';

/**
 * One customer disposition recorded on a Case (Case Management). Append-only: a new disposition
 * is a new row, never an update, so the history says who recorded what and when. Kept apart from
 * the assessment, which it never changes. `note` is free text a reviewer typed and may name the
 * person: erasure nulls it (and sets `noteErasedAt`), leaving the PII-free trace (who, when, state).
 */
export const CaseDisposition = defineEntity({
  name: 'CaseDisposition',
  tableName: 'case_dispositions',
  indexes: [{ properties: ['verificationId', 'createdAt'] }],
  properties: {
    id: p.string().length(40).primary(),
    verificationId: p.string().length(40),
    projectId: p.string().length(40),
    actorUserId: p.string().length(40),
    state: p.string().length(40),
    /** PII-ish: erased with the Case. */
    note: p.text().nullable(),
    noteErasedAt: p.datetime().nullable(),
    createdAt: p.datetime(),
  },
});
export type ICaseDisposition = InferEntity<typeof CaseDisposition>;

