/**
 * `npm run bench:authenticity [-- --docs 20] [-- --no-zones] [-- --all] [-- --compare 5,6] [-- --no-synthetic] [-- --no-real] [-- --camera recipe] [-- --dump results.jsonl] [-- --only 6]`
 *
 * 1. REAL images first (bench/authenticity-real.ts): genuine camera, scanner, document and
 *    browser-canvas JPEGs and attacks applied to real images, HELD-OUT split (never used for
 *    training or thresholds); `--all` adds the tuning split as a separate report; `--compare 4`
 *    runs settings v4 on the same files. The set is built on first use (fetch-real.ts needs the
 *    GitHub snapshots named in engine/authenticity/real/sources.json).
 * 2. Generated documents second (below).
 *
 * Held-out evaluation of the authenticity engine on generated documents. The test split is generated (once, cached
 * under .data/authenticity/corpus/test) with a different seed and portrait photos disjoint from
 * training; every file goes through the public engine API exactly as the worker would call it.
 * Prints per attack type the detection rate at the score threshold that flags 5% of clean
 * images, ROC AUC, the status mix, and latency p50/p95 per image. Timings depend on machine load.
 */
import { appendFileSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { REPO_ROOT } from '../platform/paths.js';
import { existsSync } from 'node:fs';
import { AUTHENTICITY_SETTINGS_V4, AUTHENTICITY_SETTINGS_V5, AUTHENTICITY_SETTINGS_V6, AUTHENTICITY_SETTINGS_V7, AUTHENTICITY_SETTINGS_V8, AUTHENTICITY_SETTINGS_V9, createAuthenticityEngine, DEFAULT_AUTHENTICITY_SETTINGS, type AuthenticitySettings } from '../engine/authenticity/index.js';
import { fetchReal } from '../tools/authenticity/real/fetch-real.js';
import { makeRealSet, SET_MANIFEST } from '../tools/authenticity/real/make-real-set.js';
import { reportReal, runReal, type RealResult } from './authenticity-real.js';
import { ATTACK_LABELS, type ResaveEdits, type SampleLabel } from '../tools/authenticity/attacks/types.js';
import { buildCorpus, corpusDirName, type ManifestRow } from '../tools/authenticity/training/corpus.js';

const { values } = parseArgs({
  args: process.argv.slice(2),
  options: {
    docs: { type: 'string', default: '20' },
    'no-zones': { type: 'boolean', default: false },
    all: { type: 'boolean', default: false },
    compare: { type: 'string' },
    'no-synthetic': { type: 'boolean', default: false },
    'no-real': { type: 'boolean', default: false },
    camera: { type: 'string', default: 'real' },
    // Per-file results of the real part (file, settings version, score, status, reasons) as JSON
    // lines, so that figures on a sub-population (e.g. the sources of one release) can be re-read.
    dump: { type: 'string' },
    // `--only 6`: run just these settings on the real part (no default first), e.g. to finish a
    // comparison whose default pass already ran (its per-file results are in --dump).
    only: { type: 'string' },
  },
});
const log = (s: string) => process.stderr.write(s);
const realReport: Record<string, unknown> = {};
if (!existsSync(SET_MANIFEST)) {
  const f = fetchReal();
  if (f.missing.length) throw new Error(`real corpus: ${f.missing.length} source files missing (fetch the repositories named in sources.json)`);
  await makeRealSet();
}
const parts: [string, (r: { heldout: boolean }) => boolean][] = [['heldout', (r) => r.heldout]];
if (values.all) parts.push(['tuning', (r) => !r.heldout]);
// `--compare 5,6`: released settings run on the same files after the default.
const RELEASED: Record<string, AuthenticitySettings> = { '4': AUTHENTICITY_SETTINGS_V4, '5': AUTHENTICITY_SETTINGS_V5, '6': AUTHENTICITY_SETTINGS_V6, '7': AUTHENTICITY_SETTINGS_V7, '8': AUTHENTICITY_SETTINGS_V8, '9': AUTHENTICITY_SETTINGS_V9 };
const compareSettings = (values.compare ?? '').split(',').filter(Boolean).map((v) => {
  const s = RELEASED[v];
  if (!s) throw new Error(`--compare: unknown settings ${v}`);
  return s;
});
if (!values['no-real']) {
  // Each part runs once per settings; the editing attacks saved with REAL editors' headers
  // (round 2, `save: 'real_editor'`) are reported apart, against the same genuine images, so the
  // first report stays comparable with earlier releases.
  // Round 3 (splices with an unblurred donor saved at 30–54 or 93–98, `round: 3`) is reported
  // apart again, so neither earlier table changes and the new round shows what the detector does
  // on a donor recipe it was not designed around.
  const report = (name: string, settings: AuthenticitySettings, results: RealResult[]) => {
    realReport[`${name}_v${settings.version}`] = reportReal(results.filter((r) => !r.item.save && !r.item.round));
    if (results.some((r) => r.item.save && !r.item.round)) realReport[`${name}_real_editors_v${settings.version}`] = reportReal(results.filter((r) => r.item.label === 'clean' || (r.item.save && !r.item.round)));
    if (results.some((r) => r.item.round === 3)) realReport[`${name}_splice_round3_v${settings.version}`] = reportReal(results.filter((r) => r.item.label === 'clean' || r.item.round === 3));
  };
  for (const [name, filter] of parts) {
    const onlySettings = (values.only ?? '').split(',').filter(Boolean).map((v) => {
      const s = RELEASED[v];
      if (!s) throw new Error(`--only: unknown settings ${v}`);
      return s;
    });
    for (const settings of onlySettings.length ? onlySettings : [DEFAULT_AUTHENTICITY_SETTINGS, ...compareSettings]) {
      const results = await runReal(settings, filter, log);
      report(name, settings, results);
      if (values.dump) {
        const lines = results.map((r) => JSON.stringify({ part: name, settings: settings.version, file: r.item.file, label: r.item.label, kind: r.item.kind, source: r.item.source, save: r.item.save ?? null, score: r.score, status: r.status, reasons: r.reasons, ms: Math.round(r.ms) }));
        appendFileSync(values.dump, lines.join('\n') + '\n');
      }
    }
  }
  process.stdout.write(JSON.stringify({ real: realReport }, null, 2) + '\n');
}
if (values['no-synthetic']) process.exit(0);
const docs = Number(values.docs);
// Corpus recipe v3 (default): the simulated camera writes real cameras' headers; `--camera recipe`
// reads the recipe-v2 corpus (mozjpeg presets 2–5 on clean captures) that models v1–v4 knew.
const cameraTables = values.camera === 'recipe' ? 'recipe' : 'real';
const dir = path.join(REPO_ROOT, '.data', 'authenticity', 'corpus', corpusDirName('test', cameraTables));
await buildCorpus('test', 0, docs, dir, (s) => process.stderr.write(s), cameraTables);
const rows = readFileSync(path.join(dir, 'manifest.jsonl'), 'utf8')
  .split('\n')
  .filter((l) => l.trim())
  .map((l) => JSON.parse(l) as ManifestRow)
  .filter((r) => r.doc < docs);

interface GenResult { label: SampleLabel; capture: string; edits?: ResaveEdits; score: number; risk: number; status: string; ms: number }
async function runGenerated(settings: AuthenticitySettings): Promise<GenResult[]> {
  const engine = await createAuthenticityEngine(settings);
  const results: GenResult[] = [];
  // Warm-up (JIT, sharp thread pool) so that p50 measures steady state.
  await engine.analyze({ bytes: readFileSync(path.join(dir, rows[0]!.file)), kind: 'document_front' });
  for (const r of rows) {
    const bytes = readFileSync(path.join(dir, r.file));
    const at = new Date(r.capturedAt);
    const t0 = performance.now();
    const out = await engine.analyze({
      bytes,
      kind: 'document_front',
      zones: values['no-zones'] ? undefined : r.zones,
      sessionStartedAt: new Date(at.getTime() - 120_000),
      submittedAt: new Date(at.getTime() + 120_000),
    });
    const ms = performance.now() - t0;
    const model = out.evidence.model as { risk: number };
    results.push({ label: r.label, capture: r.capture ?? 'camera', edits: r.edits, score: out.score ?? 0, risk: model.risk, status: out.status, ms });
  }
  await engine.close();
  return results;
}

function auc(neg: number[], pos: number[]): number {
  let wins = 0;
  for (const p of pos) for (const n of neg) wins += p > n ? 1 : p === n ? 0.5 : 0;
  return wins / (pos.length * neg.length);
}
function thresholdAtFpr(neg: number[], fpr: number): number {
  const s = [...neg].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((1 - fpr) * s.length) - 1)]!;
}
const q = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * (s.length - 1)))]!;
};

