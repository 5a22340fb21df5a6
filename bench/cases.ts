/**
 * `npm run bench:cases [-- --cases 8 --concurrency 4 --single 3 --temporal dev,postgres --workers 1]`
 *
 * What users feel: genuine Cases through the real API and capture endpoints, on a stack of its own
 * (embedded PostgreSQL, a Temporal server, the api and the worker(s) as separate processes), once on
 * the Temporal CLI's dev server (SQLite) and once on the Temporal server on PostgreSQL
 * (scripts/temporal-postgres.ts; `unavailable` if not built), printed side by side.
 * Each Case is bench/genuine-case.ts's genuine applicant (create, seeded challenge, document,
 * every liveness frame, submit); then the signed webhook. Prints submit → webhook p50/p95/p99 for single Cases and under concurrency,
 * Cases per minute, CPU seconds per Case of the worker(s), the api and the Temporal server, and the
 * workers' RSS. The backends run one after the other, never at once (they would share the cores).
 */
import { readFileSync, readdirSync, mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { startStack } from '../scripts/stack.js';
import { TEMPORAL_SERVER_VERSION, findTemporalBinaries } from '../scripts/temporal-postgres.js';
import { freePort } from '../platform/temporal-server.js';
import { fmt, summarize } from './stats.js';
import { PAGE_FRAMES_PER_REQUEST, captureGenuineCase, prepareGenuineApplicant } from './genuine-case.js';
import { createCaptureAdvisor } from '../engine/capture-advice.js';
import { Connection, WorkflowClient } from '@temporalio/client';
// The package is CommonJS: Node's ESM loader cannot name its exports, so take the default.
import protoPackage from '@temporalio/proto';
import { caseWorkflowId } from '../domain/workflow-messages.js';
const { temporal } = protoPackage;

const { values } = parseArgs({ options: {
  cases: { type: 'string', default: '8' }, concurrency: { type: 'string', default: '4' }, single: { type: 'string', default: '3' },
  temporal: { type: 'string', default: 'dev,postgres' }, workers: { type: 'string', default: '1' },
  // Seconds of idle after the single Cases: the background CPU of each process, per second.
  idle: { type: 'string', default: '0' },
  // A folder: the api and worker processes write V8 CPU profiles there (node --cpu-prof; the
  // worker's engine threads one each) when the stack stops.
  'cpu-prof': { type: 'string' },
  // Per table of the app's and Temporal's databases: scans and rows written per Case, loaded.
  'pg-tables': { type: 'boolean', default: false },
  // Liveness frames per request, as the hosted page sends them (8); 1: one upload per frame.
  'frames-per-request': { type: 'string', default: String(PAGE_FRAMES_PER_REQUEST) },
} });
const framesPerRequest = Number(values['frames-per-request']);
if (!(framesPerRequest >= 1)) throw new Error('--frames-per-request takes a number ≥ 1');
const idleS = Number(values.idle);
const batch = Number(values.cases);
const concurrency = Number(values.concurrency);
const singles = Number(values.single);
const workers = Number(values.workers);
const backends = values.temporal!.split(',').map((b) => {
  if (b !== 'dev' && b !== 'postgres') throw new Error(`--temporal takes dev and/or postgres, not ${b}`);
  return b;
});

// The applicant, built once.
const applicant = await prepareGenuineApplicant();
const { frames } = applicant;
/** Upload requests per Case: the document, then the frames alone or in groups. */
const uploadRequests = 1 + (framesPerRequest <= 1 ? frames.length : Math.ceil(frames.length / framesPerRequest));

// The capture advisor (engine/capture-advice.ts) is engine work too, but it runs in the api when
// the document photo is uploaded (issue 12: the applicant hears at once what to fix), so the worker's
// CPU leaves it out. Its CPU on this applicant's document is measured here, in this process, after
// a warm-up: tesseract.js workers are threads of this process, so process.cpuUsage covers them.
const adviceCpuS = await (async () => {
  // No deadline here: on a loaded machine a run past the api's 2.5 s would be cut off (and a third
  // refused while two late ones still hold the advisor), and its CPU counted as nothing.
  const advisor = createCaptureAdvisor({ deadlineMs: 600_000 });
  await advisor.warm();
  const doc = await applicant.photographNow();
  await advisor.advise(doc, { expectMrz: true });
  const runs: number[] = [];
  for (let i = 0; i < 3; i++) {
    const c0 = process.cpuUsage();
    const advice = await advisor.advise(doc, { expectMrz: true });
    const c = process.cpuUsage(c0);
    if (advice.status !== 'checked') throw new Error(`capture advice ${advice.status}: the engines' ceiling needs its CPU`);
    runs.push((c.user + c.system) / 1e6);
  }
  await advisor.close?.();
  return runs.sort((a, b) => a - b)[1]!;
})();

// Webhook arrivals by Case id.
const arrivals = new Map<string, number>();
const arrivalsWall = new Map<string, number>();
const receiver = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    try {
      const id = JSON.parse(Buffer.concat(chunks).toString()).id;
      arrivals.set(id, performance.now());
      arrivalsWall.set(id, Date.now());
    } catch { /* not ours */ }
    res.writeHead(204).end();
  });
});
await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', () => r()));
const hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

