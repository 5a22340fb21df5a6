/**
 * `npx tsx bench/print-cue.ts [--held-out]`: a proposed print cue, measured (not part of any engine profile).
 *
 * A printed photo is a flat, rigid sheet: whatever the hand does, all its landmarks move together
 * under one plane-to-plane map (a homography), and nothing in the face changes shape. A live face
 * is neither flat (the nose stands out of the eye–mouth plane when the head rotates even slightly)
 * nor rigid (blinks, lips, brows). Two per-capture measures from the 68 landmarks the engine already
 * computes, over every pair of frames with a face:
 * - `parallax`: the largest nose parallax (`parallax.ts` noseParallax, eye distances) between any two
 *   frames — the v1 turn-parallax test applied to the whole capture, not only to a prompted turn;
 * - `deform`: the 90th percentile, over frames, of the mean residual of all inner-face landmarks
 *   (brows, eyes, nose, mouth) after the best homography onto the first face frame (eye distances).
 * Rule (fixed on the TUNING part only: Replay-Attack train split, 15 people, 60 real accesses and 60
 * prints): dissent when the measure is below the 5th percentile of the tuning genuine captures.
 * `--held-out` then applies that rule, unchanged, to the unseen part (test split, 20 other people) once.
 * `--clips` applies it to the real video clips at the page's rate (10 fps): the labelled genuine
 * clips, the DeepFaceLive drivers and swaps, the unseen set's clips — what the 2-fps bounds would
 * cost genuine people filmed at a real frame rate (no print footage at that rate exists here).
 */
import { decodeImage } from '../engine/faces/image.js';
import { analyseFrame } from '../engine/faces/frame-analysis.js';
import { quantile } from '../engine/faces/geometry.js';
import { loadFaceModels } from '../engine/faces/models-bundle.js';
import { sheetRigidity } from '../engine/faces/rigidity.js';
import { CURRENT_FACE_SETTINGS } from '../engine/faces/settings.js';
import { modelsDir } from '../engine/assets.js';
import type { Point } from '../engine/faces/image.js';
import { decodeClip } from '../tools/faces/testing/clips.js';
import { attackSetCases, clipPath, frameSequenceFrames, labelledCases, unseenSetCases, unseenTuningCases, type LabelledCase } from '../tools/faces/testing/labelled.js';

const settings = CURRENT_FACE_SETTINGS;
const models = await loadFaceModels(modelsDir(), settings);

interface Measured { id: string; kind: string; parallax: number; deform: number; faces: number }

async function measure(c: LabelledCase): Promise<Measured> {
  const faces: { lm: Point[]; ed: number }[] = [];
  const frames = c.file.startsWith('frames/')
    ? frameSequenceFrames(c.file, c.start_s, c.duration_s)
    : await decodeClip(clipPath(c.file), { startS: c.start_s, durationS: c.duration_s, fps: 10, maxSide: 480, ...(c.crop ? { crop: c.crop } : {}) });
  for (const f of frames) {
    const a = await analyseFrame(models, await decodeImage(f.image, settings.frameMaxSide), 0.25);
    if (a.face) faces.push({ lm: a.face.landmarks, ed: a.face.eyeDistance });
  }
  const r = sheetRigidity(faces.map((f) => ({ landmarks: f.lm, eyeDistance: f.ed })));
  return { id: c.id, kind: c.kind, parallax: r?.parallax ?? 0, deform: r?.deformation ?? 0, faces: faces.length };
}

const heldOut = process.argv.includes('--held-out');
const tuning: Measured[] = [];
for (const c of unseenTuningCases()) tuning.push(await measure(c));
const q = (v: number[], p: number) => quantile(v, p);
const genuine = tuning.filter((r) => r.kind === 'genuine' && r.faces >= 2);
const rule = { parallax: q(genuine.map((r) => r.parallax), 0.05), deform: q(genuine.map((r) => r.deform), 0.05) };
const fmt = (v: number[]) => `p5 ${q(v, 0.05).toFixed(4)} p50 ${q(v, 0.5).toFixed(4)} p95 ${q(v, 0.95).toFixed(4)}`;
function summary(title: string, rs: Measured[]) {
  console.log(`\n## ${title}`);
  for (const kind of ['genuine', 'print', 'screen_replay']) {
    const k = rs.filter((r) => r.kind === kind && r.faces >= 2);
    if (!k.length) continue;
    const below = (m: 'parallax' | 'deform') => k.filter((r) => r[m] < rule[m]).length;
    const both = k.filter((r) => r.parallax < rule.parallax && r.deform < rule.deform).length;
    const either = k.filter((r) => r.parallax < rule.parallax || r.deform < rule.deform).length;
    console.log(`${kind} (n=${k.length}): parallax ${fmt(k.map((r) => r.parallax))}; below rule ${below('parallax')}/${k.length}`);
    console.log(`  deform ${fmt(k.map((r) => r.deform))}; below rule ${below('deform')}/${k.length}; both below ${both}/${k.length}; either below ${either}/${k.length}`);
  }
}
console.log(`# print cue experiment (${settings.version} landmarks), ${new Date().toISOString()}`);
console.log(`rule from the tuning genuine captures' 5th percentile: parallax < ${rule.parallax.toFixed(4)}, deform < ${rule.deform.toFixed(4)} (eye distances)`);
summary('TUNING part (Replay-Attack train split; the rule was fitted here)', tuning);
if (heldOut) {
  const unseen: Measured[] = [];
  for (const c of unseenSetCases().filter((x) => x.file.startsWith('frames/') && x.kind !== 'screen_replay')) unseen.push(await measure(c));
  summary('UNSEEN part (test split, other people; the rule applied once, unchanged)', unseen);
  if (process.argv.includes('--list')) for (const r of unseen) console.log(`  ${r.kind.padEnd(8)} ${r.id.padEnd(70)} parallax ${r.parallax.toFixed(4)} deform ${r.deform.toFixed(4)} faces ${r.faces}`);
}
if (process.argv.includes('--clips')) {
  const sets: [string, LabelledCase[]][] = [
    ['labelled genuine clips (../shared/videos + public)', labelledCases().filter((c) => c.kind === 'genuine')],
    ['DeepFaceLive drivers (genuine) and swaps', attackSetCases()],
    ['unseen set clips', unseenSetCases().filter((c) => c.file.startsWith('public/'))],
  ];
  for (const [title, cases] of sets) {
    const rs: Measured[] = [];
    for (const c of cases) {
      try {
        rs.push(await measure(c));
      } catch (e) {
        console.log(`(${c.id} skipped: ${(e as Error).message})`);
      }
    }
    console.log(`\n## ${title}, 10 fps: dissent (both below the rule) on`);
    for (const kind of [...new Set(rs.map((r) => r.kind))]) {
      const k = rs.filter((r) => r.kind === kind && r.faces >= 2);
      const hit = k.filter((r) => r.parallax < rule.parallax && r.deform < rule.deform);
      console.log(`${kind}: ${hit.length}/${k.length} [${hit.map((r) => r.id).join(', ')}]; parallax ${fmt(k.map((r) => r.parallax))}; deform ${fmt(k.map((r) => r.deform))}`);
    }
  }
}
await models.release();
