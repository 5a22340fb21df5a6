/**
 * `npm run bench:faces`: latency, memory and accuracy of the face engine. Real data first: the
 * face-match calibration on public photos (bench/face-calibration.ts: LFW and Microsoft's Face
 * samples, tuning and held-out identities), then the shared photos, then synthetic documents and
 * the liveness scenarios. Figures on a shared 2-core machine are noisy; run twice and read the spread.
 * Writes every liveness capture to .data/faces-bench/<name>/ (frames + frames.json +
 * challenge.json) so that `npm run engine -- liveness` can be run on any of them.
 */
import { readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { cacheDir, facesDir, modelsDir } from '../engine/assets.js';
import { analyseFrame } from '../engine/faces/frame-analysis.js';
import { writeFramesDir } from '../engine/faces/frames-dir.js';
import { quantile } from '../engine/faces/geometry.js';
import { decodeImage } from '../engine/faces/image.js';
import { createFaceEngine } from '../engine/faces/index.js';
import { compareImages } from '../engine/faces/face-match.js';
import { loadFaceModels } from '../engine/faces/models-bundle.js';
import { CURRENT_FACE_SETTINGS, DEFAULT_FACE_SETTINGS } from '../engine/faces/settings.js';
import { CALIBRATION_FAR, calibrate, report as calibrationReport, thresholdAtFar } from './face-calibration.js';
import { syntheticIdCard } from '../tools/faces/testing/document.js';
import { scenarios } from '../tools/faces/testing/scenarios.js';
import { readFile } from 'node:fs/promises';

// Face match runs with the current profile's settings (its calibrated threshold); the liveness
// scenarios below keep the v1 settings they were written for (bench:liveness measures v2 on real clips).
const settings = DEFAULT_FACE_SETTINGS;
const matchSettings = CURRENT_FACE_SETTINGS;
const mb = (b: number) => `${Math.round(b / 2 ** 20)} MB`;
const ms = (v: number) => `${Math.round(v)} ms`;
const stats = (v: number[]) => `p50 ${ms(quantile(v, 0.5))}, p95 ${ms(quantile(v, 0.95))} (n=${v.length})`;
const fmt = (v: number) => v.toFixed(3);

/** TAR at the lowest threshold whose false-accept rate does not exceed `far`. */
function tarAtFar(same: number[], diff: number[], far: number): { tar: number; threshold: number } {
  const sorted = [...diff].sort((a, b) => b - a);
  const allowed = Math.floor(far * diff.length);
  // Accept when similarity > threshold: at most `allowed` impostors may lie above it.
  const threshold = sorted[allowed] ?? -1;
  return { tar: same.filter((s) => s > threshold).length / same.length, threshold };
}

function identityOf(file: string): string | undefined {
  const base = path.basename(file).toLowerCase();
  for (const id of ['obama', 'biden', 'kit', 'rose', 'alex', 'brad', 'nicole', 'sarah']) if (base.startsWith(id)) return id;
  return undefined;
}

const engine = await createFaceEngine(settings);
const rssLoaded = process.memoryUsage().rss;
// A second copy of the models for per-frame timing and photo-pair similarity; RSS is read before it loads.
const models = await loadFaceModels(modelsDir(), settings);
const matchEngine = await createFaceEngine(matchSettings);
console.log(`# face engine bench (face match: settings ${matchSettings.version}; liveness scenarios: ${settings.version}; ${settings.threads} ONNX thread(s) per session)`);
console.log(`RSS with all models loaded: ${mb(rssLoaded)}`);

// --- Real first: face-match calibration on public photos, tuning and held-out identities ---
{
  const t0 = performance.now();
  const results = await calibrate(models, matchSettings);
  const photo = results[0]!, card = results[1]!;
  console.log(`\n## Face-match calibration on real public photos (${matchSettings.models.recognizer.file}; bench/face-calibration.ts, ${Math.round((performance.now() - t0) / 1000)} s)`);
  console.log(
    `threshold rule: the higher of the tuning split's thresholds at FAR ${(CALIBRATION_FAR * 100).toFixed(2)} % (photo vs photo ${thresholdAtFar(photo.tuning.diff, CALIBRATION_FAR).toFixed(3)}, ` +
      `card vs photo ${thresholdAtFar(card.tuning.diff, CALIBRATION_FAR).toFixed(3)}); configured ${matchSettings.match.threshold}, review from ${matchSettings.match.reviewBelow}`,
  );
  for (const l of calibrationReport(results, matchSettings.match.threshold, matchSettings.match.reviewBelow)) console.log(l);
}

// --- Face match on the shared photos ---
const photos = [
  ...(await readdir(facesDir())).map((f) => path.join(facesDir(), f)),
  ...(await readdir(path.join(facesDir(), 'faceonnx'))).map((f) => path.join(facesDir(), 'faceonnx', f)),
].filter((f) => identityOf(f));
const same: number[] = [], diff: number[] = [], docSame: number[] = [], docDiff: number[] = [];
const cards = new Map<string, Buffer>();
for (const p of photos) cards.set(p, (await syntheticIdCard(await readFile(p))).image);
const matchTimes: number[] = [];
for (let i = 0; i < photos.length; i++) {
  for (let j = i + 1; j < photos.length; j++) {
    const s = await compareImages(models, matchSettings, photos[i]!, photos[j]!);
    if (s === null) continue;
    (identityOf(photos[i]!) === identityOf(photos[j]!) ? same : diff).push(s);
  }
  // Selfie against a grayscale ID-card portrait of every other photo: the real use.
  for (let j = 0; j < photos.length; j++) {
    if (i === j) continue;
    const t = performance.now();
    const outcome = await matchEngine.matchFaces({ selfie: await readFile(photos[i]!), document: cards.get(photos[j]!)! });
    matchTimes.push(performance.now() - t);
    const s = outcome.evidence.similarity;
    if (typeof s !== 'number') continue;
    (identityOf(photos[i]!) === identityOf(photos[j]!) ? docSame : docDiff).push(s);
  }
}
const dist = (v: number[]) => `min ${fmt(Math.min(...v))} p5 ${fmt(quantile(v, 0.05))} p50 ${fmt(quantile(v, 0.5))} p95 ${fmt(quantile(v, 0.95))} max ${fmt(Math.max(...v))} (n=${v.length})`;
console.log(`\n## Face match (${matchSettings.models.recognizer.file}, threshold ${matchSettings.match.threshold}) on ${photos.length} shared photos of 8 people (../shared/faces)`);
for (const [label, s, d] of [['photo vs photo', same, diff], ['selfie vs synthetic ID card portrait', docSame, docDiff]] as const) {
  console.log(`${label}: same ${dist(s)}`);
  console.log(`${label}: different ${dist(d)}`);
  for (const far of [0.01, 0.001]) {
    const r = tarAtFar(s, d, far);
    console.log(`${label}: TAR ${(r.tar * 100).toFixed(1)}% at FAR ${far * 100}% (threshold ${fmt(r.threshold)}; ${d.length} impostor pairs, so FAR ${far * 100}% means ≤ ${Math.floor(far * d.length)} accepted)`);
  }
  const fa = d.filter((v) => v >= matchSettings.match.threshold).length;
  const fr = s.filter((v) => v < matchSettings.match.threshold).length;
  console.log(`${label}: at the configured threshold: false accepts ${fa}/${d.length}, false rejects ${fr}/${s.length}`);
}
console.log(`matchFaces latency: ${stats(matchTimes)}`);

// --- Face match on the synthetic document corpus (tools/corpus), when that engine is present ---
type CorpusModule = {
  availablePortraits(): { identity: string; file: string }[];
  renderDocument(input: { template: string; seed: number; portrait: { identity: string; file: string } }): Promise<{ image: Buffer; truth: { portrait?: { box: { x: number; y: number; width: number; height: number } } } }>;
  photograph(document: Buffer, seed: number): Promise<{ image: Buffer }>;
};
const corpusPath = '../tools/corpus/index.js';
const corpus = (await import(corpusPath).catch(() => undefined)) as CorpusModule | undefined;
if (corpus) {
  const cSame: number[] = [], cDiff: number[] = [];
  let noFace = 0;
  const portraits = corpus.availablePortraits();
  for (const [i, portrait] of portraits.entries()) {
    const template = i % 2 ? 'mex-passport' : 'mex-ine';
    const doc = await corpus.renderDocument({ template, seed: 500 + i, portrait });
    const scene = await corpus.photograph(doc.image, 500 + i);
    for (const selfie of photos) {
      if (path.resolve(selfie) === path.resolve(facesDir(), portrait.file)) continue;
      const outcome = await matchEngine.matchFaces({ selfie: await readFile(selfie), document: scene.image });
      const sim = outcome.evidence.similarity;
      if (typeof sim !== 'number') {
        noFace++;
        continue;
      }
      (identityOf(selfie) === portrait.identity ? cSame : cDiff).push(sim);
    }
  }
  console.log(`\n## Face match on tools/corpus documents (${portraits.length} rendered + photographed cards/passports, no portrait box given)`);
  console.log(`same ${dist(cSame)}`);
  console.log(`different ${dist(cDiff)}`);
  for (const far of [0.01, 0.001]) {
    const r = tarAtFar(cSame, cDiff, far);
    console.log(`TAR ${(r.tar * 100).toFixed(1)}% at FAR ${far * 100}% (threshold ${fmt(r.threshold)}, ${cDiff.length} impostor pairs)`);
  }
  console.log(`at the configured threshold: false accepts ${cDiff.filter((v) => v >= matchSettings.match.threshold).length}/${cDiff.length}, false rejects ${cSame.filter((v) => v < matchSettings.match.threshold).length}/${cSame.length}; no face found ${noFace}`);
} else {
  console.log('\n(tools/corpus not available: corpus face-match section skipped)');
}

// --- Liveness scenarios ---
console.log('\n## Liveness captures (10 fps, 480 px; genuine clips lit by simulated screen light, see engine/faces/README.md)');
const frameTimes: number[] = [];
const caseTimes: number[] = [];
// CPU time (user + system of this process) beside wall time: on a shared machine the wall clock
// includes waiting for other people's processes; CPU time approximates an idle core.
const caseCpu: number[] = [];
const outDir = path.join(cacheDir(), '..', 'faces-bench');
await rm(outDir, { recursive: true, force: true });
let correct = 0;
const list = scenarios();
for (const sc of list) {
  const { frames, challenge } = await sc.build(models);
  const now = new Date(Date.parse(challenge.issued_at) + challenge.capture_ms + 5_000);
  await writeFramesDir(path.join(outDir, sc.name.replace(/[^a-z0-9]+/gi, '_')), frames, challenge);
  // Per-frame cost: decode + detection + landmarks + pose + eyes + colour.
  for (const f of frames.slice(0, 10)) {
    const t = performance.now();
    await analyseFrame(models, await decodeImage(f.image, settings.frameMaxSide), settings.multiFace.minAreaRatio);
    frameTimes.push(performance.now() - t);
  }
  const t = performance.now();
  const cpu0 = process.cpuUsage();
  const { outcome, bestFrame } = await engine.evaluateLiveness({ frames, challenge, now });
  // A Case also matches the best frame against the document portrait.
  if (bestFrame) await engine.matchFaces({ selfie: bestFrame, document: (await syntheticIdCard(bestFrame)).image });
  const caseMs = performance.now() - t;
  const cpu = process.cpuUsage(cpu0);
  caseTimes.push(caseMs);
  caseCpu.push((cpu.user + cpu.system) / 1000);
  const ok = (outcome.status === 'passed') === (sc.expect === 'pass');
  if (ok) correct++;
  const e = outcome.evidence as { scores?: Record<string, number | null>; challenge?: { steps: { step: string; done: boolean }[] } };
  console.log(
    `${ok ? 'ok  ' : 'MISS'} ${sc.name}: ${outcome.status} [${outcome.reasons.join(', ')}] expected ${sc.expect}; ` +
      `steps ${e.challenge?.steps.map((s) => `${s.step}${s.done ? '✓' : '✗'}`).join(' ') ?? '-'}; scores ${JSON.stringify(e.scores ?? {})}; ${frames.length} frames, case ${ms(caseMs)}`,
  );
}
console.log(`\n${correct}/${list.length} captures judged as expected`);
console.log(`per frame (decode + analysis): ${stats(frameTimes)}`);
console.log(`per Case (liveness on ~2–6 s of frames + face match): wall ${stats(caseTimes)}`);
console.log(`per Case CPU time (user+sys): ${stats(caseCpu)}`);
console.log(`load average at the end: ${(await import('node:os')).loadavg().map((v) => v.toFixed(1)).join(' ')} on ${(await import('node:os')).cpus().length} cores`);
console.log(`RSS at the end: ${mb(process.memoryUsage().rss)} (includes the second model copy and the bench's own buffers)`);
console.log(`captures written to ${outDir}`);
await engine.close();
await matchEngine.close();
await models.release();
