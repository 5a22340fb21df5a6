import { Context } from '@temporalio/activity';

/**
 * Heartbeats while a long check runs so that a dead worker is detected within the heartbeat
 * timeout (15 s, workflows/case-workflow.ts). The engines do their heavy work off the event loop
 * (engine threads, onnxruntime and tesseract threads, libvips), so the timer keeps firing.
 *
 * No heartbeat at the start: the server starts the heartbeat timeout when it hands out the task,
 * so a first beat says nothing it does not know, and every beat is a write of the workflow's state
 * (on PostgreSQL-backed Temporal, a transaction). A check done within `everyMs` (most checks of a
 * single Case) sends none; a longer one beats at `everyMs`, and the SDK coalesces later beats to
 * one per 12 s (0.8 × the timeout), which still lands inside the 15 s.
 */
export async function withHeartbeat<T>(fn: () => Promise<T>, everyMs = 5000): Promise<T> {
  let ctx: Context | null = null;
  try {
    ctx = Context.current();
  } catch {
    ctx = null; // called outside an activity (engine CLI, tests)
  }
  if (!ctx) return fn();
  const c = ctx;
  const timer = setInterval(() => c.heartbeat(), everyMs);
  try {
    return await fn();
  } finally {
    clearInterval(timer);
  }
}