type Backend = 'dev' | 'postgres';
interface Figures {
  backend: Backend;
  workers: number;
  single: ReturnType<typeof summarize>;
  loaded: ReturnType<typeof summarize>;
  casesPerMin: number;
  workerCpuSingle: number;
  workerCpuLoaded: number;
  apiCpuLoaded: number;
  temporalCpuLoaded: number;
  postgresCpuLoaded: number;
  clientCpuLoaded: number;
  rssMb: number;
  peakRssMb: number;
  temporalRssMb: number;
  assessments: Record<string, number>;
  /** Single Cases: each check's run time (check_results.duration_ms), median over the singles. */
  checkMs: Record<string, number>;
  /** Single Cases: when each step was done, ms after the submit (database timestamps), median over the singles. */
  timeline: [string, number][];
  /** Loaded: PostgreSQL transactions committed per Case, by database (pg_stat_database). */
  xactsPerCase: Record<string, number>;
  /** Loaded: reads of Temporal's cluster metadata per Case (search attribute cache refreshes). */
  clusterMetadataReadsPerCase: number | null;
  /** One single Case's workflow history: events by type. */
  historyEvents: Record<string, number>;
  /** Idle (no Case in flight): CPU seconds per second by process. */
  idleCpuPerS: Record<string, number> | null;
  /** `--pg-tables`: per table, scans / rows inserted / updated / deleted per Case, loaded. */
  tablesPerCase: [string, number, number, number, number][];
}

const clk = 100; // USER_HZ on Linux
const cpuSecondsOf = (pid: number) => {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(f[11]) + Number(f[12])) / clk; // utime + stime (stat fields 14 and 15; the split drops the first two)
};
/** CPU seconds of PostgreSQL: the postmaster (pid from its data directory) and every child of it (as bench/api.ts). */
const postgresCpu = (dataDir: string): number => {
  const postmaster = Number(readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  let sum = cpuSecondsOf(postmaster);
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const ppid = Number(readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]);
      if (ppid === postmaster) sum += cpuSecondsOf(Number(entry));
    } catch { /* gone */ }
  }
  return sum;
};
/** This process: the applicants (JPEG encode per Case, the uploads) and the webhook receiver. */
const clientCpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};
const memMb = (pid: number, field: 'VmRSS' | 'VmHWM') => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

