/**
 * `npm run chaos [-- --scenario api|worker|temporal|postgres|receiver|all --cases 30 --concurrency 4
 *   --temporal dev|postgres --down 5 --receiver-down 60 --keep]`
 *
 * Issue 18 item 3: during a load of genuine Cases (bench/genuine-case.ts), SIGKILL the api, the
 * worker, the Temporal server or PostgreSQL, each in a run (and a stack) of its own, and start it
 * again after `--down` seconds as an operator would; or take the webhook receiver down for
 * `--receiver-down` seconds. Each run then waits for every Case and checks: every Case terminal;
 * rows = workflows (Temporal, by the ProjectId search attribute) = terminal workflow results that
 * agree with the rows; at least one signature-verified webhook per Case; no duplicate assessment
 * (every delivery of a Case carries the row's assessment; one check result per check); no process
 * crashed that was not killed. Prints a table per scenario; exits 1 on any violated invariant.
 * Temporal on PostgreSQL needs `npm run temporal:postgres -- build` (else: unavailable).
 */
import os from 'node:os';
import { parseArgs } from 'node:util';
import { findTemporalBinaries, TEMPORAL_SERVER_VERSION } from '../scripts/temporal-postgres.js';
import { FAULT_KINDS, runChaos, type ChaosResult, type FaultKind } from './chaos-run.js';
import { prepareGenuineApplicant } from './genuine-case.js';
import { fmt } from './stats.js';

const { values } = parseArgs({ options: {
  scenario: { type: 'string', default: 'all' }, cases: { type: 'string', default: '30' }, concurrency: { type: 'string', default: '4' },
  temporal: { type: 'string', default: 'dev' }, down: { type: 'string', default: '5' }, 'receiver-down': { type: 'string', default: '60' },
  keep: { type: 'boolean', default: false },
} });
const scenarios: FaultKind[] = values.scenario === 'all' ? [...FAULT_KINDS] : values.scenario!.split(',').map((s) => {
  if (!FAULT_KINDS.includes(s as FaultKind)) throw new Error(`--scenario takes ${FAULT_KINDS.join('|')}|all, not ${s}`);
  return s as FaultKind;
});
const cases = Number(values.cases);
const concurrency = Number(values.concurrency);
if (!(cases >= 1 && concurrency >= 1)) throw new Error('--cases and --concurrency must be ≥ 1');
const temporal = values.temporal as 'dev' | 'postgres';
if (temporal !== 'dev' && temporal !== 'postgres') throw new Error('--temporal takes dev or postgres');
if (temporal === 'postgres' && !findTemporalBinaries()) {
  console.log(`Temporal on PostgreSQL: unavailable (server ${TEMPORAL_SERVER_VERSION} not built: npm run temporal:postgres -- build)`);
  process.exit(2);
}

const log = (m: string) => console.log(`· ${new Date().toISOString().slice(11, 19)} ${m}`);
const applicant = await prepareGenuineApplicant();
const results: { scenario: FaultKind; r: ChaosResult }[] = [];
for (const scenario of scenarios) {
  log(`scenario ${scenario}: ${cases} Cases, ${concurrency} at a time, Temporal ${temporal}`);
  const downMs = (scenario === 'receiver' ? Number(values['receiver-down']) : Number(values.down)) * 1000;
  const r = await runChaos({
    applicant, cases, concurrency, temporal, log, keep: values.keep,
    // A third of the load submitted: Cases are being captured, queued and processed when it strikes.
    faults: [{ kind: scenario, afterSubmitted: Math.max(1, Math.floor(cases / 3)), downMs }],
  });
  results.push({ scenario, r });
  for (const v of r.violations) log(`  VIOLATION: ${v}`);
}

const s = (ms: number | null) => (ms === null ? '—' : fmt(ms / 1000, 1));
const rows: [string, (r: ChaosResult) => string][] = [
  ['Cases (rows) / submitted by the load', (r) => `${r.cases} / ${r.submitted}`],
  ['terminal / workflows / terminal results', (r) => `${r.terminal} / ${r.workflows} / ${r.workflowResults}`],
  ['kill → restarted and ready (s)', (r) => s(r.faults[0]?.downToReadyMs ?? null)],
  ['kill → first webhook after it (s)', (r) => s(r.faults[0]?.toFirstWebhookMs ?? null)],
  ['webhooks received (verified) / Cases with one', (r) => `${r.webhooks} / ${r.casesWithWebhook}`],
  ['duplicate webhooks (same assessment) / bad signatures', (r) => `${r.duplicateWebhooks} / ${r.badSignatures}`],
  ['failed delivery attempts (redelivered later)', (r) => String(r.failedDeliveryAttempts)],
  ['client requests sent again', (r) => String(r.clientRetries)],
  ['creates sent again, answered with their Case (Idempotency-Key)', (r) => String(r.replayedCreates)],
  ['creates that never committed (workflow ended itself)', (r) => String(r.compensatedCreates)],
  ['crashes (unplanned exits)', (r) => String(r.unplannedExits.length)],
  ['statuses', (r) => Object.entries(r.statuses).map(([k, n]) => `${k} ${n}`).join(', ')],
  ['assessments', (r) => Object.entries(r.assessments).map(([k, n]) => `${k} ${n}`).join(', ')],
  ['wall time (s)', (r) => s(r.wallMs)],
  ['invariants', (r) => (r.violations.length ? `${r.violations.length} VIOLATED` : 'hold')],
];
const label = (k: FaultKind) => (k === 'receiver' ? `receiver down ${values['receiver-down']} s` : `SIGKILL ${k}`);
const width = Math.max(...rows.map(([n]) => n.length));
console.log(`\nmachine: ${os.cpus().length} cores, load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}; Temporal ${temporal === 'dev' ? 'dev server (SQLite file)' : `${TEMPORAL_SERVER_VERSION} on PostgreSQL`}; 1 api, 1 worker; restart after ${values.down} s; ${applicant.frames.length} frames + 1 document per Case`);
console.log(`${''.padEnd(width)}  ${results.map(({ scenario }) => label(scenario).padEnd(20)).join('  ')}`);
for (const [name, cell] of rows) console.log(`${name.padEnd(width)}  ${results.map(({ r }) => cell(r).padEnd(20)).join('  ')}`);
const failed = results.filter(({ r }) => r.violations.length);
if (failed.length) {
  console.log(`\n${failed.length} scenario(s) violated an invariant: ${failed.map(({ scenario }) => scenario).join(', ')}`);
  process.exit(1);
}
