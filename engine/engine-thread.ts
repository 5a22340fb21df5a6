import type { Worker } from 'node:worker_threads';
import { tsxWorker } from './tsx-worker.js';

/**
 * An engine of one profile in a worker thread of its own, behind the same methods as the
 * in-process engine.
 *
 * Why: most of a Case's engine time is synchronous work on the calling thread. onnxruntime-node
 * runs `session.run` on the JavaScript thread that calls it (inside a setImmediate), and the MRZ
 * band search, the authenticity forensics and the liveness signals are JavaScript pixel loops;
 * only tesseract and libvips run elsewhere. In the worker's one event loop the three checks that
 * the workflow runs side by side therefore took turns on one core: measured with
 * `bench/case-profile.ts` (2 cores, quiet), document 1.30 s, liveness 0.99 s, authenticity 0.48 s
 * alone, but 2.69 s for all three together at 1.15 cores busy. One thread per engine lets them
 * run on both cores, and the event loop stays free for heartbeats and workflow tasks (the
 * `TMPRL1104 Workflow task duration exceeded` warnings seen under load).
 *
 * The thread builds its engine from the profile id (engine/profiles.ts), so it runs exactly the
 * stamped settings; outputs are identical to the in-process engine (engine/engine-thread.test.ts).
 * A thread that dies is started again on the next call; the calls it had in hand fail (Temporal
 * retries the activity).
 */
export type EngineThreadKind = 'document' | 'faces' | 'authenticity';
export interface EngineThreadData { kind: EngineThreadKind; profileId: string }
export type EngineThreadRequest = { id: number; method: string; args: unknown[] };
export type EngineThreadReply = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: { name: string; message: string; code?: string } };

/**
 * Structured clone turns a Buffer into a plain Uint8Array; the engines (and their callers) expect
 * Buffers. Walks plain objects and arrays only: typed arrays other than Uint8Array, Dates and
 * class instances pass through as cloned.
 */
export function toBuffers(v: unknown): unknown {
  if (v instanceof Uint8Array) return Buffer.isBuffer(v) ? v : Buffer.from(v.buffer, v.byteOffset, v.byteLength);
  if (Array.isArray(v)) return v.map(toBuffers);
  if (v && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype) {
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, toBuffers(x)]));
  }
  return v;
}

/** An error as the engine threw it: same name, message and `code` (the activities read the code). */
class EngineThreadError extends Error {
  readonly code?: string;
  constructor(e: { name: string; message: string; code?: string }) {
    super(e.message);
    this.name = e.name;
    if (e.code) this.code = e.code;
  }
}

interface Running {
  worker: Worker;
  ready: Promise<{ settings?: unknown; models?: unknown }>;
}

/**
 * Starts the thread and waits for its engine; rejects as the engine's own factory would (model
 * missing or altered), so the registry reports the engine `unavailable` exactly as before.
 * `methods` are the engine's async methods to forward; `settings` and `models` are copied from
 * the thread's engine.
 */
export async function startEngineThread<T>(kind: EngineThreadKind, profileId: string, methods: readonly string[]): Promise<T & { close(): Promise<void> }> {
  let nextId = 1;
  const waiting = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  let running: Running | undefined;
  let closed = false;

  const start = (): Running => {
    const worker = tsxWorker(new URL('./engine-thread-entry.ts', import.meta.url), { workerData: { kind, profileId } satisfies EngineThreadData, name: `engine-${kind}` });
    let settle!: { resolve(v: { settings?: unknown; models?: unknown }): void; reject(e: Error): void };
    const ready = new Promise<{ settings?: unknown; models?: unknown }>((resolve, reject) => { settle = { resolve, reject }; });
    ready.catch(() => undefined); // awaited by every caller; a thread that dies unawaited is not an unhandled rejection
    worker.on('message', (r: EngineThreadReply) => {
      if (r.id === 0) {
        if (r.ok) settle.resolve(r.value as { settings?: unknown; models?: unknown });
        else settle.reject(new EngineThreadError(r.error));
        return;
      }
      const w = waiting.get(r.id);
      waiting.delete(r.id);
      if (!waiting.size) worker.unref();
      if (!w) return;
      if (r.ok) w.resolve(toBuffers(r.value));
      else w.reject(new EngineThreadError(r.error));
    });
    const died = (why: string) => {
      if (running?.worker === worker) running = undefined;
      settle.reject(new EngineThreadError({ name: 'Error', message: `${kind} engine thread ${why}`, code: 'engine_thread_exited' }));
      for (const [, w] of waiting) w.reject(new EngineThreadError({ name: 'Error', message: `${kind} engine thread ${why}`, code: 'engine_thread_exited' }));
      waiting.clear();
    };
    worker.on('error', (err) => died(`failed: ${err.message}`));
    worker.on('exit', (code) => died(`exited (${code})`));
    // An idle thread does not keep the process alive; one starting or with work in hand does.
    ready.then(() => { if (!waiting.size) worker.unref(); }, () => undefined);
    running = { worker, ready };
    return running;
  };

  const call = async (method: string, args: unknown[]): Promise<unknown> => {
    if (closed) throw new Error(`${kind} engine is closed`);
    const r = running ?? start();
    await r.ready;
    const id = nextId++;
    return new Promise((resolve, reject) => {
      waiting.set(id, { resolve, reject });
      r.worker.ref();
      r.worker.postMessage({ id, method, args } satisfies EngineThreadRequest);
    });
  };

  const first = start();
  let info: { settings?: unknown; models?: unknown };
  try {
    info = await first.ready;
  } catch (err) {
    closed = true;
    await first.worker.terminate();
    throw err;
  }
  const engine: Record<string, unknown> = { ...info };
  for (const m of methods) engine[m] = (...args: unknown[]) => call(m, args);
  engine.close = async () => {
    const r = running;
    if (closed || !r) {
      closed = true;
      return;
    }
    // The engine closes its own resources (tesseract workers, ONNX sessions) before the thread ends.
    await call('close', []).catch(() => undefined);
    closed = true;
    running = undefined;
    await r.worker.terminate();
  };
  return engine as T & { close(): Promise<void> };
}