/** One backend: a stack of its own, a warm-up Case, single Cases, then the concurrent batch. */
async function measure(backend: Backend): Promise<Figures> {
  arrivals.clear();
  const apiPort = await freePort();
  const stackDir = mkdtempSync(path.join(os.tmpdir(), 'ivs-bench-stack-'));
  const stack = await startStack({
    dataDir: stackDir, pgPort: await freePort(), temporal: backend, temporalPort: await freePort(), apiPort, workers,
    env: { LOG_LEVEL: 'warn', PUBLIC_BASE_URL: `http://127.0.0.1:${apiPort}` },
    ...(values['cpu-prof'] ? {
      apiNodeArgs: ['--cpu-prof', `--cpu-prof-dir=${path.resolve(values['cpu-prof'], backend, 'api')}`],
      workerNodeArgs: ['--cpu-prof', `--cpu-prof-dir=${path.resolve(values['cpu-prof'], backend, 'worker')}`],
    } : {}),
  });
  // A pool: concurrent applicants seed their challenges at the same time.
  const db = new pg.Pool({ connectionString: stack.databaseUrl, max: 4 });
  const workerPids = stack.workers.map((w) => w.pid!);
  const workerCpu = () => workerPids.reduce((sum, pid) => sum + cpuSecondsOf(pid), 0);
  const apiPid = stack.api!.pid!;
  const temporalPid = stack.temporalProcess!.pid!;
  try {
    const base = stack.apiUrl;
    const json = async (method: string, p: string, key?: string, body?: unknown) => {
      const r = await fetch(`${base}${p}`, { method, headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(key ? { 'x-api-key': key } : {}) }, body: body === undefined ? undefined : JSON.stringify(body) });
      if (r.status >= 300) throw new Error(`${method} ${p}: ${r.status} ${await r.text()}`);
      return (await r.json()) as any;
    };
    const { api_key: key, project_id: projectId } = await json('POST', '/v1/signup', undefined, { name: 'bench cases' });
    await json('PUT', `/v1/projects/${projectId}/webhook`, key, { url: hookUrl });

    const runCase = async (): Promise<{ id: string; submitToWebhookMs: number; captureMs: number; assessment: string }> => {
      const { id: caseId, submitted, captureMs } = await captureGenuineCase({ base, key, db, applicant, framesPerRequest });
      const deadline = Date.now() + 300_000;
      while (!arrivals.has(caseId)) {
        if (Date.now() > deadline) throw new Error(`no webhook for ${caseId}`);
        await new Promise((r) => setTimeout(r, 20));
      }
      const done = await json('GET', `/v1/verifications/${caseId}`, key);
      return { id: caseId, submitToWebhookMs: arrivals.get(caseId)! - submitted, captureMs, assessment: done.assessment };
    };

    // Warm-up: models load per worker process, JIT, pools (one Case per worker).
    await Promise.all(workerPids.map(() => runCase()));

    const single: number[] = [];
    const singleIds: string[] = [];
    const assessments: string[] = [];
    const cpu0 = workerCpu();
    for (let i = 0; i < singles; i++) {
      const r = await runCase();
      single.push(r.submitToWebhookMs);
      singleIds.push(r.id);
      assessments.push(r.assessment);
    }
    const workerCpuSingle = (workerCpu() - cpu0) / singles;
    // Where a single Case's time goes: the checks' own run times (the document, authenticity and
    // liveness activities run side by side; face match and record match after them).
    const durations = await db.query<{ check: string; ms: number }>('select "check", duration_ms as ms from check_results where verification_id = any($1)', [singleIds]);
    const byCheck = new Map<string, number[]>();
    for (const r of durations.rows) byCheck.set(r.check, [...(byCheck.get(r.check) ?? []), r.ms]);
    const checkMs = Object.fromEntries([...byCheck].map(([c, ms]) => [c, summarize(ms).p50]));
    // The same Cases' timeline from the database: submit (the api's commit), processing started
    // (signal → workflow task → startProcessing), each check's result stored, the decision stored,
    // the webhook received here.
    const rows = await db.query<{ id: string; submitted: Date; processing: Date; completed: Date }>('select id, submitted_at as submitted, processing_started_at as processing, completed_at as completed from verifications where id = any($1)', [singleIds]);
    const stored = await db.query<{ id: string; check: string; at: Date }>('select verification_id as id, "check", created_at as at from check_results where verification_id = any($1)', [singleIds]);
    const steps = new Map<string, number[]>();
    const add = (k: string, ms: number) => steps.set(k, [...(steps.get(k) ?? []), ms]);
    for (const r of rows.rows) {
      const t0 = r.submitted.getTime();
      add('processing started', r.processing.getTime() - t0);
      for (const c of stored.rows.filter((x) => x.id === r.id)) add(`${c.check} stored`, c.at.getTime() - t0);
      add('decided', r.completed.getTime() - t0);
      add('webhook received', arrivalsWall.get(r.id)! - t0);
    }
    const timeline = [...steps].map(([k, ms]) => [k, summarize(ms).p50] as [string, number]).sort((a, b) => a[1] - b[1]);

    // One single Case's history: what Temporal recorded (and persisted) for it.
    const temporalConnection = await Connection.connect({ address: stack.temporalAddress });
    const history = await new WorkflowClient({ connection: temporalConnection }).getHandle(caseWorkflowId(singleIds[0]!)).fetchHistory();
    await temporalConnection.close();
    const historyEvents: Record<string, number> = {};
    for (const e of history.events ?? []) {
      const type = String(typeof e.eventType === 'number' ? temporal.api.enums.v1.EventType[e.eventType] : e.eventType ?? 'unknown').replace(/^EVENT_TYPE_/, '');
      historyEvents[type] = (historyEvents[type] ?? 0) + 1;
    }

    // Background CPU with nothing in flight (Temporal's shard and queue loops, pollers, PostgreSQL).
    let idleCpuPerS: Record<string, number> | null = null;
    if (idleS > 0) {
      const sample = () => ({ worker: workerCpu(), api: cpuSecondsOf(apiPid), temporal: cpuSecondsOf(temporalPid), postgres: postgresCpu(path.join(stackDir, 'postgres')) });
      const i0 = sample();
      await new Promise((r) => setTimeout(r, idleS * 1000));
      const i1 = sample();
      idleCpuPerS = Object.fromEntries(Object.entries(i1).map(([k, v]) => [k, (v - i0[k as keyof typeof i0]) / idleS]));
    }

    const xacts = async () => Object.fromEntries((await db.query<{ datname: string; n: string }>("select datname, xact_commit as n from pg_stat_database where datname in ('ivs', 'temporal', 'temporal_visibility')")).rows.map((r) => [r.datname, Number(r.n)]));
    const temporalDb = backend === 'postgres' ? new pg.Client({ connectionString: Object.assign(new URL(stack.databaseUrl), { pathname: '/temporal' }).toString() }) : null;
    await temporalDb?.connect();
    const clusterMetadataReads = async () => temporalDb ? Number((await temporalDb.query<{ n: string }>("select coalesce(sum(coalesce(seq_scan, 0) + coalesce(idx_scan, 0)), 0) as n from pg_stat_user_tables where relname = 'cluster_metadata_info'")).rows[0]!.n) : null;
    // Statistics reach pg_stat_* within a second of each transaction (PostgreSQL flushes them at most once a second).
    await new Promise((r) => setTimeout(r, 1500));
    const xacts1 = await xacts();
    const meta1 = await clusterMetadataReads();
    const tableStats = async () => {
      if (!values['pg-tables']) return new Map<string, number[]>();
      const q = "select relname, coalesce(seq_scan, 0) + coalesce(idx_scan, 0) as scans, n_tup_ins, n_tup_upd, n_tup_del from pg_stat_user_tables";
      const rows = [...(await db.query(q)).rows.map((r) => ['ivs', r] as const), ...(temporalDb ? (await temporalDb.query(q)).rows.map((r) => ['temporal', r] as const) : [])];
      return new Map(rows.map(([d, r]) => [`${d}.${r.relname}`, [Number(r.scans), Number(r.n_tup_ins), Number(r.n_tup_upd), Number(r.n_tup_del)]]));
    };
    const tables1 = await tableStats();

    const cpu1 = workerCpu();
    const api1 = cpuSecondsOf(apiPid);
    const temporal1 = cpuSecondsOf(temporalPid);
    const pgDataDir = path.join(stackDir, 'postgres');
    const postgres1 = postgresCpu(pgDataDir);
    const client1 = clientCpu();
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
    const cpuEnd = { worker: workerCpu(), api: cpuSecondsOf(apiPid), temporal: cpuSecondsOf(temporalPid), postgres: postgresCpu(pgDataDir), client: clientCpu() };
    await new Promise((r) => setTimeout(r, 1500));
    const xacts2 = await xacts();
    const meta2 = await clusterMetadataReads();
    const tables2 = await tableStats();
    await temporalDb?.end();
    const tablesPerCase = [...tables2].map(([k, v]) => [k, ...v.map((x, i) => (x - (tables1.get(k)?.[i] ?? 0)) / batch)] as [string, number, number, number, number])
      .filter((r) => r[1] + r[2] + r[3] + r[4] > 0).sort((a, b) => b[1] + b[2] + b[3] + b[4] - (a[1] + a[2] + a[3] + a[4]));
    return {
      backend,
      workers,
      single: summarize(single),
      loaded: summarize(loaded),
      casesPerMin: batch / wallMin,
      workerCpuSingle,
      workerCpuLoaded: (cpuEnd.worker - cpu1) / batch,
      apiCpuLoaded: (cpuEnd.api - api1) / batch,
      temporalCpuLoaded: (cpuEnd.temporal - temporal1) / batch,
      postgresCpuLoaded: (cpuEnd.postgres - postgres1) / batch,
      clientCpuLoaded: (cpuEnd.client - client1) / batch,
      rssMb: workerPids.reduce((m, pid) => Math.max(m, memMb(pid, 'VmRSS')), 0),
      peakRssMb: workerPids.reduce((m, pid) => Math.max(m, memMb(pid, 'VmHWM')), 0),
      temporalRssMb: memMb(temporalPid, 'VmHWM'),
      assessments: assessments.reduce<Record<string, number>>((m, a) => ({ ...m, [a]: (m[a] ?? 0) + 1 }), {}),
      checkMs,
      timeline,
      xactsPerCase: Object.fromEntries(Object.entries(xacts2).map(([k, v]) => [k, (v - (xacts1[k] ?? 0)) / batch])),
      clusterMetadataReadsPerCase: meta1 === null || meta2 === null ? null : (meta2 - meta1) / batch,
      historyEvents,
      idleCpuPerS,
      tablesPerCase,
    };
  } finally {
    await db.end();
    await stack.stop();
    rmSync(stackDir, { recursive: true, force: true });
  }
}

