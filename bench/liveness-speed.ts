/**
 * `npx tsx bench/liveness-speed.ts [--runs 3] [--split tuning|held-out|all] [--case ID] [--versions v4,v9]`
 *
 * The cost of one liveness capture under two faces settings versions (default v4 and v5), paired:
 * for every labelled real clip (bench/liveness-labels.json, without the screen-colour signal), the
 * two run alternately on the same frames in one process, so the shared machine's load hits both
 * alike. Prints CPU (process: ONNX Runtime's and libvips' threads included) and wall per capture,
 * p50 and p95 over the cases, the second/first ratio per case, and where the second version's
 * time goes (per model, summed over the frames). Outcomes are compared in bench:liveness.
 */
import os from 'node:os';
import { parseArgs } from 'node:util';
import { modelsDir } from '../engine/assets.js';
import { YuNetDetector } from '../engine/faces/detector.js';
import { EyeModel } from '../engine/faces/eyes.js';
import { FaceMeshModel } from '../engine/faces/facemesh.js';
import { LandmarkModel } from '../engine/faces/landmarks.js';
import { evaluateLiveness } from '../engine/faces/liveness.js';
import { loadFaceModels } from '../engine/faces/models-bundle.js';
import { PresentationAttackDetector } from '../engine/faces/pad.js';
import { FACE_SETTINGS_V4, FACE_SETTINGS_V5, FACE_SETTINGS_V6, FACE_SETTINGS_V9 } from '../engine/faces/settings.js';
import { labelledCapture, labelledCases, LABELLED_NOW } from '../tools/faces/testing/labelled.js';
import { fmt, summarize } from './stats.js';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '3' }, split: { type: 'string', default: 'tuning' }, case: { type: 'string' }, versions: { type: 'string', default: 'v4,v5' } } });
const runs = Number(values.runs);
const KNOWN = { v4: FACE_SETTINGS_V4, v5: FACE_SETTINGS_V5, v6: FACE_SETTINGS_V6, v9: FACE_SETTINGS_V9 } as const;
const names = values.versions.split(',') as (keyof typeof KNOWN)[];
if (names.length !== 2 || names.some((n) => !(n in KNOWN))) throw new Error(`--versions: two of ${Object.keys(KNOWN).join(', ')}, comma-separated`);
const versions = names.map((n) => [n, KNOWN[n]] as const);
const [first, second] = names as [string, string];

// Time inside each model call (prototype wrappers: offline tooling only).
const spent = new Map<string, number>();
let counting = false;
function timeMethod(proto: object, method: string, label: string) {
  const target = proto as Record<string, (...a: unknown[]) => Promise<unknown>>;
  const original = target[method]!;
  target[method] = async function (this: unknown, ...args: unknown[]) {
    const t = performance.now();
    try {
      return await original.apply(this, args);
    } finally {
      if (counting) spent.set(label, (spent.get(label) ?? 0) + performance.now() - t);
    }
  };
}
timeMethod(YuNetDetector.prototype, 'detect', 'detector (+ its resize)');
timeMethod(LandmarkModel.prototype, 'predict', '68 landmarks');
timeMethod(FaceMeshModel.prototype, 'predict', 'face mesh');
timeMethod(EyeModel.prototype, 'state', 'eye classifier');
timeMethod(PresentationAttackDetector.prototype, 'score', 'PAD');

// The versions pin the same model files (v6 one fewer: no mesh): one set of sessions serves both.
const models = await loadFaceModels(modelsDir(), FACE_SETTINGS_V5);
const cases = labelledCases().filter((c) => (values.case ? c.id === values.case : values.split === 'all' || c.held_out === (values.split === 'held-out')));
const cpuNow = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const per: Record<string, { cpu: number[]; wall: number[] }> = { [first]: { cpu: [], wall: [] }, [second]: { cpu: [], wall: [] } };
const ratios: number[] = [];
let frameCount = 0;
console.log(`# liveness cost per capture, ${first} vs ${second} paired (${runs} runs each, alternating), ${new Date().toISOString()}`);
console.log(`machine: ${os.cpus().length} cores, load average at start ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
for (const c of cases) {
  let capture;
  try {
    capture = await labelledCapture(models, c, { light: false });
  } catch (e) {
    console.log(`(case ${c.id} skipped: ${(e as Error).message})`);
    continue;
  }
  const input = { frames: capture.frames, challenge: capture.challenge, now: new Date(LABELLED_NOW.getTime() + 30_000), options: { withoutIllumination: true } };
  const mine: Record<string, number[]> = { [first]: [], [second]: [] };
  for (const [, s] of versions) await evaluateLiveness(models, s, input); // warm-up
  for (let i = 0; i < runs; i++) {
    for (const [name, s] of i % 2 ? [...versions].reverse() : versions) {
      counting = name === second;
      const c0 = cpuNow();
      const t0 = performance.now();
      await evaluateLiveness(models, s, input);
      per[name]!.wall.push(performance.now() - t0);
      const cpu = cpuNow() - c0;
      per[name]!.cpu.push(cpu);
      mine[name]!.push(cpu);
      counting = false;
    }
  }
  frameCount += capture.frames.length * runs;
  const r = summarize(mine[second]!).p50 / summarize(mine[first]!).p50;
  ratios.push(r);
  console.log(`  ${c.id.padEnd(20)} ${String(capture.frames.length).padStart(3)} frames  CPU p50 ${first} ${fmt(summarize(mine[first]!).p50, 0).padStart(5)} ms  ${second} ${fmt(summarize(mine[second]!).p50, 0).padStart(5)} ms  (× ${r.toFixed(2)})`);
}
for (const [name] of versions) {
  const s = per[name]!;
  console.log(`${name}: CPU per capture p50 ${fmt(summarize(s.cpu).p50, 0)} ms, p95 ${fmt(summarize(s.cpu).p95, 0)} ms; wall p50 ${fmt(summarize(s.wall).p50, 0)} ms, p95 ${fmt(summarize(s.wall).p95, 0)} ms (n=${s.cpu.length})`);
}
console.log(`${second} / ${first} CPU per case: p50 × ${summarize(ratios).p50.toFixed(2)}, worst × ${Math.max(...ratios).toFixed(2)} (n=${ratios.length}); load average at end ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
console.log(`${second}, time inside each model per frame (wall, p50 case mix): ${[...spent].map(([k, v]) => `${k} ${(v / frameCount).toFixed(2)} ms`).join(', ')}`);
await models.release();
