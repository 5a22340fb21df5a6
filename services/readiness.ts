import type { ServiceDeps } from './deps.js';

export interface ProbeResult {
  ok: boolean;
  ms: number;
  /** PII-free: an error class or a short fact, never a connection string. */
  detail?: string;
}

export interface Readiness {
  ready: boolean;
  checks: { postgres: ProbeResult; temporal: ProbeResult; worker: ProbeResult };
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
 * live Case's stamps. An engine whose model is missing does not make the service unready: its
 * checks report `unavailable` (never a pass), which the decision turns into `assessment_incomplete`.
 */
export async function checkReadiness(deps: ServiceDeps): Promise<Readiness> {
  const { namespace, taskQueue } = deps.config.temporal;
  const [postgres, temporal, worker] = await Promise.all([
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
  ]);
  return { ready: postgres.ok && temporal.ok && worker.ok, checks: { postgres, temporal, worker } };
}
