/**
 * `npm run bench:cases [-- --cases 8 --concurrency 4 --single 3]`
 *
 * What users feel: genuine Cases through the real API and capture endpoints, on a stack of its own
 * (embedded PostgreSQL, the Temporal dev server, the api and one worker as separate processes).
 * The applicant is the one of test/integration/genuine-applicant.test.ts: a real clip of a person
 * answering the liveness challenge (shared videos) and a synthetic passport carrying that person's
 * face, photographed with the project's phone-camera model. Each Case: create (with the claimed
 * identity), the challenge the clip answers (seeded in the database, as the genuine-applicant test
 * does: the server would issue a random one), document upload, every liveness frame, submit; then
 * the signed webhook. Prints submit → webhook p50/p95/p99 for single Cases and under concurrency,
 * Cases per minute, the worker's CPU seconds per Case and its RSS.
 */
import { readFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import sharp from 'sharp';
import { modelsDir, videosDir } from '../engine/assets.js';
import { encodeCameraJpeg, photograph as cameraCapture } from '../tools/authenticity/attacks/camera.js';
import { createRng } from '../tools/authenticity/training/rng.js';
import { renderDocument } from '../tools/corpus/index.js';
import { loadFaceModels } from '../engine/faces/models-bundle.js';
import { FACE_SETTINGS_V2 } from '../engine/faces/settings.js';
import { decodeClip } from '../tools/faces/testing/clips.js';
import { labelledCapture, labelledCases } from '../tools/faces/testing/labelled.js';
import { startStack } from '../scripts/stack.js';
import { freePort } from '../platform/temporal-server.js';
import { fmt, summarize } from './stats.js';

const { values } = parseArgs({ options: { cases: { type: 'string', default: '8' }, concurrency: { type: 'string', default: '4' }, single: { type: 'string', default: '3' } } });
const batch = Number(values.cases);
const concurrency = Number(values.concurrency);
const singles = Number(values.single);

// The applicant, built once.
const dir = mkdtempSync(path.join(os.tmpdir(), 'ivs-bench-cases-'));
// A real clip answering a timed-script challenge (engine profile ep-2026.11-5, faces v2).
const models = await loadFaceModels(modelsDir(), FACE_SETTINGS_V2);
const { frames, challenge } = await labelledCapture(models, labelledCases().find((c) => c.id === 'g_krzysiek_turns')!, { light: true });
await models.release();
const [frontal] = await decodeClip(path.join(videosDir(), 'krzysiek_real.mp4'), { startS: 1, durationS: 0.1, fps: 10, maxSide: 720 });
const portrait = path.join(dir, 'portrait.jpg');
writeFileSync(portrait, frontal!.image);
const doc = await renderDocument({ template: 'moz-passport', seed: 5, portrait: { identity: 'krzysiek', file: portrait } });
const { data, info } = await sharp(doc.image).removeAlpha().raw().toBuffer({ resolveWithObject: true });
const rng = createRng(5);
const shot = await cameraCapture({ width: info.width, height: info.height, rgb: new Uint8Array(data), zones: [] }, rng, { capturedAt: new Date() });
// Annex K tables, as real phones of the corpus write them (the recipe's presets 2–5 are software tables to authenticity v6).
const front = await encodeCameraJpeg(shot, rng, new Date(), undefined, 'annex_k');
const id = doc.truth.identity;

// Webhook arrivals by Case id.
const arrivals = new Map<string, number>();
const receiver = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    try {
      arrivals.set(JSON.parse(Buffer.concat(chunks).toString()).id, performance.now());
    } catch { /* not ours */ }
    res.writeHead(204).end();
  });
});
await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', () => r()));
const hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

const apiPort = await freePort();
const stackDir = mkdtempSync(path.join(os.tmpdir(), 'ivs-bench-stack-'));
const stack = await startStack({
  dataDir: stackDir, pgPort: await freePort(), temporalPort: await freePort(), apiPort,
  env: { LOG_LEVEL: 'warn', PUBLIC_BASE_URL: `http://127.0.0.1:${apiPort}` },
});
// A pool: concurrent applicants seed their challenges at the same time.
const db = new pg.Pool({ connectionString: stack.databaseUrl, max: 4 });
const workerPid = stack.worker!.pid!;
const clk = 100; // USER_HZ on Linux
const cpuSeconds = () => {
  const f = readFileSync(`/proc/${workerPid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(f[11]) + Number(f[12])) / clk; // utime + stime (stat fields 14 and 15; the split drops the first two)
};
const rssMb = (field: 'VmRSS' | 'VmHWM') => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${workerPid}/status`, 'utf8'))![1]) / 1024;

