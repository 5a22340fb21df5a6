/**
 * `npx tsx bench/case-profile.ts [-- --runs 5 --profile ep-2026.11-7]`
 *
 * Where a Case's engine time goes, without the stack: bench:cases' genuine applicant (the same
 * document photo and 53 liveness frames), the engines of one profile in this process, and
 *   1. each check alone (wall and process CPU, every thread counted: tesseract's worker threads,
 *      ONNX Runtime's, libvips'), with the document engine's own phases (each OCR job by worker);
 *   2. the document, authenticity and liveness checks at once, as the Case workflow runs them,
 *      then face match on their derived images.
 * Offline tooling: the activities add the database and blob store around the same engine calls.
 * `--threads off` runs the engines on this thread's event loop (ENGINE_THREADS=off; the OCR job
 * times are only seen then). `node --import tsx --cpu-prof bench/case-profile.ts` writes the main
 * thread's and each worker thread's CPU profile.
 */
import os from 'node:os';
import { parseArgs } from 'node:util';
import { createAuthenticityEngine, type AuthenticityEngine } from '../engine/authenticity/index.js';
import { createDocumentEngine, type DocumentEngine } from '../engine/document/index.js';
import { OcrWorker } from '../engine/document/ocr/workers.js';
import { startEngineThread } from '../engine/engine-thread.js';
import { createFaceEngine, type FaceEngine } from '../engine/faces/index.js';
import { engineProfile } from '../engine/profiles.js';
import { CURRENT_ENGINE_PROFILE } from '../domain/engine-profile.js';
import { ZLivenessChallenge, ZLivenessFrameMeta } from '../domain/liveness.js';
import { fmt, summarize } from './stats.js';
import { prepareGenuineApplicant } from './genuine-case.js';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '5' }, profile: { type: 'string' }, threads: { type: 'string', default: 'on' } } });
const threads = values.threads === 'on';
const runs = Number(values.runs);
const profile = engineProfile(values.profile ?? CURRENT_ENGINE_PROFILE);

// Each OCR job's wall time by worker name (the document engine's phases).
const ocrMs = new Map<string, number[]>();
const recognize = OcrWorker.prototype.recognize;
OcrWorker.prototype.recognize = async function (this: OcrWorker, ...args: Parameters<OcrWorker['recognize']>) {
  const t = performance.now();
  try {
    return await recognize.apply(this, args);
  } finally {
    ocrMs.set(this.name, [...(ocrMs.get(this.name) ?? []), performance.now() - t]);
  }
};

const applicant = await prepareGenuineApplicant();
const challenge = ZLivenessChallenge.parse({ ...applicant.challenge, issued_at: new Date().toISOString(), deadline: new Date(Date.now() + 600_000).toISOString() });
const frames = applicant.frames.map((f) => ({ image: f.image, meta: ZLivenessFrameMeta.parse(f.meta) })).sort((a, b) => a.meta.timestamp_ms - b.meta.timestamp_ms);
// As the worker runs them: each engine in a thread of its own (engine/engine-thread.ts), or with
// `--threads off` all on this thread's event loop (the worker before; ENGINE_THREADS=off).
const [document, faces, authenticity] = threads
  ? await Promise.all([
    startEngineThread<DocumentEngine>('document', profile.id, ['analyze']),
    startEngineThread<FaceEngine>('faces', profile.id, ['evaluateLiveness', 'matchFaces']),
    startEngineThread<AuthenticityEngine>('authenticity', profile.id, ['analyze']),
  ])
  : await Promise.all([createDocumentEngine(profile.document), createFaceEngine(profile.faces), createAuthenticityEngine(profile.authenticity)]);

const declared = { country: 'MOZ', type: 'passport' as const };
const sessionStartedAt = new Date(Date.now() - 60_000);
const checks = {
  document: async (photo: Buffer) => document.analyze({ front: photo, declared, accepted: [{ country: 'MOZ', types: ['passport'] }], applicant: applicant.identity, now: new Date() }),
  authenticity: async (photo: Buffer) => authenticity.analyze({ bytes: photo, kind: 'document_front', sessionStartedAt, submittedAt: new Date() }),
  liveness: async () => faces.evaluateLiveness({ frames, challenge, now: new Date() }),
};

const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
async function timed<T>(fn: () => Promise<T>): Promise<{ value: T; wall: number; cpu: number }> {
  const c0 = cpu();
  const t0 = performance.now();
  const value = await fn();
  return { value, wall: performance.now() - t0, cpu: cpu() - c0 };
}

