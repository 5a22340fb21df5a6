import type { TCheckOutcome, TModelStamp } from '../../domain/checks.js';
import type { TLivenessChallenge, TLivenessFrameMeta } from '../../domain/liveness.js';
import { matchSteps, detectEvents, neutralPose, type TimedObservation } from './challenge-steps.js';
import { analyseFrame } from './frame-analysis.js';
import { evaluateLivenessV2, type LivenessV2Options } from './liveness-v2.js';
import { median } from './geometry.js';
import { scoreIllumination } from './illumination.js';
import { decodeImage, type RgbImage } from './image.js';
import type { FaceModels } from './models-bundle.js';
import { noseParallax } from './parallax.js';
import { cosineSimilarity } from './recognizer.js';
import type { FaceEngineSettings } from './settings.js';

export const LIVENESS_COMPONENT = 'face-engine@1';

export interface LivenessInput {
  frames: { image: Buffer; meta: TLivenessFrameMeta }[];
  challenge: TLivenessChallenge;
  /**
   * When the capture was submitted. Pass the stored submission time, not the wall clock, so that
   * re-running a Case on its stored inputs gives the same result.
   */
  now: Date;
}

interface AnalysedFrame extends TimedObservation {
  index: number;
  img: RgbImage;
  otherFaces: number;
}

const round = (v: number, d = 3) => (Number.isFinite(v) ? Math.round(v * 10 ** d) / 10 ** d : null);

/** Frames spread over the capture, each the sharpest near-frontal one of its slice of time. */
function spreadFrontal(frames: AnalysedFrame[], isFrontal: (f: AnalysedFrame) => boolean, count: number): AnalysedFrame[] {
  const frontal = frames.filter(isFrontal);
  if (frontal.length <= count) return frontal;
  const picked: AnalysedFrame[] = [];
  for (let k = 0; k < count; k++) {
    const slice = frontal.slice(Math.floor((k * frontal.length) / count), Math.floor(((k + 1) * frontal.length) / count));
    picked.push(slice.reduce((a, b) => (b.face.sharpness > a.face.sharpness ? b : a)));
  }
  return picked;
}

