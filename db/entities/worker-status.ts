import { defineEntity, p, type InferEntity } from '@mikro-orm/postgresql';

/**
 * What each running worker can do, for `/readyz`: the engine profile new Cases get and, per
 * engine, whether it started (models present and their hashes right) or why not. A worker writes
 * its row when its engines have started and refreshes `seenAt` while it runs; a row not seen for
 * a while belongs to a worker that is gone. PII-free: ids, codes and times only.
 */
export const WorkerStatus = defineEntity({
  name: 'WorkerStatus',
  tableName: 'worker_status',
  properties: {
    id: p.string().length(200).primary(),
    taskQueue: p.string().length(200).index(),
    engineProfile: p.string().length(64),
    engines: p.json<Record<string, { ok: boolean; reason?: string }>>().nullable(),
    startedAt: p.datetime(),
    seenAt: p.datetime(),
  },
});
export type IWorkerStatus = InferEntity<typeof WorkerStatus>;