function reportGenerated(results: GenResult[]): Record<string, unknown> {
const clean = results.filter((r) => r.label === 'clean');
const report: Record<string, unknown> = {};
for (const key of ['score', 'risk'] as const) {
  const neg = clean.map((r) => r[key]);
  const thr = thresholdAtFpr(neg, 0.05);
  const per: Record<string, unknown> = {};
  for (const a of ATTACK_LABELS) {
    const pos = results.filter((r) => r.label === a).map((r) => r[key]);
    per[a] = { n: pos.length, detection_at_5pct_fpr: +(pos.filter((v) => v > thr).length / pos.length).toFixed(3), roc_auc: +auc(neg, pos).toFixed(4) };
  }
  const allPos = results.filter((r) => r.label !== 'clean').map((r) => r[key]);
  report[key === 'score' ? 'engine_score' : 'model_risk_only'] = {
    threshold_at_5pct_fpr: +thr.toFixed(4),
    all_attacks: { n: allPos.length, detection_at_5pct_fpr: +(allPos.filter((v) => v > thr).length / allPos.length).toFixed(3), roc_auc: +auc(neg, allPos).toFixed(4) },
    per_attack: per,
  };
}
const statusMix: Record<string, Record<string, number>> = {};
for (const r of results) {
  statusMix[r.label] ??= { passed: 0, review: 0, failed: 0 };
  statusMix[r.label]![r.status] = (statusMix[r.label]![r.status] ?? 0) + 1;
}
// The same 5%-FPR engine-score threshold (over all clean images), split by how the genuine
// document was captured: a hand-held phone photo or a flat, evenly lit capture.
const threshold = thresholdAtFpr(clean.map((r) => r.score), 0.05);
const byCapture: Record<string, Record<string, unknown>> = {};
for (const style of [...new Set(results.map((r) => r.capture))]) {
  const mine = results.filter((r) => r.capture === style);
  const entry: Record<string, unknown> = {};
  for (const label of [...new Set(mine.map((r) => r.label))]) {
    const xs = mine.filter((r) => r.label === label);
    entry[label] = { n: xs.length, [label === 'clean' ? 'flagged' : 'detected']: +(xs.filter((r) => r.score > threshold).length / xs.length).toFixed(3) };
  }
  byCapture[style] = entry;
}
report.by_capture_style = byCapture;
// Editor re-saves at the same threshold, by what the editor did: whether a crop moved the first
// save's 8×8 grid, and whether the second save was coarser (lower quality) than the first.
// (Manifests written before settings v3 carry no edit record; then this is omitted.)
const resaves = results.filter((r) => r.label === 'editor_resave' && r.edits);
if (resaves.length > 0) {
  const groups: Record<string, { n: number; detected: number }> = {};
  for (const r of resaves) {
    const e = r.edits!;
    const key = `${e.crop ? 'crop' : 'no_crop'}, second save ${e.secondQuality < e.firstQuality ? 'coarser' : 'same or finer'}`;
    groups[key] ??= { n: 0, detected: 0 };
    groups[key].n++;
    if (r.score > threshold) groups[key].detected++;
  }
  report.editor_resave_by_edit = Object.fromEntries(
    Object.entries(groups)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([k, g]) => [k, { n: g.n, detected: +(g.detected / g.n).toFixed(3) }]),
  );
}
const ms = results.map((r) => r.ms);
report.status_mix = statusMix;
report.latency_ms = { p50: Math.round(q(ms, 0.5)), p95: Math.round(q(ms, 0.95)), n: ms.length };
report.setup = { docs, clean: clean.length, attacks: results.length - clean.length, zones: !values['no-zones'], split: 'test (seed 77001, held-out portraits)', camera: cameraTables === 'real' ? 'recipe v3: real cameras\' headers' : 'recipe v2: mozjpeg presets' };
return report;
}

const generated: Record<string, unknown> = {};
for (const settings of [DEFAULT_AUTHENTICITY_SETTINGS, ...compareSettings]) generated[`v${settings.version}`] = reportGenerated(await runGenerated(settings));
process.stdout.write(JSON.stringify({ synthetic: generated }, null, 2) + '\n');
