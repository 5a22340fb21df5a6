/**
 * Real-image part of `npm run bench:authenticity` (issue 13). Every file of the real set
 * (tools/authenticity/real: genuine camera, scanner, document and browser-canvas JPEGs, and
 * attacks applied to real images) goes through the public engine API. Reported per part
 * (held-out first; tuning only with --all): the false-positive rate of the engine's status by
 * genuine kind (review-or-worse and failed), which rule codes fired on genuine images, and per
 * attack the detection at the score threshold that flags 5 % of that part's genuine images,
 * the ROC AUC, and the detection at the engine's own operating point (status ≠ passed).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createAuthenticityEngine, type AuthenticitySettings } from '../engine/authenticity/index.js';
import { loadSetItems, SET_DIR, type RealSetItem } from '../tools/authenticity/real/make-real-set.js';

export interface RealResult { item: RealSetItem; score: number; status: string; reasons: string[]; ms: number; boxes: number }

export async function runReal(settings: AuthenticitySettings, filter: (r: RealSetItem) => boolean, log: (s: string) => void): Promise<RealResult[]> {
  const rows = loadSetItems().filter(filter);
  const engine = await createAuthenticityEngine(settings);
  const out: RealResult[] = [];
  try {
    await engine.analyze({ bytes: readFileSync(path.join(SET_DIR, rows[0]!.file)), kind: 'document_front' });
    for (const [i, item] of rows.entries()) {
      const bytes = readFileSync(path.join(SET_DIR, item.file));
      const t0 = performance.now();
      try {
        const o = await engine.analyze({ bytes, kind: 'document_front' });
        const tiles = (o.evidence.forensics as { tiles?: { boxes?: unknown[] } }).tiles;
        out.push({ item, score: o.score ?? 0, status: o.status, reasons: o.reasons, ms: performance.now() - t0, boxes: tiles?.boxes?.length ?? 0 });
      } catch (err) {
        log(`${item.file}: ${(err as Error).message}\n`);
      }
      if (i % 100 === 99) log(`real ${settings.version}: ${i + 1}/${rows.length}\n`);
    }
  } finally {
    await engine.close();
  }
  return out;
}

function auc(neg: number[], pos: number[]): number {
  let wins = 0;
  for (const p of pos) for (const n of neg) wins += p > n ? 1 : p === n ? 0.5 : 0;
  return pos.length && neg.length ? wins / (pos.length * neg.length) : Number.NaN;
}
function thresholdAtFpr(neg: number[], fpr: number): number {
  const s = [...neg].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((1 - fpr) * s.length) - 1))]!;
}
const r3 = (v: number) => Math.round(v * 1000) / 1000;

export function reportReal(results: RealResult[]): Record<string, unknown> {
  const genuine = results.filter((r) => r.item.label === 'clean');
  const attacks = results.filter((r) => r.item.label !== 'clean');
  const fpr: Record<string, unknown> = {};
  for (const kind of ['camera', 'scanner', 'document', 'browser']) {
    const xs = genuine.filter((r) => r.item.kind === kind);
    if (!xs.length) continue;
    const rules: Record<string, number> = {};
    for (const r of xs) for (const c of r.reasons) rules[c] = (rules[c] ?? 0) + 1;
    fpr[kind] = {
      n: xs.length,
      review_or_failed: r3(xs.filter((r) => r.status !== 'passed').length / xs.length),
      failed: r3(xs.filter((r) => r.status === 'failed').length / xs.length),
      reasons_fired: rules,
    };
  }
  const neg = genuine.map((r) => r.score);
  const thr = thresholdAtFpr(neg, 0.05);
  const per: Record<string, unknown> = {};
  for (const label of [...new Set(attacks.map((r) => r.item.label))].sort()) {
    const xs = attacks.filter((r) => r.item.label === label);
    const pos = xs.map((r) => r.score);
    per[label] = {
      n: xs.length,
      detection_at_5pct_fpr: r3(pos.filter((v) => v > thr).length / pos.length),
      roc_auc: r3(auc(neg, pos)),
      flagged_by_status: r3(xs.filter((r) => r.status !== 'passed').length / xs.length),
      failed: r3(xs.filter((r) => r.status === 'failed').length / xs.length),
    };
  }
  const ms = results.map((r) => r.ms).sort((a, b) => a - b);
  return {
    genuine_fpr_by_kind: fpr,
    score_threshold_at_5pct_fpr: r3(thr),
    attacks: per,
    all_attacks: { n: attacks.length, detection_at_5pct_fpr: r3(attacks.filter((r) => r.score > thr).length / Math.max(1, attacks.length)), roc_auc: r3(auc(neg, attacks.map((r) => r.score))) },
    latency_ms: { p50: Math.round(ms[Math.floor(ms.length / 2)] ?? 0), p95: Math.round(ms[Math.floor(ms.length * 0.95)] ?? 0), n: ms.length },
  };
}