const results: Figures[] = [];
const skipped: string[] = [];
try {
  for (const backend of backends) {
    if (backend === 'postgres' && !findTemporalBinaries()) {
      skipped.push(`Temporal on PostgreSQL: unavailable (server ${TEMPORAL_SERVER_VERSION} not built: npm run temporal:postgres -- build)`);
      continue;
    }
    results.push(await measure(backend));
  }
} finally {
  receiver.close();
}

const label = { dev: 'dev server (SQLite)', postgres: `Temporal ${TEMPORAL_SERVER_VERSION} on PostgreSQL` } as const;
const s = (ms: number) => fmt(ms / 1000, 2);
const cores = os.cpus().length;
console.log(`\nmachine: ${cores} cores, ${os.cpus()[0]?.model ?? ''}, load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}; node ${process.versions.node}; ${workers} worker(s); ${frames.length} liveness frames (${uploadRequests - 1} requests) + 1 document per Case; ${concurrency} concurrent applicants × ${batch} Cases`);
const rows: [string, (f: Figures) => string][] = [
  [`single Case submit → webhook p50 / p95 / p99 (s, n=${singles})`, (f) => `${s(f.single.p50)} / ${s(f.single.p95)} / ${s(f.single.p99)}`],
  [`${concurrency} concurrent, submit → webhook p50 / p95 / p99 (s)`, (f) => `${s(f.loaded.p50)} / ${s(f.loaded.p95)} / ${s(f.loaded.p99)}`],
  ['Cases per minute, end to end (capture overlapped)', (f) => fmt(f.casesPerMin, 1)],
  ['worker CPU per Case, single / loaded (s)', (f) => `${fmt(f.workerCpuSingle, 2)} / ${fmt(f.workerCpuLoaded, 2)}`],
  [`engine-bound ceiling: ${cores} cores × 60 / worker CPU (Cases/min)`, (f) => fmt((cores * 60) / f.workerCpuLoaded, 1)],
  [`engines' own CPU per Case: worker + capture advice in the api (s; advice ${fmt(adviceCpuS, 2)} s measured in-process)`, (f) => fmt(f.workerCpuLoaded + adviceCpuS, 2)],
  [`engines' ceiling: ${cores} × 60 / engines' own CPU (Cases/min)`, (f) => fmt((cores * 60) / (f.workerCpuLoaded + adviceCpuS), 1)],
  [`api CPU per Case, loaded (s; ${uploadRequests} upload requests + create + submit, capture advice included)`, (f) => fmt(f.apiCpuLoaded, 2)],
  ['Temporal server CPU per Case, loaded (s)', (f) => fmt(f.temporalCpuLoaded, 3)],
  ['PostgreSQL CPU per Case, loaded (s; app and, on PostgreSQL, Temporal)', (f) => fmt(f.postgresCpuLoaded, 3)],
  ['bench client CPU per Case, loaded (s; photo encode, uploads, receiver)', (f) => fmt(f.clientCpuLoaded, 2)],
  // Everything runs on the same cores: the machine's ceiling counts every process's CPU per Case.
  [`whole-stack ceiling: ${cores} × 60 / all the CPU above (Cases/min)`, (f) => fmt((cores * 60) / (f.workerCpuLoaded + f.apiCpuLoaded + f.temporalCpuLoaded + f.postgresCpuLoaded + f.clientCpuLoaded), 1)],
  ['Cases/min as % of the engine-bound / whole-stack ceiling', (f) => {
    const all = f.workerCpuLoaded + f.apiCpuLoaded + f.temporalCpuLoaded + f.postgresCpuLoaded + f.clientCpuLoaded;
    return `${fmt((100 * f.casesPerMin * f.workerCpuLoaded) / (cores * 60), 0)} % / ${fmt((100 * f.casesPerMin * all) / (cores * 60), 0)} %`;
  }],
  ["Cases/min as % of the engines' ceiling (worker + capture advice)", (f) => `${fmt((100 * f.casesPerMin * (f.workerCpuLoaded + adviceCpuS)) / (cores * 60), 0)} %`],
  ['PostgreSQL transactions per Case, loaded: app / Temporal / visibility', (f) => ['ivs', 'temporal', 'temporal_visibility'].map((d) => f.xactsPerCase[d] === undefined ? '–' : fmt(f.xactsPerCase[d]!, 1)).join(' / ')],
  ["reads of Temporal's cluster metadata per Case, loaded", (f) => (f.clusterMetadataReadsPerCase === null ? '–' : fmt(f.clusterMetadataReadsPerCase, 1))],
  ['history events per Case (one single Case)', (f) => String(Object.values(f.historyEvents).reduce((a, b) => a + b, 0))],
  ['idle CPU per second: worker / api / Temporal / PostgreSQL (ms/s)', (f) => (f.idleCpuPerS ? ['worker', 'api', 'temporal', 'postgres'].map((k) => fmt(1000 * f.idleCpuPerS![k]!, 0)).join(' / ') : '–')],
  ['worker RSS now / peak (MB, largest worker)', (f) => `${fmt(f.rssMb, 0)} / ${fmt(f.peakRssMb, 0)}`],
  ['Temporal server peak RSS (MB)', (f) => fmt(f.temporalRssMb, 0)],
  ['assessments', (f) => Object.entries(f.assessments).map(([k, n]) => `${k} ${n}`).join(', ')],
];
const width = Math.max(...rows.map(([r]) => r.length));
console.log(`${''.padEnd(width)}  ${results.map((f) => label[f.backend].padEnd(34)).join('  ')}`);
for (const [name, cell] of rows) console.log(`${name.padEnd(width)}  ${results.map((f) => cell(f).padEnd(34)).join('  ')}`);
for (const f of results) console.log(`${label[f.backend]}: single Case check run times p50 (ms): ${Object.entries(f.checkMs).sort((a, b) => b[1] - a[1]).map(([c, ms]) => `${c} ${Math.round(ms)}`).join(', ')}`);
for (const f of results) console.log(`${label[f.backend]}: single Case timeline p50 (ms after submit): ${f.timeline.map(([k, ms]) => `${k} ${Math.round(ms)}`).join(', ')}`);
for (const f of results) console.log(`${label[f.backend]}: history events of one single Case: ${Object.entries(f.historyEvents).sort((a, b) => b[1] - a[1]).map(([k, n]) => `${k} ${n}`).join(', ')}`);
for (const f of results) {
  if (f.tablesPerCase.length === 0) continue;
  console.log(`${label[f.backend]}: per Case, loaded (table: scans / rows inserted / updated / deleted):`);
  for (const [t, ...n] of f.tablesPerCase) console.log(`  ${t.padEnd(48)} ${n.map((x) => fmt(x, 1).padStart(7)).join(' ')}`);
}
for (const line of skipped) console.log(line);