// Warm-up: tesseract workers, ONNX sessions, JIT.
{
  const photo = await applicant.photographNow();
  await Promise.all([checks.document(photo), checks.authenticity(photo), checks.liveness()]);
}
ocrMs.clear();

const alone: Record<string, { wall: number[]; cpu: number[] }> = {};
const note = (k: string, r: { wall: number; cpu: number }) => {
  alone[k] ??= { wall: [], cpu: [] };
  alone[k]!.wall.push(r.wall);
  alone[k]!.cpu.push(r.cpu);
};
let lastDoc: Awaited<ReturnType<typeof checks.document>> | undefined;
let lastLive: Awaited<ReturnType<typeof checks.liveness>> | undefined;
for (let i = 0; i < runs; i++) {
  const photo = await applicant.photographNow();
  const d = await timed(() => checks.document(photo));
  lastDoc = d.value;
  note('document', d);
  note('authenticity', await timed(() => checks.authenticity(photo)));
  const l = await timed(() => checks.liveness());
  lastLive = l.value;
  note('liveness', l);
  note('face match', await timed(() => faces.matchFaces({ selfie: lastLive!.bestFrame!, document: lastDoc!.normalized!, portraitBox: lastDoc!.portrait })));
}
const ocrAlone = new Map(ocrMs);
ocrMs.clear();

// As the workflow runs them.
const together: { wall: number[]; cpu: number[]; doc: number[]; auth: number[]; live: number[]; face: number[] } = { wall: [], cpu: [], doc: [], auth: [], live: [], face: [] };
for (let i = 0; i < runs; i++) {
  const photo = await applicant.photographNow();
  const c0 = cpu();
  const t0 = performance.now();
  const end = (p: Promise<unknown>, into: number[]) => p.then((v) => (into.push(performance.now() - t0), v));
  const [d, , l] = await Promise.all([
    end(checks.document(photo), together.doc) as ReturnType<typeof checks.document>,
    end(checks.authenticity(photo), together.auth),
    end(checks.liveness(), together.live) as ReturnType<typeof checks.liveness>,
  ]);
  const tf = performance.now();
  await faces.matchFaces({ selfie: l.bestFrame!, document: d.normalized!, portraitBox: d.portrait });
  together.face.push(performance.now() - tf);
  together.wall.push(performance.now() - t0);
  together.cpu.push(cpu() - c0);
}

const p50 = (v: number[]) => fmt(summarize(v).p50, 0);
console.log(`\nmachine: ${os.cpus().length} cores, load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}; profile ${profile.id}; engine threads ${threads ? 'on' : 'off'}; ${frames.length} frames; ${runs} runs; p50 ms`);
console.log('each check alone:');
for (const [k, v] of Object.entries(alone)) console.log(`  ${k.padEnd(14)} wall ${p50(v.wall).padStart(6)}  cpu ${p50(v.cpu).padStart(6)}`);
console.log(`  sum            wall ${fmt(Object.values(alone).reduce((s, v) => s + summarize(v.wall).p50, 0), 0).padStart(6)}  cpu ${fmt(Object.values(alone).reduce((s, v) => s + summarize(v.cpu).p50, 0), 0).padStart(6)}`);
if (ocrAlone.size) console.log('document OCR jobs, alone (per document: jobs × p50 ms = total):');
for (const [k, v] of ocrAlone) console.log(`  ${k.padEnd(8)} ${(v.length / runs).toFixed(1)} × ${p50(v)} = ${fmt(v.reduce((s, x) => s + x, 0) / runs, 0)}`);
console.log('as the workflow runs them (document ‖ authenticity ‖ liveness, then face match):');
console.log(`  done at: document ${p50(together.doc)}, authenticity ${p50(together.auth)}, liveness ${p50(together.live)}; face match ${p50(together.face)}; total wall ${p50(together.wall)}, cpu ${p50(together.cpu)}`);
console.log(`  outcomes: document_ocr ${lastDoc!.ocr.status} ${JSON.stringify(lastDoc!.ocr.reasons)}, template_match ${lastDoc!.template.status}, liveness ${lastLive!.outcome.status} ${JSON.stringify(lastLive!.outcome.reasons)}`);
await Promise.all([document.close(), faces.close(), authenticity.close()]);
