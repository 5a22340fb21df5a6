/**
 * One chaos run (issue 18 item 3), shared by `npm run chaos` (bench/chaos.ts) and
 * test/integration/chaos.test.ts: a real stack of its own (embedded PostgreSQL, a Temporal server,
 * the api and a worker, each its own process), a real webhook receiver that verifies every
 * signature, genuine Cases through the real API and capture endpoints (bench/genuine-case.ts),
 * and, mid-load, faults: SIGKILL of one process and its restart after `downMs`, the way an operator
 * (or a supervisor) would start it again, or the receiver down for `downMs`. Then it waits for
 * every Case and checks the invariants; it never kills or restarts anything it did not start.
 */
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Connection, Client } from '@temporalio/client';
import pg from 'pg';
import { startStack, type RunningStack } from '../scripts/stack.js';
import { freePort } from '../platform/temporal-server.js';
import { verifyWebhookRequest } from '../sdk/webhook-verify.js';
import { captureGenuineCase, type GenuineApplicant } from './genuine-case.js';

export type FaultKind = 'api' | 'worker' | 'temporal' | 'postgres' | 'receiver';
export const FAULT_KINDS: readonly FaultKind[] = ['api', 'worker', 'temporal', 'postgres', 'receiver'];

export interface Fault {
  kind: FaultKind;
  /** Strikes once this many Cases have been submitted (and the previous fault is over). */
  afterSubmitted: number;
  /**
   * How long the process stays down before the operator starts it again; for the receiver, how
   * long it stays down after it refused its first delivery.
   */
  downMs: number;
}

export interface ChaosOptions {
  applicant: GenuineApplicant;
  cases: number;
  concurrency: number;
  faults: Fault[];
  temporal?: 'dev' | 'postgres';
  /** Capture links expire after this (s): a Case whose create answer was lost to a kill expires instead of waiting days. */
  linkExpiresIn?: number;
  /** How long to wait for every Case and workflow to close after the load (ms). */
  settleMs?: number;
  log?: (m: string) => void;
  /** Keeps the stack's data directory (services.log) for a look afterwards. */
  keep?: boolean;
}

export interface FaultFigures {
  kind: FaultKind;
  /** Kill (or receiver down) → the restarted process is ready again, or the receiver back (ms). */
  downToReadyMs: number;
  /** Kill → the first webhook of a Case submitted after the fault began (ms), or null if none. */
  toFirstWebhookMs: number | null;
}

export interface ChaosResult {
  cases: number;
  /** Cases the load submitted (the rest: creates whose answer was lost, expired). */
  submitted: number;
  terminal: number;
  workflows: number;
  workflowResults: number;
  statuses: Record<string, number>;
  assessments: Record<string, number>;
  webhooks: number;
  casesWithWebhook: number;
  duplicateWebhooks: number;
  badSignatures: number;
  /** Requests the load sent again (the api, PostgreSQL or Temporal was down). */
  clientRetries: number;
  /** Creates sent again that were answered with the Case they had made (Idempotency-Key). */
  replayedCreates: number;
  /** Delivery attempts that got no 2xx (webhook_deliveries rows). */
  failedDeliveryAttempts: number;
  faults: FaultFigures[];
  /** Creates whose commit a fault broke: no row, and their workflow ended itself (`not_created`). */
  compensatedCreates: number;
  /** Processes that died without being killed (a crash is a violation). */
  unplannedExits: string[];
  wallMs: number;
  violations: string[];
  dataDir: string;
}

interface Received { event: string; status: string; assessment: string; confidence: number; reasons: string; at: number }

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const alive = (pid: number) => { try { process.kill(pid, 0); return true; } catch { return false; } };
const dead = (c: ChildProcess | null) => !c || c.exitCode !== null || c.signalCode !== null;
const tally = (xs: string[]) => xs.reduce<Record<string, number>>((m, x) => ({ ...m, [x]: (m[x] ?? 0) + 1 }), {});