try {
  const base = stack.apiUrl;
  const json = async (method: string, p: string, key?: string, body?: unknown) => {
    const r = await fetch(`${base}${p}`, { method, headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(key ? { 'x-api-key': key } : {}) }, body: body === undefined ? undefined : JSON.stringify(body) });
    if (r.status >= 300) throw new Error(`${method} ${p}: ${r.status} ${await r.text()}`);
    return (await r.json()) as any;
  };
  const { api_key: key, project_id: projectId } = await json('POST', '/v1/signup', undefined, { name: 'bench cases' });
  await json('PUT', `/v1/projects/${projectId}/webhook`, key, { url: hookUrl });

  const runCase = async (): Promise<{ submitToWebhookMs: number; captureMs: number; assessment: string }> => {
    const t0 = performance.now();
    const v = await json('POST', '/v1/verifications', key, { accepted_documents: [{ country: 'MOZ', types: ['passport'] }], applicant: { given_names: id.given_names, surnames: id.surnames, date_of_birth: id.date_of_birth, document_number: id.document_number } });
    const token = new URL(v.onboarding_url).pathname.split('/').pop()!;
    const now = new Date();
    await db.query('update verifications set liveness_challenge = $2 where id = $1', [v.id, { ...challenge, issued_at: now.toISOString(), deadline: new Date(now.getTime() + 600_000).toISOString() }]);
    const send = async (kind: string, bytes: Buffer, meta?: unknown) => {
      const form = new FormData();
      form.append('kind', kind);
      if (meta) form.append('meta', JSON.stringify(meta));
      form.append('file', new Blob([new Uint8Array(bytes)]), 'f.jpg');
      const r = await fetch(`${base}/o/${token}/uploads`, { method: 'POST', body: form });
      if (r.status !== 201) throw new Error(`upload ${r.status} ${await r.text()}`);
    };
    await send('document_front', front);
    for (const f of frames) await send('liveness_frame', f.image, f.meta);
    const submitted = performance.now();
    await json('POST', `/o/${token}/submit`, undefined, { document: { country: 'MOZ', type: 'passport' } });
    const deadline = Date.now() + 300_000;
    while (!arrivals.has(v.id)) {
      if (Date.now() > deadline) throw new Error(`no webhook for ${v.id}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    const done = await json('GET', `/v1/verifications/${v.id}`, key);
    return { submitToWebhookMs: arrivals.get(v.id)! - submitted, captureMs: submitted - t0, assessment: done.assessment };
  };

  await runCase(); // warm-up: models load per worker process, JIT, pools

  const single: number[] = [];
  const assessments: string[] = [];
  const cpu0 = cpuSeconds();
  for (let i = 0; i < singles; i++) {
    const r = await runCase();
    single.push(r.submitToWebhookMs);
    assessments.push(r.assessment);
  }
  const cpuSingle = (cpuSeconds() - cpu0) / singles;

  const cpu1 = cpuSeconds();
  const loaded: number[] = [];
  let next = 0;
  const t0 = performance.now();
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < batch) {
      next++;
      const r = await runCase();
      loaded.push(r.submitToWebhookMs);
      assessments.push(r.assessment);
    }
  }));
  const wallMin = (performance.now() - t0) / 60_000;
  const cpuLoaded = (cpuSeconds() - cpu1) / batch;

  const s1 = summarize(single);
  const sN = summarize(loaded);
  console.log(`machine: ${os.cpus().length} cores, ${os.cpus()[0]?.model ?? ''}, load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}; node ${process.versions.node}; Temporal dev server; 1 worker; ${frames.length} liveness frames + 1 document per Case`);
  console.log(`single Case, submit → webhook (n=${s1.n}): p50 ${fmt(s1.p50 / 1000, 2)} s, p95 ${fmt(s1.p95 / 1000, 2)} s, p99 ${fmt(s1.p99 / 1000, 2)} s; worker CPU ${fmt(cpuSingle, 2)} s per Case`);
  console.log(`${concurrency} concurrent applicants, ${batch} Cases (capture + processing overlapped), submit → webhook: p50 ${fmt(sN.p50 / 1000, 2)} s, p95 ${fmt(sN.p95 / 1000, 2)} s, p99 ${fmt(sN.p99 / 1000, 2)} s`);
  console.log(`throughput: ${fmt(batch / wallMin, 1)} Cases per minute end to end (create, ${frames.length + 1} uploads, submit, webhook); worker CPU ${fmt(cpuLoaded, 2)} s per Case`);
  console.log(`worker RSS now ${fmt(rssMb('VmRSS'), 0)} MB, peak ${fmt(rssMb('VmHWM'), 0)} MB`);
  const counts = assessments.reduce<Record<string, number>>((m, a) => ({ ...m, [a]: (m[a] ?? 0) + 1 }), {});
  console.log(`assessments: ${JSON.stringify(counts)}`);
} finally {
  await db.end();
  await stack.stop();
  receiver.close();
  rmSync(dir, { recursive: true, force: true });
  rmSync(stackDir, { recursive: true, force: true });
}
