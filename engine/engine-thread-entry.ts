import { parentPort, workerData } from 'node:worker_threads';
import { createAuthenticityEngine } from './authenticity/index.js';
import { createDocumentEngine } from './document/index.js';
import { createFaceEngine } from './faces/index.js';
import { engineProfile } from './profiles.js';
import type { EngineThreadData, EngineThreadReply, EngineThreadRequest } from './engine-thread.js';
import { toBuffers } from './engine-thread.js';

/**
 * One engine of one profile, in a worker thread of the worker process (engine/engine-thread.ts
 * says why). Created from the profile id, so the thread runs exactly the settings the Case was
 * stamped with. Messages: a call in (method and arguments), its reply out; errors keep their name,
 * message and `code`, which the activities read.
 */
const { kind, profileId } = workerData as EngineThreadData;
const port = parentPort!;

type Callable = Record<string, ((...args: unknown[]) => Promise<unknown>) | unknown> & { close(): Promise<void> };

const errorOf = (err: unknown) => {
  const e = err as { name?: string; message?: string; code?: unknown };
  return { name: e?.name ?? 'Error', message: String(e?.message ?? err), code: typeof e?.code === 'string' ? e.code : undefined };
};

async function create(): Promise<Callable> {
  const profile = engineProfile(profileId);
  if (kind === 'document') return (await createDocumentEngine(profile.document)) as unknown as Callable;
  if (kind === 'faces') return (await createFaceEngine(profile.faces)) as unknown as Callable;
  return (await createAuthenticityEngine(profile.authenticity)) as unknown as Callable;
}

const engine = create();
engine.then(
  (e) => port.postMessage({ id: 0, ok: true, value: { settings: e.settings, models: e.models } } satisfies EngineThreadReply),
  (err) => port.postMessage({ id: 0, ok: false, error: errorOf(err) } satisfies EngineThreadReply),
);

port.on('message', (msg: EngineThreadRequest) => {
  void (async (): Promise<EngineThreadReply> => {
    try {
      const e = await engine;
      const fn = e[msg.method];
      if (typeof fn !== 'function') throw new Error(`${kind} engine has no method ${msg.method}`);
      const value = await (fn as (...args: unknown[]) => Promise<unknown>).apply(e, toBuffers(msg.args) as unknown[]);
      return { id: msg.id, ok: true, value };
    } catch (err) {
      return { id: msg.id, ok: false, error: errorOf(err) };
    }
  })().then((reply) => port.postMessage(reply));
});
