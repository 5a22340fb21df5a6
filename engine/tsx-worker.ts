import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * A worker thread running a TypeScript entry. Worker threads do not inherit the process's
 * TypeScript loader (tsx, a runtime dependency: the api and worker run under tsx), so the thread
 * registers it before loading its entry.
 */
export function tsxWorker(entry: URL, options: WorkerOptions): Worker {
  const tsx = import.meta.resolve('tsx/esm/api');
  const boot = `import(${JSON.stringify(tsx)}).then((m) => { m.register(); return import(${JSON.stringify(entry.href)}); })`;
  return new Worker(boot, { ...options, eval: true });
}
