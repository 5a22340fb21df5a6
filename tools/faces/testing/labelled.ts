import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { issueChallenge, type TLivenessChallenge, type TLivenessStep } from '../../../domain/liveness.js';
import { REPO_ROOT, videosDir } from '../../../engine/assets.js';
import type { FaceModels } from '../../../engine/faces/models-bundle.js';
import { buildCapture, scriptedChallengeForClip, seededRandom, type CaptureFrame } from './captures.js';
import { decodeClip } from './clips.js';
import { fetchPublicFrameSequences, fetchPublicVideos, frameSequenceDir, loadPublicFrameSequences, PUBLIC_VIDEOS_DATA_DIR, type PublicFrameSequence } from '../public/fetch.js';

/** One case of bench/liveness-labels.json: a segment of a real clip and what it performs. */
export interface LabelledCase {
  id: string;
  kind: 'genuine' | 'screen_replay' | 'deepfake' | 'print' | 'non_response';
  file: string;
  start_s: number;
  duration_s: number;
  neutral_s: number;
  steps: { step: TLivenessStep; motion_s: [number, number] }[];
  blinks_s: number[];
  held_out: boolean;
  /** One half of a side-by-side clip (bench/liveness-attacks.json), or the middle square of a wide frame. */
  crop?: 'left' | 'right' | 'centre';
}

/**
 * The frame-sequence cases of the unseen set, one per sequence of tools/faces/public/unseen-frames.json
 * (`part` unseen → held out; `tuning` → the only footage a new cue may be fitted on). The sequences
 * follow no challenge and are 2-fps samples, below the timed script's 4 fps, so the challenge cannot
 * complete and what they measure is the attack signals alone: each gets one blink step after a 1.5-s
 * straight look, fixed for all, chosen before any sequence was run.
 */
function frameSequenceCases(part: PublicFrameSequence['part']): LabelledCase[] {
  return loadPublicFrameSequences()
    .filter((s) => s.part === part)
    .map((s) => ({ id: s.name, kind: s.kind, file: `frames/${s.name}`, start_s: 0, duration_s: 9.6, neutral_s: 1.5, steps: [{ step: 'blink', motion_s: [2.0, 9.0] }], blinks_s: [], held_out: part === 'unseen' }));
}

export function labelledCases(): LabelledCase[] {
  return (JSON.parse(readFileSync(path.join(REPO_ROOT, 'bench', 'liveness-labels.json'), 'utf8')) as { cases: LabelledCase[] }).cases;
}

/** The held-out attack set (bench/liveness-attacks.json): every case held out, never tuned on. */
export function attackSetCases(): LabelledCase[] {
  return (JSON.parse(readFileSync(path.join(REPO_ROOT, 'bench', 'liveness-attacks.json'), 'utf8')) as { cases: LabelledCase[] }).cases;
}

/**
 * The public unseen set (bench/liveness-unseen.json, clips of tools/faces/public/unseen-videos.json):
 * footage gathered after every threshold was fixed, all held out, reported on its own.
 */
export function unseenSetCases(): LabelledCase[] {
  return [...(JSON.parse(readFileSync(path.join(REPO_ROOT, 'bench', 'liveness-unseen.json'), 'utf8')) as { cases: LabelledCase[] }).cases, ...frameSequenceCases('unseen')];
}

/**
 * The public page-rate set (bench/liveness-page-rate.json, clips of tools/faces/public/page-rate-videos.json):
 * footage at >= 10 fps gathered after every threshold was fixed; each case's split comes from the
 * project's hash rule applied to its source repository (`pageRateHeldOut`), fixed before any run.
 */
export function pageRateSetCases(): LabelledCase[] {
  return (JSON.parse(readFileSync(path.join(REPO_ROOT, 'bench', 'liveness-page-rate.json'), 'utf8')) as { cases: LabelledCase[] }).cases;
}

/** The split rule of the page-rate set: the labelled set's rule (sha256 starts with 0–4) on the source repository, so one person never sits on both sides. */
export function pageRateHeldOut(repo: string): boolean {
  return '01234'.includes(createHash('sha256').update(repo).digest('hex')[0]!);
}

/** The tuning part of the unseen footage (Replay-Attack's train split): for fitting a new cue, never reported as unseen. */
export function unseenTuningCases(): LabelledCase[] {
  return frameSequenceCases('tuning');
}

let missingSequences: string[] | undefined;

/** The frame sequences not on disk after one fetch from the snapshots (checked once per process: 7200 files). */
export function missingFrameSequences(): string[] {
  missingSequences ??= fetchPublicFrameSequences();
  return missingSequences;
}