/** A webhook receiver that verifies signatures; `down()` closes its port, `up()` listens on it again. */
async function verifyingReceiver(secret: () => string) {
  const byCase = new Map<string, Received[]>();
  let badSignatures = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      if (!verifyWebhookRequest({ secrets: [secret()], body: raw, headers: req.headers }).ok) {
        badSignatures++;
        res.writeHead(401).end();
        return;
      }
      const e = JSON.parse(raw.toString()) as { id: string; event: string; status: string; assessment: string; confidence: number; summary_reasons: string[] };
      const list = byCase.get(e.id) ?? [];
      list.push({ event: e.event, status: e.status, assessment: e.assessment, confidence: e.confidence, reasons: e.summary_reasons.join(','), at: performance.now() });
      byCase.set(e.id, list);
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hooks/ivs`,
    byCase,
    badSignatures: () => badSignatures,
    down: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }),
    up: () => new Promise<void>((r, j) => { server.once('error', j); server.listen(port, '127.0.0.1', () => r()); }),
  };
}

async function waitReady(url: string, deadlineMs: number): Promise<void> {
  const until = Date.now() + deadlineMs;
  for (;;) {
    try {
      const r = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(5000) });
      if (r.status === 200) return;
    } catch { /* not yet */ }
    if (Date.now() > until) throw new Error(`${url}/readyz not 200 within ${deadlineMs} ms`);
    await sleep(250);
  }
}

export async function runChaos(o: ChaosOptions): Promise<ChaosResult> {
  const log = o.log ?? (() => {});
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'ivs-chaos-'));
  const logFile = path.join(dataDir, 'services.log');
  const apiPort = await freePort();
  const temporalKind = o.temporal ?? 'dev';
  const violations: string[] = [];
  const unplannedExits: string[] = [];
  let secret = '';
  const receiver = await verifyingReceiver(() => secret);
  let stack: RunningStack | null = null;
  let db: pg.Pool | null = null;
  const t0 = performance.now();
  try {
    log(`starting a stack (Temporal ${temporalKind}) in ${dataDir}`);
    stack = await startStack({
      dataDir, pgPort: await freePort(), temporal: temporalKind, temporalPort: await freePort(), apiPort, logFile,
      // The dev server keeps its state in a file, so that it survives its own SIGKILL.
      temporalDbFile: path.join(dataDir, 'temporal.sqlite'),
      env: { LOG_LEVEL: 'info', PUBLIC_BASE_URL: `http://127.0.0.1:${apiPort}`, SERVICE_MODE: 'development' },
    });
    const s = stack;
    // Crashes: any process of the stack that exits without having been killed here.
    const killed = new Set<number>();
    let stopping = false;
    const watched = new Set<number>();
    const watch = (name: string, c: ChildProcess | null) => {
      if (!c?.pid || watched.has(c.pid)) return;
      watched.add(c.pid);
      c.once('exit', (code, signal) => { if (!killed.has(c.pid!) && !stopping) unplannedExits.push(`${name} (pid ${c.pid}, ${signal ?? `code ${code}`})`); });
    };
    const watchAll = () => {
      s.apis.forEach((c, i) => watch(`api ${i}`, c));
      s.workers.forEach((c, i) => watch(`worker ${i}`, c));
      watch('temporal', s.temporalProcess);
    };
    watchAll();
    let pgPid = s.postgresPid();
    const pgWatch = setInterval(() => {
      if (pgPid && !killed.has(pgPid) && !stopping && !alive(pgPid)) { unplannedExits.push(`postgres (pid ${pgPid})`); pgPid = null; }
    }, 500);

    db = new pg.Pool({ connectionString: s.databaseUrl, max: 4 });
    // An idle client whose server went away emits 'error' on the pool: expected here during a kill.
    db.on('error', () => {});
    const signup = await (await fetch(`${s.apiUrl}/v1/signup`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'chaos' }) })).json() as { api_key: string; project_id: string };
    const hook = await (await fetch(`${s.apiUrl}/v1/projects/${signup.project_id}/webhook`, { method: 'PUT', headers: { 'content-type': 'application/json', 'x-api-key': signup.api_key }, body: JSON.stringify({ url: receiver.url }) })).json() as { secret: string };
    secret = hook.secret;
    const projectId = signup.project_id;

    // The load: `cases` genuine applicants, `concurrency` at a time, each retrying like a client.
    let submitted = 0;
    let clientRetries = 0;
    let replayedCreates = 0;
    /** Every Case id a create answered the load with (a create sent again answers the same id). */
    const createdIds = new Set<string>();
    const submittedAt = new Map<string, number>();
    const loadErrors: string[] = [];
    let next = 0;
    const load = Promise.all(Array.from({ length: o.concurrency }, async () => {
      while (next < o.cases) {
        next++;
        try {
          const r = await captureGenuineCase({ base: s.apiUrl, key: signup.api_key, db: db!, applicant: o.applicant, linkExpiresIn: o.linkExpiresIn ?? 300, retryForMs: 240_000, onRetry: () => { clientRetries++; }, onCreated: (id) => createdIds.add(id), onReplayed: () => { replayedCreates++; } });
          submitted++;
          submittedAt.set(r.id, r.submitted);
        } catch (err) {
          loadErrors.push((err as Error).message.slice(0, 300));
        }
      }
    }));

    // The faults, one after another.
    const faults: FaultFigures[] = [];
    // Process faults one after another; a receiver outage runs beside them (it is no process of
    // the stack, and it lasts until deliveries meet it).
    const faultChain = async (chain: Fault[]) => {
      for (const f of chain) {
        while (submitted < f.afterSubmitted && next < o.cases + o.concurrency) {
          if (submitted + loadErrors.length >= o.cases) break;
          await sleep(100);
        }
        const struck = performance.now();
        log(`fault: ${f.kind} (after ${submitted} submitted Cases), down ${Math.round(f.downMs / 1000)} s`);
        const kill = (c: ChildProcess | null) => {
          if (!c?.pid || dead(c)) throw new Error(`no live ${f.kind} process to kill`);
          killed.add(c.pid);
          c.kill('SIGKILL');
        };
        if (f.kind === 'api') {
          kill(s.apis[0]!);
          await sleep(f.downMs);
          await s.restartApi(0);
          await waitReady(s.apiUrl, 120_000);
        } else if (f.kind === 'worker') {
          kill(s.workers[0]!);
          await sleep(f.downMs);
          await s.restartWorker(0);
          await waitReady(s.apiUrl, 120_000);
        } else if (f.kind === 'temporal') {
          kill(s.temporalProcess);
          await sleep(f.downMs);
          await s.restartTemporal();
          await waitReady(s.apiUrl, 120_000);
        } else if (f.kind === 'postgres') {
          const pid = s.postgresPid();
          if (!pid) throw new Error('no PostgreSQL postmaster to kill');
          killed.add(pid);
          process.kill(pid, 'SIGKILL');
          await sleep(f.downMs);
          // The orphaned backends exit once they see their postmaster gone; a new postmaster refuses
          // to start while they still hold the old shared memory.
          await s.restartPostgres();
          pgPid = s.postgresPid();
          await waitReady(s.apiUrl, 120_000);
        } else {
          // Down for `downMs` counted from the first delivery it refused: the outage then surely
          // meets deliveries, whenever the Cases happen to finish.
          await receiver.down();
          const until = Date.now() + 600_000;
          while (Date.now() < until && Number((await db!.query('select count(*)::int as n from webhook_deliveries where project_id = $1 and status_code is null', [projectId]).catch(() => ({ rows: [{ n: 0 }] }))).rows[0].n) === 0) await sleep(250);
          await sleep(f.downMs);
          await receiver.up();
        }
        watchAll();
        const ready = performance.now();
        faults.push({ kind: f.kind, downToReadyMs: ready - struck, toFirstWebhookMs: null });
        const figure = faults.at(-1)!;
        // First webhook of a Case submitted after the fault began, or of any Case after it ended.
        void (async () => {
          const until = Date.now() + 600_000;
          while (Date.now() < until) {
            for (const list of receiver.byCase.values()) {
              const first = list.find((h) => h.at > ready);
              if (first) { figure.toFirstWebhookMs = first.at - struck; return; }
            }
            await sleep(200);
          }
        })();
        log(`  ${f.kind} back after ${((ready - struck) / 1000).toFixed(1)} s`);
      }
    };
    await Promise.all([load, faultChain(o.faults.filter((f) => f.kind !== 'receiver')), faultChain(o.faults.filter((f) => f.kind === 'receiver'))]);
    if (loadErrors.length) violations.push(`${loadErrors.length} Case(s) could not be captured: ${loadErrors.slice(0, 3).join(' | ')}`);
    log(`load done: ${submitted} submitted, ${clientRetries} requests sent again; waiting for every Case and workflow`);

    // Settle: every row terminal, every workflow closed (redeliveries included).
    const connection = await Connection.connect({ address: s.temporalAddress });
    const client = new Client({ connection });
    const listWorkflows = async () => {
      const out: { workflowId: string; status: string }[] = [];
      for await (const w of client.workflow.list({ query: `ProjectId = "${projectId}"` })) out.push({ workflowId: w.workflowId, status: w.status.name });
      return out;
    };
    let rows: { id: string; status: string; assessment: string | null; confidence: string | null; summary_reasons: string[] | null }[] = [];
    let workflows: { workflowId: string; status: string }[] = [];
    let compensatedCreates = 0;
    const settleUntil = Date.now() + (o.settleMs ?? 15 * 60_000);
    for (;;) {
      rows = (await db.query('select id, status, assessment, confidence::text, summary_reasons from verifications where project_id = $1', [projectId])).rows;
      workflows = await listWorkflows();
      const open = rows.filter((r) => !['completed', 'failed'].includes(r.status)).length + workflows.filter((w) => w.status === 'RUNNING').length;
      const hooked = rows.filter((r) => receiver.byCase.has(r.id)).length;
      if ((open === 0 && workflows.length >= rows.length) || Date.now() > settleUntil) break;
      log(`  waiting: ${open} open (Cases or workflows), ${hooked}/${rows.length} Cases with a webhook`);
      await sleep(5000);
    }
    clearInterval(pgWatch);

    // Invariants.
    const notTerminal = rows.filter((r) => !['completed', 'failed'].includes(r.status));
    if (notTerminal.length) violations.push(`${notTerminal.length} Case(s) not terminal: ${notTerminal.map((r) => `${r.id} ${r.status}`).slice(0, 5).join(', ')}`);
    // Creates carry an Idempotency-Key: one sent again after a kill swallowed its answer must answer
    // the Case it made, never make a second that nobody captures.
    const unasked = rows.filter((r) => !createdIds.has(r.id));
    if (unasked.length) violations.push(`${unasked.length} Case(s) no create answered (a retried create made a second Case): ${unasked.map((r) => r.id).slice(0, 5).join(', ')}`);
    // A create whose commit failed (PostgreSQL or the api died under it) leaves a workflow that
    // finds no row and ends itself with `not_created` (workflows/case-workflow.ts): it must have no row.
    const rowIds = new Set(rows.map((r) => `case-${r.id}`));
    const compensated: typeof workflows = [];
    for (const w of workflows) {
      if (rowIds.has(w.workflowId) || w.status !== 'COMPLETED') continue;
      const result = await client.workflow.getHandle(w.workflowId).result() as { status: string };
      if (result.status === 'not_created') compensated.push(w);
    }
    workflows = workflows.filter((w) => !compensated.includes(w));
    compensatedCreates = compensated.length;
    const wfIds = new Set(workflows.map((w) => w.workflowId));
    if (rows.length !== workflows.length || [...rowIds].some((id) => !wfIds.has(id)) || [...wfIds].some((id) => !rowIds.has(id))) {
      violations.push(`rows ${rows.length} ≠ workflows ${workflows.length} (rows without a workflow: ${[...rowIds].filter((id) => !wfIds.has(id)).join(', ') || 'none'}; workflows without a row: ${[...wfIds].filter((id) => !rowIds.has(id)).join(', ') || 'none'})`);
    }
    let workflowResults = 0;
    for (const r of rows) {
      const w = workflows.find((x) => x.workflowId === `case-${r.id}`);
      if (!w) continue;
      if (w.status !== 'COMPLETED') { violations.push(`workflow case-${r.id} ${w.status}`); continue; }
      const result = await client.workflow.getHandle(`case-${r.id}`).result() as { status: string; assessment?: string };
      if (result.status !== r.status || (result.assessment ?? null) !== r.assessment) violations.push(`case-${r.id}: workflow result ${result.status}/${result.assessment} ≠ row ${r.status}/${r.assessment}`);
      else workflowResults++;
    }
    if (workflowResults !== rows.length) violations.push(`terminal results ${workflowResults} ≠ rows ${rows.length}`);
    let webhooks = 0;
    let duplicates = 0;
    let casesWithWebhook = 0;
    for (const r of rows) {
      const hooks = receiver.byCase.get(r.id) ?? [];
      webhooks += hooks.length;
      if (hooks.length === 0) { violations.push(`no webhook for Case ${r.id} (${r.status})`); continue; }
      casesWithWebhook++;
      duplicates += hooks.length - 1;
      // No duplicate assessment: every delivery of a Case carries the one assessment the row holds.
      const distinct = new Set(hooks.map((h) => `${h.event}|${h.status}|${h.assessment}|${h.confidence}|${h.reasons}`));
      if (distinct.size > 1) violations.push(`Case ${r.id}: webhooks disagree: ${[...distinct].join(' / ')}`);
      const want = `${r.status}|${r.assessment}|${Number(r.confidence ?? 0)}|${(r.summary_reasons ?? []).join(',')}`;
      if (!hooks.every((h) => `${h.status}|${h.assessment}|${h.confidence}|${h.reasons}` === want)) violations.push(`Case ${r.id}: webhook ≠ row (${want})`);
    }
    const dupChecks = (await db.query('select verification_id, "check", count(*)::int as n from check_results where verification_id = any($1) group by 1, 2 having count(*) > 1', [rows.map((r) => r.id)])).rows;
    if (dupChecks.length) violations.push(`${dupChecks.length} duplicate check result(s): ${JSON.stringify(dupChecks.slice(0, 3))}`);
    if (receiver.badSignatures() > 0) violations.push(`${receiver.badSignatures()} webhook(s) with a bad signature`);
    for (const e of unplannedExits) violations.push(`crashed: ${e}`);
    stopping = true;
    const failedDeliveryAttempts = Number((await db.query("select count(*)::int as n from webhook_deliveries where project_id = $1 and (status_code is null or status_code < 200 or status_code >= 300)", [projectId])).rows[0].n);
    await connection.close();
    return {
      cases: rows.length,
      submitted,
      terminal: rows.length - notTerminal.length,
      workflows: workflows.length,
      workflowResults,
      statuses: tally(rows.map((r) => r.status)),
      assessments: tally(rows.map((r) => r.assessment ?? 'none')),
      webhooks,
      casesWithWebhook,
      duplicateWebhooks: duplicates,
      badSignatures: receiver.badSignatures(),
      clientRetries,
      replayedCreates,
      failedDeliveryAttempts,
      faults,
      compensatedCreates,
      unplannedExits,
      wallMs: performance.now() - t0,
      violations,
      dataDir,
    };
  } finally {
    await db?.end().catch(() => {});
    await stack?.stop().catch(() => {});
    await receiver.down().catch(() => {});
    if (!o.keep && !violations.length) rmSync(dataDir, { recursive: true, force: true });
    else if (existsSync(logFile)) log(`services log kept: ${logFile} (${readFileSync(logFile, 'utf8').split('\n').length} lines)`);
  }
}
