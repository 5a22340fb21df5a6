import type { TCheckOutcome, TModelStamp } from '../../domain/checks.js';
import type { TLivenessChallenge, TLivenessStep, TStepSlot } from '../../domain/liveness.js';
import type { StepEvent } from './challenge-steps.js';
import { analyseFrame, type FaceObservation, type FrameAnalysis } from './frame-analysis.js';
import { median, quantile } from './geometry.js';
import { scoreIllumination } from './illumination.js';
import { decodeAhead, type RgbImage } from './image.js';
import { captureSourceSignal } from './injection.js';
import { fillEyes, redetect, trackFrames } from './tracking.js';
import type { LivenessInput } from './liveness.js';
import type { FaceModels } from './models-bundle.js';
import { noseParallax } from './parallax.js';
import { sheetRigidity } from './rigidity.js';
import { cosineSimilarity } from './recognizer.js';
import { blendTextureRatio, glareFraction, moirePeakRatio, screenBorders, screenFrame, explainedSkinTone, skinToneFraction, whiteBalancedSkinTone } from './screen-cues.js';
import { eyeAspectRatio, meshEyeAspectRatio } from './eyes.js';
import { forwardAngle, meanRotation, relativeYawPitch } from './pose.js';
import type { FaceEngineSettings, LivenessV2Settings } from './settings.js';

export const LIVENESS_V2_COMPONENT = 'face-engine@2';

/** Frames analysed at once when every frame is detected (v2–v4, v6): the worker has 2 cores. */
const FRAMES_IN_FLIGHT = 2;

interface Frame {
  index: number;
  timestampMs: number;
  face: FaceObservation;
  img: RgbImage;
  otherFaces: number;
  /** v5: whether the detector ran on this frame (absent: it ran on every frame). */
  detected?: boolean;
}

const round = (v: number, d = 3) => (Number.isFinite(v) ? Math.round(v * 10 ** d) / 10 ** d : null);

/**
 * The slots a challenge prompts. Version 2 states them; a version-1 challenge (issued before the
 * timed script) is read as the page of that time showed it: `capture_ms` cut into steps + 1 equal
 * parts, the first a straight look.
 */
export function scriptOf(challenge: TLivenessChallenge): { neutralMs: number; slots: TStepSlot[] } {
  if (challenge.version === 2 && challenge.slots && challenge.neutral_ms !== undefined) return { neutralMs: challenge.neutral_ms, slots: challenge.slots };
  const per = challenge.capture_ms / (challenge.steps.length + 1);
  return { neutralMs: Math.round(per), slots: challenge.steps.map((step, i) => ({ step, start_ms: Math.round((i + 1) * per), end_ms: Math.round((i + 2) * per) })) };
}

type Ch = FaceEngineSettings['challenge'];

/** Turns and nods from the rigid pose, relative to the neutral pose; runs of frames become events. */
/**
 * v8: how each frame's movement is read (`movement` settings). `relative` gives the frame's yaw and
 * pitch from the neutral pose (in the neutral head's own frame); a frame is a turn or a nod only
 * when that rotation is at least `margin` times the other.
 */
export interface MovementReading {
  relative: (face: FaceObservation) => { yaw: number; pitch: number };
  margin: number;
}

export function movementEvents(frames: { timestampMs: number; face: FaceObservation }[], neutral: { yaw: number; pitch: number }, s: Ch, reading?: MovementReading): StepEvent[] {
  const events: StepEvent[] = [];
  let cur: StepEvent | undefined;
  frames.forEach((f, i) => {
    const rel = reading ? reading.relative(f.face) : { yaw: f.face.pose.yaw - neutral.yaw, pitch: f.face.pose.pitch - neutral.pitch };
    const { yaw, pitch } = rel;
    let state: TLivenessStep | undefined;
    let mag = 0;
    if (reading) {
      if (Math.abs(yaw) >= s.turnYawDeg && Math.abs(yaw) >= reading.margin * Math.abs(pitch)) {
        state = yaw > 0 ? 'turn_left' : 'turn_right';
        mag = Math.abs(yaw);
      } else if (Math.abs(pitch) >= s.nodPitchDeg && Math.abs(pitch) >= reading.margin * Math.abs(yaw)) {
        state = 'nod';
        mag = Math.abs(pitch);
      }
    } else if (Math.abs(yaw) >= s.turnYawDeg && Math.abs(yaw) > Math.abs(pitch)) {
      state = yaw > 0 ? 'turn_left' : 'turn_right';
      mag = Math.abs(yaw);
    } else if (Math.abs(pitch) >= s.nodPitchDeg && Math.abs(pitch) >= Math.abs(yaw)) {
      state = 'nod';
      mag = Math.abs(pitch);
    }
    if (cur && cur.step !== state) {
      events.push(cur);
      cur = undefined;
    }
    if (!state) return;
    if (!cur) cur = { step: state, startMs: f.timestampMs, endMs: f.timestampMs, peakIndex: i, magnitude: mag };
    cur.endMs = f.timestampMs;
    if (mag > cur.magnitude) {
      cur.magnitude = mag;
      cur.peakIndex = i;
    }
  });
  if (cur) events.push(cur);
  // Down-and-up (or a turn with a brief dip under the threshold) close together: one event.
  const merged: StepEvent[] = [];
  for (const e of events) {
    const last = merged[merged.length - 1];
    if (last && last.step === e.step && e.startMs - last.endMs <= s.mergeGapMs) {
      last.endMs = e.endMs;
      if (e.magnitude > last.magnitude) {
        last.magnitude = e.magnitude;
        last.peakIndex = e.peakIndex;
      }
    } else merged.push({ ...e });
  }
  return merged;
}