/**
 * The frames of a `frames/<name>` case between `startS` and `startS + durationS`, stamped with their
 * time in the original video (frame number / its frame rate) from `startS`. Not resized: a 320 × 240
 * webcam frame is what the engine would get from such a camera.
 */
export function frameSequenceFrames(file: string, startS: number, durationS: number): { image: Buffer; timestampMs: number }[] {
  const name = file.slice('frames/'.length);
  const s = loadPublicFrameSequences().find((x) => x.name === name);
  if (!s) throw new Error(`frame sequence ${name} is not in unseen-frames.json`);
  if (missingFrameSequences().includes(name)) throw new Error(`frame sequence ${name} missing: fetch its repository (tools/faces/public/unseen-frames.json)`);
  return s.frames
    .map((f) => ({ f, t: Math.round((Number(/(\d+)\.jpg$/.exec(f)![1]) / s.source_fps - startS) * 1000) }))
    .filter(({ t }) => t >= 0 && t < durationS * 1000)
    .map(({ f, t }) => ({ image: readFileSync(path.join(frameSequenceDir(s), f)), timestampMs: t }));
}

export const LABELLED_NOW = new Date('2026-11-21T12:00:00Z');

/**
 * The public clips missing here, checked once per process: each check reads and hashes every clip,
 * and test files ask per case, at collection time and per capture.
 */
let missingClips: string[] | undefined;
const missingPublicClips = (): string[] => (missingClips ??= fetchPublicVideos());

/**
 * A case's clip: `../shared/videos/<file>`, or for `public/<name>` a clip of
 * tools/faces/public/videos.json, fetched (sha256-checked) into .data/videos-public.
 */
export function clipPath(file: string): string {
  if (!file.startsWith('public/')) return path.join(videosDir(), file);
  const missing = missingPublicClips();
  const name = file.slice('public/'.length);
  if (missing.includes(name)) throw new Error(`public clip ${name} missing: fetch its repository (tools/faces/public/videos.json)`);
  return path.join(PUBLIC_VIDEOS_DATA_DIR, name);
}

/**
 * Whether a case's clip can be read here: always for `../shared/videos`; for a `public/<name>` clip,
 * only where its repository snapshot is on this machine (`fetchPublicVideos`). A clean CI machine has
 * none: tests that read a public clip skip there, saying so, as the public document sets' tests do.
 */
export function clipAvailable(file: string): boolean {
  return !file.startsWith('public/') || !missingPublicClips().includes(file.slice('public/'.length));
}

/**
 * The capture of a labelled case: the segment at 10 fps, 480 px, a timed-script challenge whose
 * slots follow the labelled motion (`scriptedChallengeForClip`), and, with `light`, the issued
 * colours simulated on the face (never on replays: a screen emits its own light).
 */
export async function labelledCapture(models: FaceModels, c: LabelledCase, opts: { light: boolean; seed?: number; fps?: number; lightAttacks?: boolean }): Promise<{ frames: CaptureFrame[]; challenge: TLivenessChallenge }> {
  const frames = c.file.startsWith('frames/')
    ? frameSequenceFrames(c.file, c.start_s, c.duration_s)
    : await decodeClip(clipPath(c.file), { startS: c.start_s, durationS: c.duration_s, fps: opts.fps ?? 10, maxSide: 480, ...(c.crop ? { crop: c.crop } : {}) });
  const seed = opts.seed ?? 1000 + labelledCases().findIndex((x) => x.id === c.id);
  const challenge = scriptedChallengeForClip(
    issueChallenge(seededRandom(seed), LABELLED_NOW),
    Math.round(c.duration_s * 1000),
    Math.round(c.neutral_s * 1000),
    c.steps.map((s) => ({ step: s.step, startMs: s.motion_s[0] * 1000, endMs: s.motion_s[1] * 1000 })),
  );
  // `lightAttacks: false`: a deepfake fed by a virtual camera never sees the page's screen either.
  const lit = opts.light && c.kind !== 'screen_replay' && !(c.kind === 'deepfake' && opts.lightAttacks === false);
  return { frames: await buildCapture(models, frames, challenge, lit ? { lightFrom: challenge, strength: 0.1 } : {}), challenge };
}

/**
 * Detected blink events against a clip's labelled blink times (seconds), with the ±300 ms window
 * the blink benches use: labelled blinks found, and the events near no labelled blink.
 */
export function matchBlinks<E extends { start_ms: number; end_ms: number }>(events: readonly E[], blinksS: readonly number[]): { found: number; other: E[] } {
  const covers = (e: E, t: number) => t * 1000 >= e.start_ms - 300 && t * 1000 <= e.end_ms + 300;
  return {
    found: blinksS.filter((t) => events.some((e) => covers(e, t))).length,
    other: events.filter((e) => !blinksS.some((t) => covers(e, t))),
  };
}