export async function evaluateLiveness(models: FaceModels, settings: FaceEngineSettings, input: LivenessInput & { options?: LivenessV2Options }): Promise<{ outcome: TCheckOutcome; bestFrame?: Buffer }> {
  // Settings v2 and later: the timed script, rigid pose and fused attack signals. v1 stays as released.
  if (settings.v2) return evaluateLivenessV2(models, settings, input);
  const started = performance.now();
  const { challenge } = input;
  const s = settings.challenge;
  const stamps: TModelStamp[] = [models.stamps.frameDetector, models.stamps.landmarks, models.stamps.eye, ...models.stamps.pad, models.stamps.recognizer];
  const reasons = new Set<string>();
  const evidence: Record<string, unknown> = { settings_version: settings.version, challenge_nonce: challenge.nonce };

  // Binding to this challenge: every frame must carry its nonce and fall inside its time frame.
  const windowMs = Date.parse(challenge.deadline) - Date.parse(challenge.issued_at);
  const foreign = input.frames.filter((f) => f.meta.nonce !== challenge.nonce).length;
  const outOfTime = input.frames.filter((f) => f.meta.timestamp_ms > windowMs).length;
  const lateSubmission = input.now.getTime() > Date.parse(challenge.deadline);
  evidence.binding = { frames: input.frames.length, foreign_nonce_frames: foreign, frames_after_deadline: outOfTime, submitted_after_deadline: lateSubmission };
  const bound = input.frames.length > 0 && foreign === 0 && outOfTime === 0 && !lateSubmission;
  if (!bound) reasons.add('liveness_challenge_incomplete');

  const ordered = [...input.frames].map((f, index) => ({ ...f, index })).sort((a, b) => a.meta.timestamp_ms - b.meta.timestamp_ms);
  // Thin evenly rather than truncate: the colour check needs the whole sequence.
  const step = Math.max(1, ordered.length / settings.maxFrames);
  const sorted = ordered.length > settings.maxFrames ? Array.from({ length: settings.maxFrames }, (_, i) => ordered[Math.floor(i * step)]!) : ordered;
  const analysed: AnalysedFrame[] = [];
  let framesWithMultipleFaces = 0;
  let undecodable = 0;
  for (const f of sorted) {
    let img: RgbImage;
    try {
      img = await decodeImage(f.image, settings.frameMaxSide);
    } catch {
      undecodable++;
      continue;
    }
    const a = await analyseFrame(models, img, settings.multiFace.minAreaRatio);
    if (!a.face) continue;
    if (a.otherFaces > 0) framesWithMultipleFaces++;
    analysed.push({ index: f.index, timestampMs: f.meta.timestamp_ms, face: a.face, img, otherFaces: a.otherFaces });
  }
  const faceFraction = sorted.length ? analysed.length / sorted.length : 0;
  evidence.frames = { total: input.frames.length, analysed: sorted.length, with_face: analysed.length, undecodable, with_multiple_faces: framesWithMultipleFaces };

  const finish = (score: number | null, bestFrame?: Buffer) => {
    const hard = ['liveness_challenge_incomplete', 'illumination_mismatch', 'presentation_attack_suspected', 'identity_inconsistent'];
    const list = [...reasons];
    const status = list.some((r) => hard.includes(r)) ? 'failed' : list.length ? 'review' : 'passed';
    const outcome: TCheckOutcome = {
      check: 'liveness',
      status,
      reasons: list,
      score: score === null ? null : Math.min(1, Math.max(0, round(score) ?? 0)),
      component: LIVENESS_COMPONENT,
      models: stamps,
      evidence,
      duration_ms: Math.round(performance.now() - started),
    };
    return { outcome, bestFrame };
  };

  if (analysed.length < 3 || faceFraction < s.minFaceFrameFraction) {
    reasons.add('no_face_detected');
    return finish(0);
  }
  // Explicit multi-face rule: a second face of comparable size in a fifth of the frames means
  // someone else is in the capture (a helper, or a face shown on a screen); a human should look.
  if (framesWithMultipleFaces >= settings.multiFace.minFrameFraction * analysed.length) reasons.add('multiple_faces');

  // --- The active challenge ---
  const neutral = neutralPose(analysed, s);
  const events = detectEvents(analysed, neutral, s);
  const verdict = matchSteps(challenge.steps, events, s);
  const ref = analysed[neutral.referenceIndex]!;
  const motion = median(analysed.map((f) => {
    let d = 0;
    for (let i = 0; i < 68; i++) d += Math.hypot(f.face.landmarks[i]![0] - ref.face.landmarks[i]![0], f.face.landmarks[i]![1] - ref.face.landmarks[i]![1]);
    return d / 68 / ref.face.eyeDistance;
  }));
  const maxMotion = Math.max(...analysed.map((f) => {
    let d = 0;
    for (let i = 0; i < 68; i++) d += Math.hypot(f.face.landmarks[i]![0] - ref.face.landmarks[i]![0], f.face.landmarks[i]![1] - ref.face.landmarks[i]![1]);
    return d / 68 / ref.face.eyeDistance;
  }));
  // Turns must show depth: a 2-D warp of one photo can imitate a yaw reading but not parallax.
  const turnParallax = verdict.steps
    .filter((m) => m.done && (m.step === 'turn_left' || m.step === 'turn_right'))
    .map((m) => {
      const ev = events.find((e) => e.startMs === m.at_ms && e.step === m.step)!;
      const peak = analysed[ev.peakIndex]!;
      return { step: m.step, parallax: noseParallax(ref.face.landmarks, peak.face.landmarks, ref.face.eyeDistance) };
    });
  const planar = turnParallax.some((t) => t.parallax < s.minTurnParallax);
  const still = maxMotion < s.minMotion;
  const stepsDone = verdict.steps.filter((m) => m.done).length;
  const challengeOk = bound && verdict.inOrder && !still;
  if (!challengeOk) reasons.add('liveness_challenge_incomplete');
  if (planar) reasons.add('presentation_attack_suspected');
  evidence.challenge = {
    steps: verdict.steps,
    in_order: verdict.inOrder,
    unexpected_movements: verdict.unexpectedMovements,
    events: events.map((e) => ({ step: e.step, start_ms: e.startMs, end_ms: e.endMs, magnitude: round(e.magnitude, 2) })),
    neutral: { yaw: round(neutral.yaw, 1), pitch: round(neutral.pitch, 1), eye_closed: round(neutral.closed), ear: round(neutral.ear) },
    median_motion: round(motion),
    max_motion: round(maxMotion),
    turn_parallax: turnParallax.map((t) => ({ step: t.step, parallax: round(t.parallax) })),
    planar_motion: planar,
  };

  // --- Screen illumination ---
  const illum = scoreIllumination(
    analysed.map((f) => ({ timestampMs: f.timestampMs, skinRgb: f.face.skinRgb, claimed: sorted.find((x) => x.index === f.index)!.meta.colour })),
    challenge,
    settings.illumination.maxLagFrames,
  );
  const illuminationScore = Number.isFinite(illum.correlation) ? Math.max(0, illum.correlation) : 0;
  const illuminationOk = illum.frames >= settings.illumination.minFrames && illum.correlation >= settings.illumination.minCorrelation && illum.claimedMismatch <= 0.1;
  if (!illuminationOk) reasons.add('illumination_mismatch');
  evidence.illumination = {
    correlation: round(illum.correlation),
    per_channel: illum.perChannel.map((v) => round(v)),
    lag_frames: illum.lagFrames,
    frames: illum.frames,
    claimed_colour_mismatch: round(illum.claimedMismatch),
    threshold: settings.illumination.minCorrelation,
  };

  // --- Best frames: near-frontal with open eyes, sharpest first ---
  const isFrontal = (f: AnalysedFrame) =>
    Math.abs(f.face.pose.yaw - neutral.yaw) < s.turnYawDeg / 2 &&
    Math.abs(f.face.pose.pitch - neutral.pitch) < s.nodPitchDeg / 2 &&
    f.face.eyes.closed - neutral.closed < s.blinkClosedRise / 2;
  const frontal = analysed.filter(isFrontal);
  const ranked = [...(frontal.length ? frontal : analysed)].sort((a, b) => b.face.sharpness * b.face.score - a.face.sharpness * a.face.score);
  const best = ranked[0]!;

  // --- Presentation attack (MiniFASNet pair) ---
  const padScores: number[] = [];
  for (const f of ranked.slice(0, settings.pad.frames)) padScores.push(await models.pad.score(f.img, f.face.box));
  const padScore = padScores.reduce((a, b) => a + b, 0) / padScores.length;
  if (padScore < settings.pad.minRealScore) reasons.add('presentation_attack_suspected');
  evidence.presentation_attack = { real_score: round(padScore), per_frame: padScores.map((v) => round(v)), threshold: settings.pad.minRealScore };

  // --- Same person throughout ---
  const identityFrames = spreadFrontal(analysed, isFrontal, settings.identity.frames);
  const embeddings: Float32Array[] = [];
  for (const f of identityFrames) embeddings.push(await models.recognizer.embed(f.img, f.face.fivePoints));
  let minSimilarity = 1;
  for (let i = 0; i < embeddings.length; i++) for (let j = i + 1; j < embeddings.length; j++) minSimilarity = Math.min(minSimilarity, cosineSimilarity(embeddings[i]!, embeddings[j]!));
  if (embeddings.length >= 2 && minSimilarity < settings.identity.minSimilarity) reasons.add('identity_inconsistent');
  evidence.identity = { frames: embeddings.length, min_similarity: embeddings.length >= 2 ? round(minSimilarity) : null, threshold: settings.identity.minSimilarity };

  const challengeScore = challengeOk && !planar ? stepsDone / challenge.steps.length : 0;
  evidence.scores = { challenge: round(challengeScore), illumination: round(illuminationScore), presentation_attack_real: round(padScore), identity: round(minSimilarity) };
  evidence.best_frame_index = best.index;
  return finish(Math.min(challengeScore, illuminationScore, padScore), input.frames[best.index]!.image);
}