/**
 * Blinks as short dips of eye openness below the capture's own open-eye baseline, on frames near
 * the neutral pose. Two views of the eye: the 68-point aspect ratio (falls as the lids meet) and
 * the eye classifier's P(closed) (sees lids the landmark model smooths over). A dip must close
 * again within `maxDipMs` on both sides: eyes shut for long, a squint held or a look down is not a
 * blink. At 10 fps a 150-ms blink may be caught by one frame only, half-closed: the thresholds are
 * fractions of the person's own baseline, not absolute openness, so deep-set eyes and glasses
 * (a lower, steadier ratio) still show the dip.
 */
/** Frames near the neutral pose: the only ones whose eyes the blink rule reads. */
export function nearNeutral(face: FaceObservation, neutral: { yaw: number; pitch: number }, s: Ch): boolean {
  return Math.abs(face.pose.yaw - neutral.yaw) < s.turnYawDeg && Math.abs(face.pose.pitch - neutral.pitch) < 2 * s.nodPitchDeg;
}

export function blinkEvents(frames: { timestampMs: number; face: FaceObservation }[], neutral: { yaw: number; pitch: number }, s: Ch, b: LivenessV2Settings['blink']): { events: StepEvent[]; baseline: { ear: number; closed: number; mesh_ear?: number; off_frontal_ear?: [number, number] } } {
  // Eyes are judged on frames near the neutral pose only (both eye models misread eyes in
  // profile); pitch gets twice the nod threshold because a hard blink tips the upper face.
  const near = frames.filter((f) => nearNeutral(f.face, neutral, s));
  if (near.length < 3) return { events: [], baseline: { ear: Number.NaN, closed: Number.NaN } };
  const ear = quantile(near.map((f) => f.face.eyes.ear), b.baselinePercentile);
  const closed = quantile(near.map((f) => f.face.eyes.closed), 1 - b.baselinePercentile);
  const earPart = (f: { face: FaceObservation }) => (ear > 0 ? (ear - f.face.eyes.ear) / ear / b.earDip : 0);
  const closedPart = (f: { face: FaceObservation }) => (f.face.eyes.closed - closed) / b.closedRise;
  // v7: the face mesh's own eye aspect ratio as a third view (it follows lids the 68-point model
  // smooths over on dim, low-contrast faces); same baseline rule, its own dip.
  const views = [earPart, closedPart];
  let meshBaseline: number | undefined;
  if (b.meshEarDip !== undefined && near.every((f) => f.face.mesh)) {
    const base = quantile(near.map((f) => meshEyeAspectRatio(f.face.mesh!)), b.baselinePercentile);
    const dip = b.meshEarDip;
    meshBaseline = base;
    if (base > 0) views.push((f) => (base - meshEyeAspectRatio(f.face.mesh!)) / base / dip);
  }
  // Each view finds its own short dips (the landmark ratio often lags for a second after a blink
  // while the classifier already reads open, and the classifier misreads some eyes entirely);
  // a blink is a dip in either, overlapping dips merged.
  const found: StepEvent[] = [];
  // v10: a classifier dip read on brightened crops (a dim face) counts only when it is consistent:
  // each eye's own P(closed) rises past the threshold over its own baseline on one frame of the dip,
  // and the 68-point ratio dips by `earShare` of its threshold within 100 ms of it (the gain lifts
  // sensor noise with the eye, and noise does not close both eyes and move the lid points together).
  const confirm = b.confirmDimClosed;
  const eachBase = confirm && near.every((f) => f.face.eyes.each) ? ([0, 1] as const).map((k) => quantile(near.map((f) => f.face.eyes.each!.closed[k]), 1 - b.baselinePercentile)) : undefined;
  const consistent = (e: StepEvent): boolean => {
    if (!confirm || !eachBase) return true;
    const inDip = near.filter((f) => f.timestampMs >= e.startMs && f.timestampMs <= e.endMs);
    if (!inDip.some((f) => f.face.eyes.each!.gain > 1)) return true;
    const bothEyes = inDip.some((f) => f.face.eyes.each!.closed.every((c, k) => c - eachBase[k]! >= b.closedRise));
    const lids = near.some((f) => f.timestampMs >= e.startMs - 100 && f.timestampMs <= e.endMs + 100 && earPart(f) >= confirm.earShare);
    return bothEyes && lids;
  };
  for (const view of views) {
    const dips = shortDips(near, near.map(view), b.maxDipMs).filter((e) => view !== closedPart || consistent(e));
    found.push(...dips.map((e) => ({ ...e, peakIndex: frames.indexOf(near[e.peakIndex]!) })));
  }
  // v8: blinks during a head turn (the views above read near-neutral frames only, and both eye
  // models misread the far eye in profile). The eye nearer the camera keeps its width while the head
  // turns, so its own aspect ratio against its open baseline near neutral still shows the lids meet.
  let offFrontalBaseline: [number, number] | undefined;
  if (b.offFrontal) {
    const o = b.offFrontal;
    const width = (f: { face: FaceObservation }, a: number, z: number) => Math.hypot(f.face.landmarks[a]![0] - f.face.landmarks[z]![0], f.face.landmarks[a]![1] - f.face.landmarks[z]![1]);
    const base: [number, number] = [quantile(near.map((f) => eyeAspectRatio(f.face.landmarks, 36)), b.baselinePercentile), quantile(near.map((f) => eyeAspectRatio(f.face.landmarks, 42)), b.baselinePercentile)];
    offFrontalBaseline = base;
    const turned = (f: { face: FaceObservation }) => Math.abs(f.face.pose.yaw - neutral.yaw) >= s.turnYawDeg;
    const read = frames.filter((f) => Math.abs(f.face.pose.yaw - neutral.yaw) < o.maxYawDeg && Math.abs(f.face.pose.pitch - neutral.pitch) < 2 * s.nodPitchDeg);
    const openness = (f: { face: FaceObservation }) => (width(f, 36, 39) >= width(f, 42, 45) ? eyeAspectRatio(f.face.landmarks, 36) / base[0] : eyeAspectRatio(f.face.landmarks, 42) / base[1]);
    if (read.length >= 3 && base[0] > 0 && base[1] > 0) {
      const dips = shortDips(read, read.map((f) => (1 - openness(f)) / o.earDip), b.maxDipMs);
      // Only the dips that reach into a turn: near neutral the two views above decide, as before.
      for (const e of dips) if (read.some((f) => f.timestampMs >= e.startMs && f.timestampMs <= e.endMs && turned(f))) found.push({ ...e, peakIndex: frames.indexOf(read[e.peakIndex]!) });
    }
  }
  found.sort((p, q) => p.startMs - q.startMs);
  const events: StepEvent[] = [];
  for (const e of found) {
    const last = events[events.length - 1];
    if (last && e.startMs <= last.endMs + 100) {
      last.endMs = Math.max(last.endMs, e.endMs);
      if (e.magnitude > last.magnitude) {
        last.magnitude = e.magnitude;
        last.peakIndex = e.peakIndex;
      }
    } else events.push({ ...e });
  }
  return { events, baseline: { ear, closed, ...(meshBaseline !== undefined ? { mesh_ear: meshBaseline } : {}), ...(offFrontalBaseline ? { off_frontal_ear: offFrontalBaseline } : {}) } };
}

