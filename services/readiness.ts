import { CURRENT_ENGINE_PROFILE } from '../domain/engine-profile.js';
import { WorkerStatus } from '../db/entities/index.js';
import type { ServiceDeps } from './deps.js';

/** Must match activities/worker-status.ts (how often a worker refreshes its row). */
const WORKER_STATUS_EVERY_MS = 10_000;

export interface ProbeResult {
  ok: boolean;
  ms: number;
  /** PII-free: an error class or a short fact, never a connection string. */
  detail?: string;
}

export interface Readiness {
  ready: boolean;
  checks: { postgres: ProbeResult; temporal: ProbeResult; worker: ProbeResult; engines: ProbeResult };
}

const PROBE_TIMEOUT_MS = 2_000;

async function probe(fn: () => Promise<string | undefined>): Promise<ProbeResult> {
  const started = Date.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('timeout')), PROBE_TIMEOUT_MS);
    });
    const detail = await Promise.race([fn(), timeout]);
    return { ok: true, ms: Date.now() - started, ...(detail ? { detail } : {}) };
  } catch (err) {
    const e = err as Error;
    return { ok: false, ms: Date.now() - started, detail: e.message === 'timeout' ? 'timeout' : e.name || 'error' };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * `/readyz`: can this api serve a Case end to end right now? PostgreSQL answers a query; the
 * Temporal frontend knows the namespace; and a worker polls the task queue. The worker is also
 * where the engines run: it refuses to start when it cannot honour the engine profile or policy
 * revision of a live Case (activities/stamps.ts), so a polling worker is one that can run every
 * live Case's stamps. Each worker also publishes whether the engines of the current profile started
 * (activities/worker-status.ts): the service is ready only when at least one live worker has all
 * of them, and otherwise names the missing engines. (A Case reaching a worker without an engine
 * still ends `assessment_incomplete`, never a pass.)
 */
export async function checkReadiness(deps: ServiceDeps): Promise<Readiness> {
  const { namespace, taskQueue } = deps.config.temporal;
  const [postgres, temporal, worker, engines] = await Promise.all([
    probe(async () => {
      await deps.em.getConnection().execute('select 1');
      return undefined;
    }),
    probe(async () => {
      await deps.temporal.workflowService.describeNamespace({ namespace });
      return undefined;
    }),
    probe(async () => {
      const r = await deps.temporal.workflowService.describeTaskQueue({ namespace, taskQueue: { name: taskQueue } });
      // Pollers seen by the server within the last minutes; none means no worker serves this queue.
      const pollers = r.pollers?.length ?? 0;
      if (pollers === 0) throw Object.assign(new Error('no worker'), { name: 'no_worker_polling' });
      return `${pollers} poller${pollers === 1 ? '' : 's'}`;
    }),
    probe(async () => {
      // Workers publish their engines' state (activities/worker-status.ts); a row not refreshed
      // for three periods belongs to a worker that is gone.
      const since = new Date(Date.now() - 3 * WORKER_STATUS_EVERY_MS);
      const rows = await deps.em.fork().find(WorkerStatus, { taskQueue, seenAt: { $gt: since } });
      if (rows.length === 0) throw Object.assign(new Error('no worker status'), { name: 'no_worker_status' });
      const started = rows.filter((r) => r.engines !== null && r.engineProfile === CURRENT_ENGINE_PROFILE);
      if (started.length === 0) throw Object.assign(new Error('engines starting'), { name: 'engines_starting' });
      const complete = started.filter((r) => Object.values(r.engines!).every((e) => e.ok));
      if (complete.length === 0) {
        // Name what is missing (engine reason codes are PII-free), e.g. `faces_engine_unavailable`.
        const reasons = [...new Set(started.flatMap((r) => Object.values(r.engines!).filter((e) => !e.ok).map((e) => e.reason ?? 'unavailable')))].sort();
        throw Object.assign(new Error('engines unavailable'), { name: reasons.join(',') });
      }
      return `${CURRENT_ENGINE_PROFILE} on ${complete.length} worker${complete.length === 1 ? '' : 's'}`;
    }),
  ]);
  return { ready: postgres.ok && temporal.ok && worker.ok && engines.ok, checks: { postgres, temporal, worker, engines } };
}
