import { Context } from '@temporalio/activity';

/**
 * Heartbeats while a long check runs so that a dead worker is detected within the heartbeat
 * timeout. The engines do their heavy work off the event loop (onnxruntime and tesseract
 * threads, libvips), so the timer keeps firing.
 */
export async function withHeartbeat<T>(fn: () => Promise<T>, everyMs = 2000): Promise<T> {
  let ctx: Context | null = null;
  try {
    ctx = Context.current();
  } catch {
    ctx = null; // called outside an activity (engine CLI, tests)
  }
  if (!ctx) return fn();
  const c = ctx;
  c.heartbeat();
  const timer = setInterval(() => c.heartbeat(), everyMs);
  try {
    return await fn();
  } finally {
    clearInterval(timer);
  }
}