/**
 * Short dips of one eye view over a run of frames (`dip` ≥ 1 = closed enough): each must last at most
 * `maxDipMs` and be open again (under half the threshold) within `maxDipMs` on both sides — a blink,
 * not eyes shut for long, a squint held or a look down. `peakIndex` is an index into `seq`.
 */
function shortDips(seq: { timestampMs: number }[], dip: number[], maxDipMs: number): StepEvent[] {
  const out: StepEvent[] = [];
  let i = 0;
  while (i < seq.length) {
    if (!(dip[i]! >= 1)) {
      i++;
      continue;
    }
    let j = i;
    while (j + 1 < seq.length && dip[j + 1]! >= 1) j++;
    const t0 = seq[i]!.timestampMs, t1 = seq[j]!.timestampMs;
    const openBefore = seq.some((f, k) => k < i && t0 - f.timestampMs <= maxDipMs && dip[k]! < 0.5);
    const openAfter = seq.some((f, k) => k > j && f.timestampMs - t1 <= maxDipMs && dip[k]! < 0.5);
    if (openBefore && openAfter && t1 - t0 <= maxDipMs) {
      let peak = i;
      for (let k = i; k <= j; k++) if (dip[k]! > dip[peak]!) peak = k;
      out.push({ step: 'blink', startMs: t0, endMs: t1, peakIndex: peak, magnitude: dip[peak]! });
    }
    i = j + 1;
  }
  return out;
}

export interface SlotVerdict {
  step: TLivenessStep;
  slot: [number, number];
  done: boolean;
  at_ms: number | null;
  magnitude: number | null;
}

/**
 * Each step must happen inside its own slot (start tolerance before, end tolerance after).
 * A turn or nod that starts inside another step's slot, fits no slot of its own kind and is
 * clearly deliberate (`contradictionFactor` × its threshold) contradicts the prompted order; movements before the first slot or after the last are
 * tolerated (people settle, look at the screen), and so are movements below the thresholds.
 */
export function matchScript(slots: TStepSlot[], events: StepEvent[], v: LivenessV2Settings['script'], thresholds: { turn: number; nod: number }): { steps: SlotVerdict[]; contradictions: { step: TLivenessStep; at_ms: number; in_slot_of: TLivenessStep }[] } {
  const windowOf = (sl: TStepSlot) => [sl.start_ms - v.slotStartToleranceMs, sl.end_ms + v.slotEndToleranceMs] as const;
  const steps = slots.map((sl) => {
    const [a, z] = windowOf(sl);
    const hit = events.filter((e) => e.step === sl.step && e.startMs >= a && e.startMs <= z).sort((p, q) => q.magnitude - p.magnitude)[0];
    return { step: sl.step, slot: [sl.start_ms, sl.end_ms] as [number, number], done: Boolean(hit), at_ms: hit?.startMs ?? null, magnitude: hit ? Math.round(hit.magnitude * 100) / 100 : null };
  });
  const contradictions: { step: TLivenessStep; at_ms: number; in_slot_of: TLivenessStep }[] = [];
  for (const e of events) {
    if (e.step === 'blink' || e.magnitude < v.contradictionFactor * (e.step === 'nod' ? thresholds.nod : thresholds.turn)) continue;
    const own = slots.some((sl) => sl.step === e.step && e.startMs >= windowOf(sl)[0] && e.startMs <= windowOf(sl)[1]);
    if (own) continue;
    const other = slots.find((sl) => e.startMs >= sl.start_ms && e.startMs < sl.end_ms);
    if (other) contradictions.push({ step: e.step, at_ms: e.startMs, in_slot_of: other.step });
  }
  return { steps, contradictions };
}

