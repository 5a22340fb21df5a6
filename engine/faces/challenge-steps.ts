import type { TLivenessStep } from '../../domain/liveness.js';
import { median } from './geometry.js';
import type { FaceObservation } from './frame-analysis.js';
import type { FaceEngineSettings } from './settings.js';

export interface TimedObservation {
  timestampMs: number;
  face: FaceObservation;
}

export interface NeutralPose {
  yaw: number;
  pitch: number;
  /** Open-eye baselines over the session's frontal frames. */
  closed: number;
  ear: number;
  /** Index (into the observations) of the frame closest to the neutral pose. */
  referenceIndex: number;
}

export type MotionState = TLivenessStep | 'neutral';

export interface StepEvent {
  step: TLivenessStep;
  startMs: number;
  endMs: number;
  /** Index of the frame with the largest deviation. */
  peakIndex: number;
  /** Largest deviation: degrees for turns and nods, closed-probability rise for blinks. */
  magnitude: number;
}

export interface StepMatch {
  step: TLivenessStep;
  done: boolean;
  at_ms: number | null;
  magnitude: number | null;
}

export interface StepVerdict {
  steps: StepMatch[];
  inOrder: boolean;
  unexpectedMovements: number;
  events: StepEvent[];
}

type ChallengeSettings = FaceEngineSettings['challenge'];

/**
 * The person's own neutral pose. Absolute pitch from landmarks is biased by 10–20° and eye
 * openness varies between people, so every judgement is relative to this. The page asks for a
 * straight look first, but people start early: the frames of the neutral window are used only
 * when they agree with each other, else the median over the whole capture (turns go both ways
 * and most frames sit between steps, so the median stays near neutral).
 */
export function neutralPose(obs: TimedObservation[], s: ChallengeSettings): NeutralPose {
  const early = obs.filter((o) => o.timestampMs < s.neutralWindowMs);
  const spread = (v: number[]) => (v.length ? Math.max(...v) - Math.min(...v) : Infinity);
  const steady = early.length >= 3 && spread(early.map((o) => o.face.pose.yaw)) < s.turnYawDeg / 2 && spread(early.map((o) => o.face.pose.pitch)) < s.nodPitchDeg / 2;
  const ref = steady ? early : obs;
  const yaw = median(ref.map((o) => o.face.pose.yaw));
  const pitch = median(ref.map((o) => o.face.pose.pitch));
  const frontal = obs.filter((o) => Math.abs(o.face.pose.yaw - yaw) < s.turnYawDeg / 2 && Math.abs(o.face.pose.pitch - pitch) < s.nodPitchDeg / 2);
  const eyeRef = frontal.length >= 3 ? frontal : obs;
  let referenceIndex = 0;
  let best = Infinity;
  obs.forEach((o, i) => {
    const d = Math.abs(o.face.pose.yaw - yaw) + Math.abs(o.face.pose.pitch - pitch);
    if (d < best) {
      best = d;
      referenceIndex = i;
    }
  });
  return {
    yaw,
    pitch,
    closed: median(eyeRef.map((o) => o.face.eyes.closed)),
    ear: median(eyeRef.map((o) => o.face.eyes.ear)),
    referenceIndex,
  };
}

/**
 * What one frame shows relative to the neutral pose. Frames are unmirrored camera frames, so the
 * applicant turning to their own left points the nose to the image's right (positive yaw).
 */
export function classifyFrame(face: FaceObservation, neutral: NeutralPose, s: ChallengeSettings): { state: MotionState; magnitude: number } {
  const yaw = face.pose.yaw - neutral.yaw;
  const pitch = face.pose.pitch - neutral.pitch;
  if (Math.abs(yaw) >= s.turnYawDeg && Math.abs(yaw) > Math.abs(pitch)) return { state: yaw > 0 ? 'turn_left' : 'turn_right', magnitude: Math.abs(yaw) };
  if (Math.abs(pitch) >= s.nodPitchDeg && Math.abs(pitch) >= Math.abs(yaw)) return { state: 'nod', magnitude: Math.abs(pitch) };
  // Eye signals are only trusted near the frontal pose: both models misread eyes in profile.
  if (Math.abs(yaw) < s.turnYawDeg / 2 && Math.abs(pitch) < s.nodPitchDeg / 2) {
    const rise = face.eyes.closed - neutral.closed;
    const drop = neutral.ear > 0 ? 1 - face.eyes.ear / neutral.ear : 0;
    if (rise >= s.blinkClosedRise || drop >= s.blinkEarDrop) return { state: 'blink', magnitude: Math.max(rise, drop) };
  }
  return { state: 'neutral', magnitude: 0 };
}

/** Runs of frames in the same non-neutral state become events. */
export function detectEvents(obs: TimedObservation[], neutral: NeutralPose, s: ChallengeSettings): StepEvent[] {
  const events: StepEvent[] = [];
  let current: (StepEvent & { frames: number }) | undefined;
  const close = () => {
    if (current && current.frames >= s.minEventFrames) {
      const { frames: _frames, ...event } = current;
      events.push(event);
    }
    current = undefined;
  };
  obs.forEach((o, i) => {
    const { state, magnitude } = classifyFrame(o.face, neutral, s);
    if (state === 'neutral') return close();
    if (current && current.step !== state) close();
    if (!current) current = { step: state, startMs: o.timestampMs, endMs: o.timestampMs, peakIndex: i, magnitude, frames: 0 };
    current.frames++;
    current.endMs = o.timestampMs;
    if (magnitude > current.magnitude) {
      current.magnitude = magnitude;
      current.peakIndex = i;
    }
  });
  close();
  // A nod is down and back up (or up and down): two same-kind events close together are one step.
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

const MOVEMENTS = new Set<TLivenessStep>(['turn_left', 'turn_right', 'nod']);

/**
 * Each issued step must have an event after the previous step's event (greedy, in order).
 * Head movements that no step asked for at that point count as unexpected: a capture made for
 * another challenge shows the right movements in the wrong order, which the greedy match alone
 * misses when the movements repeat. Repeating the step just performed (nodding twice) is not
 * unexpected, and blinks never are: people blink unprompted.
 */
export function matchSteps(steps: TLivenessStep[], events: StepEvent[], s: ChallengeSettings): StepVerdict {
  const matchedAt = new Map<number, TLivenessStep>();
  let cursor = 0;
  let inOrder = true;
  const matches: StepMatch[] = steps.map((step) => {
    const idx = events.findIndex((e, i) => i >= cursor && e.step === step);
    if (idx < 0) {
      inOrder = false;
      return { step, done: false, at_ms: null, magnitude: null };
    }
    matchedAt.set(idx, step);
    cursor = idx + 1;
    return { step, done: true, at_ms: events[idx]!.startMs, magnitude: Math.round(events[idx]!.magnitude * 100) / 100 };
  });
  let unexpectedMovements = 0;
  let lastMatched: TLivenessStep | undefined;
  events.forEach((e, i) => {
    if (matchedAt.has(i)) lastMatched = matchedAt.get(i);
    else if (MOVEMENTS.has(e.step) && e.step !== lastMatched) unexpectedMovements++;
  });
  return { steps: matches, inOrder: inOrder && unexpectedMovements <= s.maxUnexpectedMovements, unexpectedMovements, events };
}
