import os from 'node:os';
import { CURRENT_ENGINE_PROFILE } from '../domain/engine-profile.js';
import { WorkerStatus } from '../db/entities/index.js';
import { startEngines } from './checks/index.js';
import type { ActivityDeps } from './deps.js';

/** How often a running worker refreshes its row; `/readyz` counts a row older than 3× as gone. */
export const WORKER_STATUS_EVERY_MS = 10_000;

/**
 * Publishes what this worker can run for `/readyz`: a row with the current engine profile and,
 * once its engines have started, each engine's state. Starting them here also spares the first
 * Case the model loading. Never throws: a status that cannot be written only makes the api
 * report the worker's engines as unknown.
 */
export function publishWorkerStatus(deps: ActivityDeps): { stop(): Promise<void> } {
  const id = `${os.hostname()}:${process.pid}:${Date.now()}`;
  const startedAt = new Date();
  let engines: Record<string, { ok: boolean; reason?: string }> | null = null;
  const write = async () => {
    try {
      await deps.orm.em.fork().upsert(WorkerStatus, {
        id, taskQueue: deps.config.temporal.taskQueue, engineProfile: CURRENT_ENGINE_PROFILE, engines, startedAt, seenAt: new Date(),
      });
    } catch (err) {
      deps.log.warn({ err: (err as Error).message }, 'worker status not written');
    }
  };
  void write();
  const started = startEngines(deps, CURRENT_ENGINE_PROFILE).then(
    async (r) => {
      engines = r;
      await write();
    },
    (err: Error) => deps.log.warn({ err: err.message }, 'engines did not start'),
  );
  const timer = setInterval(() => void write(), WORKER_STATUS_EVERY_MS);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await started;
      await deps.orm.em.fork().nativeDelete(WorkerStatus, { id }).catch(() => undefined);
    },
  };
}