/**
 * v10 (`script.wrongSlotRotationDeg`): contradictions judged on the whole rotation, not on the kind a
 * movement is read as. `angle` gives each frame's rotation from the neutral pose (degrees, any
 * direction). An excursion is a run of consecutive frames at or beyond `startDeg` (the smallest
 * movement threshold: where a movement starts, as a turn or nod event starts at its threshold);
 * one that reaches `boundDeg`, starts inside a slot and overlaps no turn or nod event fitting a slot
 * of its own step (inside that slot's tolerances) contradicts the script, named by the dominant
 * image axis at its peak. Excursions starting before the first slot or after the last are tolerated,
 * as in `matchScript`. So a movement read as a turn instead of a nod (or as neither) out of its slot
 * is judged on its size alone.
 */
export function wrongSlotContradictions(
  frames: { timestampMs: number; face: FaceObservation }[],
  angle: (face: FaceObservation) => number,
  neutral: { yaw: number; pitch: number },
  slots: TStepSlot[],
  events: StepEvent[],
  v: LivenessV2Settings['script'],
  bounds: { startDeg: number; boundDeg: number },
): { step: TLivenessStep; at_ms: number; in_slot_of: TLivenessStep; rotation_deg: number }[] {
  const windowOf = (sl: TStepSlot) => [sl.start_ms - v.slotStartToleranceMs, sl.end_ms + v.slotEndToleranceMs] as const;
  const fitting = events.filter((e) => e.step !== 'blink' && slots.some((sl) => sl.step === e.step && e.startMs >= windowOf(sl)[0] && e.startMs <= windowOf(sl)[1]));
  const runs: { startMs: number; endMs: number; peak: number; peakFace: FaceObservation }[] = [];
  let cur: (typeof runs)[number] | undefined;
  for (const f of frames) {
    const a = angle(f.face);
    if (!(a >= bounds.startDeg)) {
      cur = undefined;
      continue;
    }
    if (!cur) runs.push((cur = { startMs: f.timestampMs, endMs: f.timestampMs, peak: a, peakFace: f.face }));
    cur.endMs = f.timestampMs;
    if (a > cur.peak) {
      cur.peak = a;
      cur.peakFace = f.face;
    }
  }
  const out: { step: TLivenessStep; at_ms: number; in_slot_of: TLivenessStep; rotation_deg: number }[] = [];
  for (const r of runs) {
    if (r.peak < bounds.boundDeg) continue;
    const other = slots.find((sl) => r.startMs >= sl.start_ms && r.startMs < sl.end_ms);
    if (!other) continue;
    if (fitting.some((e) => e.startMs <= r.endMs && e.endMs >= r.startMs)) continue;
    const yaw = r.peakFace.pose.yaw - neutral.yaw, pitch = r.peakFace.pose.pitch - neutral.pitch;
    const step: TLivenessStep = Math.abs(pitch) >= Math.abs(yaw) ? 'nod' : yaw > 0 ? 'turn_left' : 'turn_right';
    out.push({ step, at_ms: r.startMs, in_slot_of: other.step, rotation_deg: Math.round(r.peak * 10) / 10 });
  }
  return out;
}

export interface AttackSignal {
  name: string;
  /** true: this signal says attack; false: says live; null: could not be measured here. */
  dissent: boolean | null;
  value: number | null;
  threshold: number;
  detail?: Record<string, unknown>;
}

/** Frames spread over the capture, each the sharpest near-frontal one of its slice of time. */
function spread(frames: Frame[], count: number): Frame[] {
  if (frames.length <= count) return frames;
  const picked: Frame[] = [];
  for (let k = 0; k < count; k++) {
    const slice = frames.slice(Math.floor((k * frames.length) / count), Math.floor(((k + 1) * frames.length) / count));
    picked.push(slice.reduce((a, b) => (b.face.sharpness > a.face.sharpness ? b : a)));
  }
  return picked;
}

export interface LivenessV2Options {
  /**
   * Set the screen-colour signal aside (report it, do not fuse it). Only for footage that cannot
   * follow the page's colours (third-party clips in the bench); production never sets it.
   */
  withoutIllumination?: boolean;
}

