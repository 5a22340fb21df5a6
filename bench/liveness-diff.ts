/**
 * `npx tsx bench/liveness-diff.ts A.json B.json`: the runs of two `bench/liveness.ts --json` files
 * (same captures, two settings versions) that differ in status, reasons, steps done, dissents,
 * blinks found or contradictions; one line each, then the count. Used for faces v9 vs v10.
 */
import { readFileSync } from 'node:fs';

type Run = {
  set: string; id: string; kind: string; colour: boolean; injected?: boolean; facts?: unknown; status: string; reasons: string[];
  steps: { done: boolean }[]; dissenting: unknown[]; blinks?: unknown; evidence?: { challenge?: { contradictions?: { rotation_deg?: number }[] } };
};
const [fa, fb] = process.argv.slice(2);
if (!fa || !fb) throw new Error('usage: liveness-diff.ts A.json B.json');
const load = (f: string) => JSON.parse(readFileSync(f, 'utf8')) as Run[];
const key = (r: Run) => JSON.stringify([r.set, r.id, r.colour, r.injected ?? null, r.facts ?? null]);
const b = new Map(load(fb).map((r) => [key(r), r]));
const a = load(fa);
let differ = 0, statusChanged = 0;
for (const x of a) {
  const y = b.get(key(x));
  if (!y) {
    console.log(`missing in B: ${key(x)}`);
    continue;
  }
  const sig = (r: Run) => JSON.stringify([r.status, [...r.reasons].sort(), r.steps.map((s) => s.done), r.dissenting.map((d) => JSON.stringify(d)).sort(), r.blinks ?? null]);
  const ca = x.evidence?.challenge?.contradictions ?? [], cb = y.evidence?.challenge?.contradictions ?? [];
  if (sig(x) === sig(y) && JSON.stringify(ca) === JSON.stringify(cb)) continue;
  differ++;
  if (x.status !== y.status) statusChanged++;
  const whole = cb.filter((c) => c.rotation_deg !== undefined).map((c) => c.rotation_deg);
  console.log(`${key(x)} ${x.kind}: ${x.status} → ${y.status}; steps ${x.steps.map((s) => (s.done ? 'y' : 'n')).join('')} → ${y.steps.map((s) => (s.done ? 'y' : 'n')).join('')}; blinks ${JSON.stringify(x.blinks)} → ${JSON.stringify(y.blinks)}; contradictions ${ca.length} → ${cb.length}${whole.length ? ` (whole rotation ${whole.join(', ')}°)` : ''}`);
}
console.log(`runs ${a.length} / ${b.size}; differ ${differ}; status changed ${statusChanged}`);
