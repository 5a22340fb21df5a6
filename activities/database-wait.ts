import { Context } from '@temporalio/activity';
import { isDatabaseUnavailable } from '../platform/db-errors.js';

/**
 * Runs a check activity; if it fails because PostgreSQL cannot be reached (down, restarting, in
 * crash recovery: platform/db-errors.ts), waits and runs it again, heartbeating meanwhile, for up
 * to `maxWaitMs`. The checks have 4 attempts for engine faults (workflows/case-workflow.ts); a
 * database restart of a few seconds would otherwise spend them all and fail a Case whose engines
 * never failed (found by `npm run chaos -- --scenario postgres`). Any other error goes to Temporal's
 * retry as before.
 */
export async function waitingOutDatabase<T>(fn: () => Promise<T>, opts: { maxWaitMs?: number; everyMs?: number; onWait?: (err: unknown) => void } = {}): Promise<T> {
  const maxWaitMs = opts.maxWaitMs ?? 180_000;
  const everyMs = opts.everyMs ?? 1000;
  const started = Date.now();
  let ctx: Context | null = null;
  try {
    ctx = Context.current();
  } catch {
    ctx = null; // outside an activity (tests)
  }
  for (let waited = false; ; ) {
    try {
      return await fn();
    } catch (err) {
      if (!isDatabaseUnavailable(err) || Date.now() - started > maxWaitMs) throw err;
      if (!waited) opts.onWait?.(err);
      waited = true;
      // A local activity (record match since `local-db-steps`) has no heartbeat: its workflow task is kept alive by the SDK.
      if (ctx && !ctx.info.isLocal) ctx.heartbeat();
      // A cancelled activity (its workflow ended, the worker is shutting down) stops waiting.
      if (ctx) await Promise.race([new Promise((r) => setTimeout(r, everyMs)), ctx.cancelled.catch(() => {})]);
      else await new Promise((r) => setTimeout(r, everyMs));
      if (ctx?.cancellationSignal.aborted) throw err;
    }
  }
}

/** Every function of `activities`, each wrapped in {@link waitingOutDatabase}. */
export function waitingOutDatabaseAll<A extends Record<string, (...args: any[]) => Promise<unknown>>>(activities: A, onWait?: (name: string, err: unknown) => void): A {
  return Object.fromEntries(Object.entries(activities).map(([name, fn]) => [name, (...args: unknown[]) => waitingOutDatabase(() => fn(...args), { onWait: (err) => onWait?.(name, err) })])) as A;
}
