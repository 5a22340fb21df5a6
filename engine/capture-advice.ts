import type { Worker } from 'node:worker_threads';
import { tsxWorker } from './tsx-worker.js';
import type { CaptureAdvisor, TCaptureAdvice } from '../domain/capture-advice.js';
import { CAPTURE_ADVICE, type CaptureAdviceSettings } from './document/advice.js';
import type { AdviceReply, AdviceRequest, AdviceWorkerData } from './document/advice-worker.js';
import { DOCUMENT_SETTINGS_V2 } from './document/settings.js';
import type { LivePreviewer, TLivePreview } from '../domain/live-preview.js';
import { modelsDir } from './assets.js';
import { loadFacePreviewModel, type FacePreviewModel } from './faces/preview.js';

/**
 * The engine's implementation of the `CaptureAdvisor` port (domain/capture-advice.ts), the one
 * engine file the api's composition root may import (ARCHITECTURE.md). It answers within the
 * upload request, so it runs beside the api rather than through Temporal (a worker busy with whole
 * Cases would make the applicant wait), in a worker thread (`document/advice-worker.ts`) so that
 * its pixel work never blocks the api's event loop.
 *
 * Bounded so that it can never slow uploads down: at most `maxInFlight` checks at once (more
 * answer `unavailable` at once), and a deadline after which the upload answers without advice.
 */
export interface CaptureAdvisorOptions {
  settings?: CaptureAdviceSettings;
  deadlineMs?: number;
  maxInFlight?: number;
}

export function createCaptureAdvisor(opts: CaptureAdvisorOptions = {}): CaptureAdvisor & { warm(): Promise<boolean> } {
  const s = opts.settings ?? CAPTURE_ADVICE;
  const deadlineMs = opts.deadlineMs ?? 2500;
  const maxInFlight = opts.maxInFlight ?? 2;
  const unavailable = (ms: number): TCaptureAdvice => ({ status: 'unavailable', issues: [], retake_suggested: false, version: s.version, ms });
  let worker: Worker | undefined;
  let nextId = 1;
  const waiting = new Map<number, (r: AdviceReply) => void>();
  let inFlight = 0;

  // Started on first use and again after a crash; the thread inherits the process's loaders (tsx).
  const thread = (): Worker => {
    if (worker) return worker;
    const data: AdviceWorkerData = { settings: s, mrzSha256: DOCUMENT_SETTINGS_V2.tessdata.mrzSha256 };
    const w = tsxWorker(new URL('./document/advice-worker.ts', import.meta.url), { workerData: data });
    w.on('message', (r: AdviceReply) => {
      waiting.get(r.id)?.(r);
      waiting.delete(r.id);
      // An idle thread does not keep the process alive; one with work in hand does.
      if (!waiting.size) w.unref();
    });
    const fail = () => {
      if (worker === w) worker = undefined;
      for (const [id, done] of waiting) done({ id, ok: false });
      waiting.clear();
    };
    w.on('error', fail);
    w.on('exit', fail);
    w.unref();
    worker = w;
    return w;
  };
  const call = (msg: Omit<Extract<AdviceRequest, { kind: 'advise' }>, 'id'> | { kind: 'warm' | 'close' }): Promise<AdviceReply> => {
    const id = nextId++;
    return new Promise((resolve) => {
      waiting.set(id, resolve);
      const w = thread();
      w.ref();
      w.postMessage({ ...msg, id });
    });
  };

  return {
    async advise(image, req) {
      const t0 = Date.now();
      if (inFlight >= maxInFlight) return unavailable(0);
      inFlight++;
      // The slot is freed when the work ends, not at the deadline: a late check still holds a core.
      const work = call({ kind: 'advise', image, expectMrz: req.expectMrz }).finally(() => { inFlight--; });
      let timer: NodeJS.Timeout | undefined;
      try {
        const late = new Promise<null>((resolve) => { timer = setTimeout(() => resolve(null), deadlineMs); });
        const r = await Promise.race([work, late]);
        const ms = Date.now() - t0;
        if (!r || !r.ok || !r.result || r.result.failed) return unavailable(ms);
        const issues = r.result.issues;
        return { status: 'checked', issues, retake_suggested: issues.length > 0, version: s.version, ms };
      } finally {
        clearTimeout(timer);
      }
    },
    /** Starts the thread and its OCR model ahead of the first upload; false if the model is missing or altered. */
    async warm() {
      return (await call({ kind: 'warm' })).ok;
    },
    async close() {
      const w = worker;
      if (!w) return;
      await call({ kind: 'close' });
      worker = undefined;
      await w.terminate();
    },
  };
}

/**
 * The engine's implementation of the `LivePreviewer` port (domain/live-preview.ts): one YuNet run
 * (`faces/preview.ts`) on a preview frame of the hosted page. In this process rather than a worker
 * thread: the decode (sharp) and ONNX Runtime run off the event loop, and the JS left (tensor fill,
 * output decoding) is about a millisecond. Bounded like the advisor: `maxInFlight` at once (more
 * answer `unavailable` at once) and a deadline; the model loads on first use, and a missing or
 * altered model makes every answer `unavailable`.
 */
export const LIVE_PREVIEW_VERSION = 'live-preview-2026.11.1';

export interface LivePreviewerOptions {
  modelsDir?: string;
  deadlineMs?: number;
  maxInFlight?: number;
}

export function createLivePreviewer(opts: LivePreviewerOptions = {}): LivePreviewer & { warm(): Promise<boolean> } {
  const deadlineMs = opts.deadlineMs ?? 300;
  const maxInFlight = opts.maxInFlight ?? 2;
  const unavailable = (ms: number): TLivePreview => ({ status: 'unavailable', faces: 0, face: null, version: LIVE_PREVIEW_VERSION, ms });
  let model: Promise<FacePreviewModel | null> | undefined;
  const load = () => (model ??= loadFacePreviewModel(opts.modelsDir ?? modelsDir()).catch(() => null));
  let inFlight = 0;
  return {
    async preview(image) {
      const t0 = Date.now();
      if (inFlight >= maxInFlight) return unavailable(0);
      inFlight++;
      let timer: NodeJS.Timeout | undefined;
      try {
        const work = load().then((m) => (m ? m.detect(image) : null)).catch(() => null);
        const late = new Promise<null>((resolve) => { timer = setTimeout(() => resolve(null), deadlineMs); });
        const r = await Promise.race([work.finally(() => { inFlight--; }), late]);
        const ms = Date.now() - t0;
        return r ? { status: 'checked', faces: r.faces, face: r.face, version: LIVE_PREVIEW_VERSION, ms } : unavailable(ms);
      } finally {
        clearTimeout(timer);
      }
    },
    async warm() {
      return (await load()) !== null;
    },
    async close() {
      const m = await model;
      model = undefined;
      await m?.release();
    },
  };
}