export async function evaluateLivenessV2(models: FaceModels, settings: FaceEngineSettings, input: LivenessInput & { options?: LivenessV2Options }): Promise<{ outcome: TCheckOutcome; bestFrame?: Buffer }> {
  const started = performance.now();
  const v2 = settings.v2!;
  const { challenge } = input;
  const s = settings.challenge;
  // v6 takes the pose from the 68 points: the mesh is then run (and stamped) only when a blink view
  // reads it (v7's `meshEarDip`, in no released version), even when it is loaded.
  const rigid68 = v2.pose === 'landmarks_rigid';
  const meshNeeded = !rigid68 || v2.blink.meshEarDip !== undefined;
  const meshUsed = models.stamps.faceMesh && meshNeeded;
  const stamps: TModelStamp[] = [models.stamps.frameDetector, models.stamps.landmarks, ...(meshUsed ? [models.stamps.faceMesh!] : []), models.stamps.eye, ...models.stamps.pad, models.stamps.recognizer];
  const reasons = new Set<string>();
  const evidence: Record<string, unknown> = { settings_version: settings.version, challenge_nonce: challenge.nonce, challenge_version: challenge.version };

  const windowMs = Date.parse(challenge.deadline) - Date.parse(challenge.issued_at);
  const foreign = input.frames.filter((f) => f.meta.nonce !== challenge.nonce).length;
  const outOfTime = input.frames.filter((f) => f.meta.timestamp_ms > windowMs).length;
  const lateSubmission = input.now.getTime() > Date.parse(challenge.deadline);
  evidence.binding = { frames: input.frames.length, foreign_nonce_frames: foreign, frames_after_deadline: outOfTime, submitted_after_deadline: lateSubmission };
  const bound = input.frames.length > 0 && foreign === 0 && outOfTime === 0 && !lateSubmission;
  if (!bound) reasons.add('liveness_challenge_incomplete');

  // Length of the capture against the script: a short clip cannot have performed every slot.
  const ordered = [...input.frames].map((f, index) => ({ ...f, index })).sort((a, b) => a.meta.timestamp_ms - b.meta.timestamp_ms);
  const spanMs = ordered.length ? ordered[ordered.length - 1]!.meta.timestamp_ms - ordered[0]!.meta.timestamp_ms : 0;
  const minSpan = v2.script.minCaptureFraction * challenge.capture_ms;
  const minFrames = Math.ceil((minSpan / 1000) * v2.script.minFps);
  const longEnough = spanMs >= minSpan && ordered.length >= minFrames;
  evidence.capture = { span_ms: spanMs, frames: ordered.length, min_span_ms: Math.round(minSpan), min_frames: minFrames, long_enough: longEnough };
  if (!longEnough) reasons.add('liveness_challenge_incomplete');

  const step = Math.max(1, ordered.length / settings.maxFrames);
  const sorted = ordered.length > settings.maxFrames ? Array.from({ length: settings.maxFrames }, (_, i) => ordered[Math.floor(i * step)]!) : ordered;
  const frames: Frame[] = [];
  let multi = 0;
  let undecodable = 0;
  // Frames on which the multi-face rule is counted: every frame with a face, or (v5) those the detector ran on.
  let countedForMulti = 0;
  const tracking = v2.tracking;
  let trackStats: { detections: number; lost: number } | undefined;
  if (tracking) {
    const tr = await trackFrames(models, settings, tracking, sorted);
    frames.push(...tr.frames);
    undecodable = tr.undecodable;
    for (const f of tr.frames) {
      if (!f.detected) continue;
      countedForMulti++;
      if (f.otherFaces > 0) multi++;
    }
    trackStats = { detections: tr.detections, lost: tr.lost };
  } else {
    // Frames are independent here (every one detected): FRAMES_IN_FLIGHT of them are analysed at
    // once, so one frame's JavaScript (crops, pose, colour) runs while ONNX Runtime works on
    // another's models on a second core, and the next frame decodes meanwhile. Results are taken
    // in frame order, and each model call sees the same input as one at a time: the same outcome.
    const inFlight: Promise<{ f: (typeof sorted)[number]; img: RgbImage; a?: FrameAnalysis; err?: unknown }>[] = [];
    const take = async () => {
      const r = await inFlight.shift()!;
      if (r.err !== undefined) throw r.err;
      if (!r.a!.face) return;
      if (r.a!.otherFaces > 0) multi++;
      frames.push({ index: r.f.index, timestampMs: r.f.meta.timestamp_ms, face: r.a!.face, img: r.img, otherFaces: r.a!.otherFaces });
    };
    try {
      for await (const [f, img] of decodeAhead(sorted, settings.frameMaxSide)) {
        if (!img) {
          undecodable++;
          continue;
        }
        // Eye classifier later, on the frames the blink rule reads (same result: see fillEyes below).
        inFlight.push(
          analyseFrame(models, img, settings.multiFace.minAreaRatio, { mesh: meshNeeded, eyes: false, rigid68 }).then(
            (a) => ({ f, img, a }),
            (err: unknown) => ({ f, img, err }),
          ),
        );
        if (inFlight.length >= FRAMES_IN_FLIGHT) await take();
      }
      while (inFlight.length) await take();
    } finally {
      // A failure leaves no analysis running behind the caller's back.
      await Promise.all(inFlight);
    }
    countedForMulti = frames.length;
  }
  const faceFraction = sorted.length ? frames.length / sorted.length : 0;
  evidence.frames = {
    total: input.frames.length,
    analysed: sorted.length,
    with_face: frames.length,
    undecodable,
    with_multiple_faces: multi,
    ...(trackStats ? { detector_runs: trackStats.detections, tracking_lost: trackStats.lost, multi_face_counted_on: countedForMulti } : {}),
  };

  const finish = (score: number | null, bestFrame?: Buffer) => {
    const hard = ['liveness_challenge_incomplete', 'presentation_attack_suspected'];
    const list = [...reasons];
    const status = list.some((r) => hard.includes(r)) ? 'failed' : list.length ? 'review' : 'passed';
    const outcome: TCheckOutcome = {
      check: 'liveness',
      status,
      reasons: list,
      score: score === null ? null : Math.min(1, Math.max(0, round(score) ?? 0)),
      component: LIVENESS_V2_COMPONENT,
      models: stamps,
      evidence,
      duration_ms: Math.round(performance.now() - started),
    };
    return { outcome, bestFrame };
  };

  if (frames.length < 3 || faceFraction < s.minFaceFrameFraction) {
    reasons.add('no_face_detected');
    return finish(0);
  }
  if (multi >= settings.multiFace.minFrameFraction * countedForMulti) reasons.add('multiple_faces');

  // --- Neutral pose from the steady period the page asked for ---
  const script = scriptOf(challenge);
  const neutralFrames = frames.filter((f) => f.timestampMs < script.neutralMs);
  const neutralOk = neutralFrames.length >= v2.script.minNeutralFrames;
  const neutralRef = neutralOk ? neutralFrames : frames;
  const neutral = { yaw: median(neutralRef.map((f) => f.face.pose.yaw)), pitch: median(neutralRef.map((f) => f.face.pose.pitch)) };
  const spreadOf = (v: number[]) => (v.length >= 2 ? quantile(v, 0.9) - quantile(v, 0.1) : 0);
  if (!neutralOk) reasons.add('liveness_challenge_incomplete');

  // --- Steps in their slots ---
  // The eye classifier only where the blink rule reads it (frames near the neutral pose), once that
  // pose is known: the same result as running it on every frame, for less work.
  await fillEyes(models, frames.filter((f) => nearNeutral(f.face, neutral, s)), v2.blink.darkEyeGain, v2.blink.confirmDimClosed !== undefined);
  // v8: movements read in the neutral head's own frame. Its rotation: the mean over the neutral
  // frames within 5° of the median pose (a glance away in the straight look does not pull it).
  // Taken once, and only when v8's reading or v10's whole-rotation rule asks for it.
  const wrongSlotBound = v2.script.wrongSlotRotationDeg;
  let neutralRotation: [number[], number[], number[]] | undefined;
  if (v2.movement || wrongSlotBound !== undefined) {
    const steady = neutralRef.filter((f) => Math.abs(f.face.pose.yaw - neutral.yaw) <= 5 && Math.abs(f.face.pose.pitch - neutral.pitch) <= 5);
    neutralRotation = meanRotation((steady.length ? steady : neutralRef).map((f) => f.face.pose));
  }
  let reading: MovementReading | undefined;
  if (v2.movement && neutralRotation) {
    const R = neutralRotation;
    reading = { relative: (face) => relativeYawPitch(face.pose, R), margin: v2.movement.dominanceMargin };
  }
  const moves = movementEvents(frames, neutral, s, reading);
  const blinks = blinkEvents(frames, neutral, s, v2.blink);
  const events = [...moves, ...blinks.events].sort((a, b) => a.startMs - b.startMs);
  const matched = matchScript(script.slots, events, v2.script, { turn: s.turnYawDeg, nod: s.nodPitchDeg });
  // v10: contradictions from the whole rotation out of the slot (whatever the reading calls it).
  // The neutral rotation as v8 takes it; a pose without a rotation falls back to the image-axes angles.
  let wholeRotation: ((face: FaceObservation) => number) | undefined;
  if (wrongSlotBound !== undefined) {
    const R = neutralRotation;
    wholeRotation = (face) => (R && face.pose.rotation ? forwardAngle(face.pose, R) : Math.hypot(face.pose.yaw - neutral.yaw, face.pose.pitch - neutral.pitch));
  }
  // v10: the per-kind rule of v2–v9 stays, always on the image-axes reading (so a reading that
  // reclassifies a movement cannot loosen it), and the whole-rotation rule is added to it.
  let verdict = matched;
  if (wholeRotation && wrongSlotBound !== undefined) {
    const perKind = reading ? matchScript(script.slots, movementEvents(frames, neutral, s), v2.script, { turn: s.turnYawDeg, nod: s.nodPitchDeg }).contradictions : matched.contradictions;
    const whole = wrongSlotContradictions(frames, wholeRotation, neutral, script.slots, events, v2.script, { startDeg: Math.min(s.turnYawDeg, s.nodPitchDeg), boundDeg: wrongSlotBound });
    // Both rules' findings are kept (one movement may appear twice: once per rule, the whole-rotation one with its `rotation_deg`).
    verdict = { steps: matched.steps, contradictions: [...perKind, ...whole].sort((p, q) => p.at_ms - q.at_ms) };
  }
  const ref = neutralRef.reduce((a, b) => (Math.abs(b.face.pose.yaw - neutral.yaw) + Math.abs(b.face.pose.pitch - neutral.pitch) < Math.abs(a.face.pose.yaw - neutral.yaw) + Math.abs(a.face.pose.pitch - neutral.pitch) ? b : a));
  const motionOf = (f: Frame) => {
    let d = 0;
    for (let i = 0; i < 68; i++) d += Math.hypot(f.face.landmarks[i]![0] - ref.face.landmarks[i]![0], f.face.landmarks[i]![1] - ref.face.landmarks[i]![1]);
    return d / 68 / ref.face.eyeDistance;
  };
  const maxMotion = Math.max(...frames.map(motionOf));
  const still = maxMotion < s.minMotion;
  const stepsDone = verdict.steps.filter((m) => m.done).length;
  const challengeOk = bound && longEnough && neutralOk && !still && stepsDone === challenge.steps.length && verdict.contradictions.length === 0;
  if (!challengeOk) reasons.add('liveness_challenge_incomplete');
  evidence.challenge = {
    script: { neutral_ms: script.neutralMs, slots: script.slots.map((sl) => [sl.step, sl.start_ms, sl.end_ms]) },
    steps: verdict.steps,
    contradictions: verdict.contradictions,
    events: events.map((e) => ({ step: e.step, start_ms: e.startMs, end_ms: e.endMs, magnitude: round(e.magnitude, 2) })),
    neutral: {
      frames: neutralFrames.length,
      yaw: round(neutral.yaw, 1),
      pitch: round(neutral.pitch, 1),
      spread_yaw: round(spreadOf(neutralFrames.map((f) => f.face.pose.yaw)), 1),
      spread_pitch: round(spreadOf(neutralFrames.map((f) => f.face.pose.pitch)), 1),
    },
    eye_baseline: {
      ear: round(blinks.baseline.ear),
      closed: round(blinks.baseline.closed),
      ...(blinks.baseline.mesh_ear !== undefined ? { mesh_ear: round(blinks.baseline.mesh_ear) } : {}),
      ...(blinks.baseline.off_frontal_ear ? { off_frontal_ear: blinks.baseline.off_frontal_ear.map((v) => round(v)) } : {}),
    },
    ...(v2.movement ? { movement: { frame: reading ? 'neutral_head' : 'image_axes', dominance_margin: v2.movement.dominanceMargin } } : {}),
    ...(wrongSlotBound !== undefined ? { wrong_slot: { rotation_deg: wrongSlotBound, frame: wholeRotation && neutralRotation ? 'neutral_head' : 'image_axes' } } : {}),
    max_motion: round(maxMotion),
    pose: rigid68 ? 'landmarks68_rigid' : 'facemesh_rigid',
  };

  // --- Attack signals ---
  const isFrontal = (f: Frame) => Math.abs(f.face.pose.yaw - neutral.yaw) < s.turnYawDeg / 2 && Math.abs(f.face.pose.pitch - neutral.pitch) < s.nodPitchDeg / 2;
  const frontal = frames.filter(isFrontal);
  const ranked = [...(frontal.length ? frontal : frames)].sort((a, b) => b.face.sharpness * b.face.score - a.face.sharpness * a.face.score);
  const best = ranked[0]!;
  // v5: a tracked frame read by a model trained on detector output is detected first.
  const asDetected = async (f: Frame): Promise<Frame> => (tracking?.redetectProbes ? redetect(models, f) : f);
  const probe: Frame[] = [];
  for (const f of ranked.slice(0, settings.pad.frames)) probe.push(await asDetected(f));
  const a = v2.attack;
  const signals: AttackSignal[] = [];

  const pad: number[] = [];
  for (const f of probe) pad.push(await models.pad.score(f.img, f.face.box));
  const padScore = pad.reduce((x, y) => x + y, 0) / pad.length;
  signals.push({ name: 'passive_pad', dissent: padScore < settings.pad.minRealScore, value: round(padScore), threshold: settings.pad.minRealScore, detail: { per_frame: pad.map((v) => round(v)) } });

  const turns = verdict.steps.filter((m) => m.done && (m.step === 'turn_left' || m.step === 'turn_right'));
  const parallax = turns.map((m) => {
    const ev = moves.find((e) => e.startMs === m.at_ms && e.step === m.step)!;
    return noseParallax(ref.face.landmarks, frames[ev.peakIndex]!.face.landmarks, ref.face.eyeDistance);
  });
  signals.push({ name: 'turn_parallax', dissent: parallax.length ? Math.min(...parallax) < s.minTurnParallax : null, value: parallax.length ? round(Math.min(...parallax)) : null, threshold: s.minTurnParallax });

  const borders = probe.map((f) => screenBorders(f.img, f.face.box, a.borderMinLength));
  const borderSides = median(borders.map((x) => x.sides));
  signals.push({ name: 'screen_borders', dissent: borderSides >= a.borderSides, value: borderSides, threshold: a.borderSides, detail: { lengths: borders.map((x) => x.lengths.map((l) => round(l, 2))) } });

  // v3: the panel seen on two opposite sides, with a brighter inside (what real replays show).
  if (a.minScreenFrameEnclosure !== undefined) {
    const sf = probe.map((f) => screenFrame(f.img, f.face.box));
    const enclosure = median(sf.map((x) => x.enclosure));
    signals.push({
      name: 'screen_frame',
      dissent: enclosure >= a.minScreenFrameEnclosure,
      value: round(enclosure, 2),
      threshold: a.minScreenFrameEnclosure,
      detail: { sides: sf.map((x) => round(x.sides, 2)), ends: sf.map((x) => round(x.ends, 2)) },
    });
  }

  // v3: skin-tone gamut over frames spread across the capture (the median rides over the page's
  // colour flashes, each of which lights only a few frames).
  if (a.minSkinToneFraction !== undefined) {
    // v7: a face is off-gamut only if it is so both as captured and white-balanced to the scene's
    // own light: coloured room light explains a tint, and the balance can only clear a frame, never
    // flag one (a backdrop brighter than any white surface would mislead it: LFW, README "Liveness v7").
    const wb = a.skinToneWhiteBalance;
    const picked = spread(frames, a.skinToneFrames ?? 9);
    const asCaptured = picked.map((f) => skinToneFraction(f.img, f.face.box));
    const balanced = wb ? picked.map((f) => whiteBalancedSkinTone(f.img, f.face.box, wb)) : undefined;
    const tone = balanced ? asCaptured.map((v, i) => explainedSkinTone(v, balanced[i]!.fraction)) : asCaptured;
    const measurable = tone.filter(Number.isFinite);
    const t = measurable.length ? median(measurable) : Number.NaN;
    signals.push({
      name: 'skin_tone',
      dissent: measurable.length ? t < a.minSkinToneFraction : null,
      value: round(t),
      threshold: a.minSkinToneFraction,
      detail: {
        per_frame: tone.map((v) => round(v)),
        ...(balanced ? { white_balance: 'scene_white_patch', as_captured: asCaptured.map((v) => round(v)), balanced: balanced.map((x) => round(x.fraction)), gains: balanced.map((x) => x.gains.map((g) => round(g, 2))) } : {}),
      },
    });
  }

  const moire = median(probe.map((f) => moirePeakRatio(f.img, f.face.box)));
  signals.push({ name: 'moire', dissent: moire > a.moireMaxPeakRatio, value: round(moire, 1), threshold: a.moireMaxPeakRatio });

  const glare = median(probe.map((f) => glareFraction(f.img, f.face.box)));
  signals.push({ name: 'specular_glare', dissent: glare > a.maxGlareFraction, value: round(glare, 4), threshold: a.maxGlareFraction });

  const blend = median(probe.map((f) => blendTextureRatio(f.img, f.face.box, f.face.landmarks)).filter(Number.isFinite));
  signals.push({ name: 'blend_boundary', dissent: Number.isFinite(blend) ? blend < a.minBlendRatio : null, value: round(blend), threshold: a.minBlendRatio });

  const idFrames: Frame[] = [];
  for (const f of spread(frontal.length >= 2 ? frontal : frames, settings.identity.frames)) idFrames.push(await asDetected(f));
  const emb: Float32Array[] = [];
  for (const f of idFrames) emb.push(await models.recognizer.embed(f.img, f.face.fivePoints));
  let minSim = 1;
  for (let i = 0; i < emb.length; i++) for (let j = i + 1; j < emb.length; j++) minSim = Math.min(minSim, cosineSimilarity(emb[i]!, emb[j]!));
  // v4: the person at each turn's peak is the person looking straight (a swap's face model fails
  // or snaps back to its driver towards profile). Best match over the frontal embeddings.
  if (a.minTurnIdentitySimilarity !== undefined) {
    const perTurn: { step: string; yaw: number | null; similarity: number | null }[] = [];
    for (const m of turns) {
      const ev = moves.find((e) => e.startMs === m.at_ms && e.step === m.step)!;
      const peak = await asDetected(frames[ev.peakIndex]!);
      const e = await models.recognizer.embed(peak.img, peak.face.fivePoints);
      const best = emb.length ? Math.max(...emb.map((r) => cosineSimilarity(e, r))) : Number.NaN;
      perTurn.push({ step: m.step, yaw: round(peak.face.pose.yaw - neutral.yaw, 1), similarity: round(best) });
    }
    const vals = perTurn.map((t) => t.similarity).filter((x): x is number => x !== null);
    const minTurn = vals.length ? Math.min(...vals) : null;
    signals.push({ name: 'turn_identity', dissent: minTurn === null ? null : minTurn < a.minTurnIdentitySimilarity, value: minTurn, threshold: a.minTurnIdentitySimilarity, detail: { turns: perTurn } });
  }

  // Proposed print cue (in no profile): a flat rigid sheet — no out-of-plane motion and no change of
  // shape anywhere in the capture. Value: the larger of the two measures over its bound (dissent < 1).
  if (a.printRigidity) {
    const r = sheetRigidity(frames.map((f) => f.face));
    const ratio = r ? Math.max(r.parallax / a.printRigidity.maxParallax, r.deformation / a.printRigidity.maxDeformation) : null;
    signals.push({ name: 'print_rigidity', dissent: ratio === null ? null : ratio < 1, value: ratio === null ? null : round(ratio), threshold: 1, ...(r ? { detail: { parallax: round(r.parallax, 4), deformation: round(r.deformation, 4), frames: frames.length } } : {}) });
  }

  signals.push({ name: 'identity_drift', dissent: emb.length >= 2 ? minSim < a.minIdentitySimilarity : null, value: emb.length >= 2 ? round(minSim) : null, threshold: a.minIdentitySimilarity, detail: { frames: emb.length } });

  const illum = scoreIllumination(
    frames.map((f) => ({ timestampMs: f.timestampMs, skinRgb: f.face.skinRgb, claimed: sorted.find((x) => x.index === f.index)!.meta.colour })),
    challenge,
    settings.illumination.maxLagFrames,
  );
  const illumOk = illum.frames >= settings.illumination.minFrames && illum.correlation >= settings.illumination.minCorrelation && illum.claimedMismatch <= 0.1;
  signals.push({
    name: 'screen_colour',
    dissent: input.options?.withoutIllumination ? null : !illumOk,
    value: round(illum.correlation),
    threshold: settings.illumination.minCorrelation,
    detail: { frames: illum.frames, lag_frames: illum.lagFrames, claimed_colour_mismatch: round(illum.claimedMismatch), set_aside: Boolean(input.options?.withoutIllumination) },
  });

  // v4: what the page reported about its camera (virtual-camera label, repeated frames). Client
  // facts: one signal among the others, never a decision alone; not reported → not measured.
  if (a.injection) {
    const cs = captureSourceSignal(input.frames.map((f) => f.meta), a.injection);
    signals.push({ name: 'capture_source', dissent: cs.dissent, value: cs.value, threshold: a.injection.maxDuplicateShare, detail: cs.detail });
  }

  // --- Fusion: none decides alone ---
  const measured = signals.filter((x) => x.dissent !== null);
  const dissents = measured.filter((x) => x.dissent);
  const attackScore = measured.length ? 1 - dissents.length / measured.length : 0;
  if (dissents.length >= a.failAtDissents) reasons.add('presentation_attack_suspected');
  else if (dissents.length > 0) reasons.add('attack_signals_disagree');
  for (const d of dissents) if (d.name === 'identity_drift') reasons.add('identity_inconsistent');
  evidence.attack = {
    operating_point: `failed at >= ${a.failAtDissents} dissenting signals, review at 1`,
    dissenting: dissents.map((x) => x.name),
    measured: measured.length,
    score: round(attackScore),
    signals,
  };
  // Kept under the v1 names too, for readers of older evidence.
  evidence.presentation_attack = { real_score: round(padScore), per_frame: pad.map((v) => round(v)), threshold: settings.pad.minRealScore };
  evidence.identity = { frames: emb.length, min_similarity: emb.length >= 2 ? round(minSim) : null, threshold: a.minIdentitySimilarity };

  const challengeScore = challengeOk ? stepsDone / challenge.steps.length : 0;
  evidence.scores = { challenge: round(challengeScore), attack: round(attackScore), presentation_attack_real: round(padScore) };
  evidence.best_frame_index = best.index;
  return finish(Math.min(challengeScore, attackScore), input.frames[best.index]!.image);
}
