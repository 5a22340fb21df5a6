/**
 * `npx tsx bench/faces-cpu-paired.ts --base /work/wt28a-base [--frames 40] [--rounds 5] [--captures 0]`
 *
 * Paired, alternating timing of the face engine's pixel loops (warpToTensor's mesh, landmark and eye
 * crops; the detector's input tensor; the frame analysis' sharpness) between this checkout and an
 * older one (`--base`, a worktree at the commit before the change), on real frames: a real clip
 * decoded as liveness decodes it, with the crops its detector and landmark models place. Per input
 * the old and the new function run back to back, their order alternating, and their outputs are
 * compared byte for byte (a difference aborts the run). `--captures N`: then N whole liveness
 * checks of bench:cases' genuine applicant (53 frames) per side, old and new engines (current
 * profile) alternating in this process, wall and process CPU (every thread) per capture, outcomes
 * compared (run times removed).
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { modelsDir, videosDir } from '../engine/assets.js';
import { CURRENT_FACE_SETTINGS } from '../engine/faces/settings.js';
import { loadFaceModels } from '../engine/faces/models-bundle.js';
import { boxToAffine, decodeImage, type Affine, type RgbImage, type TensorLayout } from '../engine/faces/image.js';
import * as mine from '../engine/faces/image.js';
import { decodeClip } from '../tools/faces/testing/clips.js';

const { values } = parseArgs({ options: { base: { type: 'string' }, frames: { type: 'string', default: '40' }, rounds: { type: 'string', default: '5' }, captures: { type: 'string', default: '0' } } });
if (!values.base) throw new Error('--base DIR (a worktree at the old commit) is required');
const old = (await import(path.resolve(values.base, 'engine/faces/image.ts'))) as typeof mine;

const clip = await decodeClip(path.join(videosDir(), 'krzysiek_real.mp4'), { startS: 0, durationS: 10, fps: 5, maxSide: 720 });
const models = await loadFaceModels(modelsDir(), CURRENT_FACE_SETTINGS);
type Job = { img: RgbImage; map: Affine; side: number; layout: TensorLayout; kind: string };
const jobs: Job[] = [];
for (const f of clip.slice(0, Number(values.frames))) {
  const img = await decodeImage(f.image, CURRENT_FACE_SETTINGS.frameMaxSide);
  const [face] = await models.frameDetector.detect(img);
  if (!face) continue;
  const box = face.box;
  // The face mesh's crop (facemesh.ts), the landmark crop (landmarks.ts), an eye crop (eyes.ts).
  const [le, re] = face.landmarks;
  const theta = Math.atan2(re[1] - le[1], re[0] - le[0]);
  const sideM = 1.5 * Math.max(box.width, box.height), k = sideM / 192, cos = Math.cos(theta), sin = Math.sin(theta), o = 0.5 - 96;
  const cx = box.x + box.width / 2, cy = box.y + box.height / 2;
  jobs.push({ img, kind: 'mesh', side: 192, layout: { order: 'rgb', mean: [127.5, 127.5, 127.5], std: [127.5, 127.5, 127.5] }, map: [cos * k, -sin * k, cx + (cos * o - sin * o) * k, sin * k, cos * k, cy + (sin * o + cos * o) * k] });
  const s = Math.max(box.width, box.height);
  jobs.push({ img, kind: 'landmarks', side: 64, layout: { order: 'gray', mean: [0], std: [256] }, map: boxToAffine({ x: cx - s / 2, y: cy - s / 2, width: s, height: s }, 64, 64) });
  const e = 0.25 * box.width;
  jobs.push({ img, kind: 'eye', side: 24, layout: { order: 'gray', mean: [0], std: [255 / 1.3] }, map: boxToAffine({ x: le[0] - e / 2, y: le[1] - e / 2, width: e, height: e }, 24, 24) });
}
await models.release();

const t = { old: new Map<string, number>(), new: new Map<string, number>() };
const add = (m: Map<string, number>, k: string, ms: number) => m.set(k, (m.get(k) ?? 0) + ms);
let flip = false;
for (let round = 0; round < Number(values.rounds); round++) {
  for (const j of jobs) {
    const run = (fn: typeof mine.warpToTensor) => {
      const t0 = performance.now();
      const out = fn(j.img, j.map, j.side, j.side, j.layout);
      return { out, ms: performance.now() - t0 };
    };
    flip = !flip;
    const a = flip ? run(old.warpToTensor) : run(mine.warpToTensor);
    const b = flip ? run(mine.warpToTensor) : run(old.warpToTensor);
    const [o, n] = flip ? [a, b] : [b, a];
    if (!Buffer.from(o.out.buffer).equals(Buffer.from(n.out.buffer))) throw new Error(`warpToTensor ${j.kind}: outputs differ`);
    add(t.old, j.kind, o.ms);
    add(t.new, j.kind, n.ms);
  }
}
const per = (m: Map<string, number>, k: string) => (m.get(k)! / Number(values.rounds) / (jobs.length / 3)).toFixed(3);
for (const k of ['mesh', 'landmarks', 'eye']) console.log(`warpToTensor ${k.padEnd(9)} old ${per(t.old, k)} ms  new ${per(t.new, k)} ms per crop  (${jobs.length / 3} real frames × ${values.rounds} rounds, alternating, outputs equal)`);

const captures = Number(values.captures);
if (captures > 0) {
  const { prepareGenuineApplicant } = await import('./genuine-case.js');
  const { ZLivenessChallenge, ZLivenessFrameMeta } = await import('../domain/liveness.js');
  const { CURRENT_ENGINE_PROFILE } = await import('../domain/engine-profile.js');
  const { engineProfile } = await import('../engine/profiles.js');
  const { createFaceEngine } = await import('../engine/faces/index.js');
  const oldFaces = (await import(path.resolve(values.base, 'engine/faces/index.ts'))) as { createFaceEngine: typeof createFaceEngine };
  const profile = engineProfile(CURRENT_ENGINE_PROFILE);
  const applicant = await prepareGenuineApplicant();
  const now = new Date();
  const challenge = ZLivenessChallenge.parse({ ...applicant.challenge, issued_at: now.toISOString(), deadline: new Date(now.getTime() + 600_000).toISOString() });
  const frames = applicant.frames.map((f) => ({ image: f.image, meta: ZLivenessFrameMeta.parse(f.meta) })).sort((a, b) => a.meta.timestamp_ms - b.meta.timestamp_ms);
  const engines = { old: await oldFaces.createFaceEngine(profile.faces), new: await createFaceEngine(profile.faces) };
  const strip = (o: unknown) => JSON.stringify(o, (k, v: unknown) => (k === 'duration_ms' ? undefined : Buffer.isBuffer(v) || (v && typeof v === 'object' && (v as { type?: string }).type === 'Buffer') ? 'buffer' : v));
  const res = { old: { wall: [] as number[], cpu: [] as number[] }, new: { wall: [] as number[], cpu: [] as number[] } };
  const outs: Record<string, string> = {};
  let status = '';
  // One warm-up each (model sessions, JIT), then old/new alternating, the first side alternating too.
  for (let i = -1; i < captures; i++) {
    for (const side of i % 2 === 0 ? (['old', 'new'] as const) : (['new', 'old'] as const)) {
      const c0 = process.cpuUsage(), t0 = performance.now();
      const r = await engines[side].evaluateLiveness({ frames, challenge, now });
      status = r.outcome.status;
      const wall = performance.now() - t0, c = process.cpuUsage(c0);
      const o = strip(r.outcome) + (r.bestFrame ? String(r.bestFrame.length) + (await import('node:crypto')).createHash('sha256').update(r.bestFrame).digest('hex') : '');
      if (outs[side] !== undefined && outs[side] !== o) throw new Error(`${side}: outcome changed between runs`);
      outs[side] = o;
      if (i >= 0) {
        res[side].wall.push(wall);
        res[side].cpu.push((c.user + c.system) / 1000);
      }
    }
  }
  if (outs.old !== outs.new) throw new Error('liveness outcomes differ between old and new');
  const med = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)]!.toFixed(0);
  const mean = (v: number[]) => (v.reduce((a, b) => a + b, 0) / v.length).toFixed(0);
  for (const side of ['old', 'new'] as const) console.log(`liveness ${side}: cpu median ${med(res[side].cpu)} ms (mean ${mean(res[side].cpu)}), wall median ${med(res[side].wall)} ms (mean ${mean(res[side].wall)}) per capture, n=${captures}`);
  const diffs = res.old.cpu.map((o, i) => o - res.new.cpu[i]!);
  console.log(`paired cpu saving per capture: median ${med(diffs)} ms, mean ${mean(diffs)} ms; outcomes identical (liveness ${status})`);
  await engines.old.close();
  await engines.new.close();
}
