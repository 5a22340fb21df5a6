import type { EntityManager, FilterQuery } from '@mikro-orm/postgresql';
import { AppError } from '../domain/errors.js';
import type { Principal } from '../domain/principal.js';
import { Verification, type IVerification } from '../db/entities/index.js';
import { actingProjectId } from './tenancy.js';
import { viewVerification } from './verification-view.js';

export interface ListQuery {
  limit: number;
  cursor?: string;
  status?: string;
  assessment?: string;
  created_after?: string;
  created_before?: string;
  /** Dashboard filters (session pages only). */
  flow_id?: string;
  flow_version_ref?: number;
  reference?: string;
  /** A Case id or an exact reference. */
  search?: string;
}

/** Opaque keyset cursor over (created_at desc, id desc): stable under concurrent inserts. */
function encodeCursor(v: IVerification): string {
  return Buffer.from(JSON.stringify([v.createdAt.toISOString(), v.id])).toString('base64url');
}

function decodeCursor(cursor: string): { createdAt: Date; id: string } {
  try {
    const [at, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as [string, string];
    const createdAt = new Date(at);
    if (Number.isNaN(createdAt.getTime()) || typeof id !== 'string') throw new Error('bad');
    return { createdAt, id };
  } catch {
    throw new AppError('validation_failed', 'The cursor is not valid.', [{ field: 'cursor', code: 'invalid_cursor', message: 'use next_cursor from a previous page' }]);
  }
}

/** `GET /v1/verifications`: the principal's project's Cases, newest first (keyset pages), without results. */
export async function listVerifications(em: EntityManager, principal: Principal, q: ListQuery) {
  const page = await listCases(em, actingProjectId(principal), q);
  return { data: page.items.map((v) => viewVerification(v, { includeResult: false })), next_cursor: page.nextCursor };
}

export async function listCases(em: EntityManager, projectId: string, q: ListQuery): Promise<{ items: IVerification[]; nextCursor: string | null }> {
  const and: FilterQuery<IVerification>[] = [{ projectId }];
  if (q.status) and.push({ status: q.status });
  if (q.assessment) and.push({ assessment: q.assessment });
  if (q.created_after) and.push({ createdAt: { $gt: new Date(q.created_after) } });
  if (q.created_before) and.push({ createdAt: { $lt: new Date(q.created_before) } });
  if (q.flow_id) and.push({ flowId: q.flow_id });
  if (q.flow_version_ref !== undefined) and.push({ flowVersionRef: q.flow_version_ref });
  if (q.reference) and.push({ reference: q.reference });
  if (q.search) and.push({ $or: [{ id: q.search }, { reference: q.search }] });
  if (q.cursor) {
    const c = decodeCursor(q.cursor);
    and.push({ $or: [{ createdAt: { $lt: c.createdAt } }, { createdAt: c.createdAt, id: { $lt: c.id } }] });
  }
  const rows = await em.find(Verification, { $and: and }, { orderBy: { createdAt: 'desc', id: 'desc' }, limit: q.limit + 1 });
  const items = rows.slice(0, q.limit);
  return { items, nextCursor: rows.length > q.limit ? encodeCursor(items[items.length - 1]!) : null };
}
