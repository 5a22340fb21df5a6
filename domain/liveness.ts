import { z } from 'zod';

/**
 * The liveness challenge shared by the server (issues it), the hosted page (performs it) and the
 * face engine (checks the frames against it). Workflow-safe: zod and pure functions only.
 *
 * The page shows the steps in order while it flashes a random sequence of full-screen colours;
 * every recorded frame carries the nonce, its timestamp since the challenge started and the
 * colour the page believes it showed. The engine never trusts the claimed colour: it checks the
 * face's measured colour response against the *issued* sequence.
 */

export const LIVENESS_STEPS = ['turn_left', 'turn_right', 'nod', 'blink'] as const;
export const ZLivenessStep = z.enum(LIVENESS_STEPS);
export type TLivenessStep = z.infer<typeof ZLivenessStep>;

/**
 * Screen colours as named sRGB triples. Saturated primaries and secondaries give the largest
 * chromatic difference on skin; white is excluded because it mainly changes brightness, which
 * auto-exposure cancels.
 */
export const SCREEN_COLOURS = {
  red: [255, 0, 0],
  green: [0, 255, 0],
  blue: [0, 0, 255],
  yellow: [255, 255, 0],
  magenta: [255, 0, 255],
  cyan: [0, 255, 255],
} as const satisfies Record<string, readonly [number, number, number]>;
export const ZScreenColour = z.enum(Object.keys(SCREEN_COLOURS) as [keyof typeof SCREEN_COLOURS, ...(keyof typeof SCREEN_COLOURS)[]]);
export type TScreenColour = z.infer<typeof ZScreenColour>;

export const ZColourSegment = z.object({
  colour: ZScreenColour,
  /** Milliseconds since the challenge started (the page's clock, started when it begins recording). */
  start_ms: z.number().int().nonnegative(),
  duration_ms: z.number().int().positive(),
});
export type TColourSegment = z.infer<typeof ZColourSegment>;

/** Version 2: when the page prompts a step, and so when the server looks for it. */
export const ZStepSlot = z.object({
  step: ZLivenessStep,
  /** Milliseconds since the challenge started: the page shows this step's prompt from `start_ms`... */
  start_ms: z.number().int().nonnegative(),
  /** ...until `end_ms`. */
  end_ms: z.number().int().positive(),
});
export type TStepSlot = z.infer<typeof ZStepSlot>;

export const ZLivenessChallenge = z
  .object({
    /** 1: steps in order anywhere in the capture. 2: a timed script (`neutral_ms`, `slots`). */
    version: z.union([z.literal(1), z.literal(2)]),
    /** Random, single-use: frames from any other challenge carry another nonce. */
    nonce: z.string().regex(/^[0-9a-f]{32}$/),
    issued_at: z.iso.datetime(),
    /** The capture must be uploaded before this instant. */
    deadline: z.iso.datetime(),
    /** Steps in the order the applicant must perform them. */
    steps: z.array(ZLivenessStep).min(1).max(LIVENESS_STEPS.length),
    /** Contiguous colour segments starting at 0 ms, shown while the frames are recorded. */
    colours: z.array(ZColourSegment).min(2),
    /** Suggested capture length: how long the page records, in milliseconds since start. */
    capture_ms: z.number().int().positive(),
    /** v2: the page asks for a straight, still look from 0 to `neutral_ms`; the server's reference pose. */
    neutral_ms: z.number().int().positive().optional(),
    /** v2: one slot per step, in the order of `steps`, back to back after the neutral period. */
    slots: z.array(ZStepSlot).optional(),
  })
  .superRefine((c, ctx) => {
    if (c.version === 2) {
      if (c.neutral_ms === undefined) ctx.addIssue({ code: 'custom', message: 'a timed challenge needs neutral_ms', path: ['neutral_ms'] });
      if (!c.slots || c.slots.length !== c.steps.length) ctx.addIssue({ code: 'custom', message: 'a timed challenge needs one slot per step', path: ['slots'] });
      let t = c.neutral_ms ?? 0;
      for (const [i, slot] of (c.slots ?? []).entries()) {
        if (slot.step !== c.steps[i]) ctx.addIssue({ code: 'custom', message: 'slots must follow the order of steps', path: ['slots', i, 'step'] });
        if (slot.start_ms < t || slot.end_ms <= slot.start_ms || slot.end_ms > c.capture_ms) ctx.addIssue({ code: 'custom', message: 'slots must be ordered, after the neutral period and inside the capture', path: ['slots', i] });
        t = slot.end_ms;
      }
    } else if (c.neutral_ms !== undefined || c.slots !== undefined) ctx.addIssue({ code: 'custom', message: 'neutral_ms and slots belong to version 2', path: ['version'] });
    if (new Set(c.steps).size !== c.steps.length) ctx.addIssue({ code: 'custom', message: 'steps must not repeat', path: ['steps'] });
    let expected = 0;
    for (const [i, s] of c.colours.entries()) {
      if (s.start_ms !== expected) ctx.addIssue({ code: 'custom', message: 'colour segments must be contiguous from 0', path: ['colours', i] });
      expected = s.start_ms + s.duration_ms;
    }
    if (Date.parse(c.deadline) <= Date.parse(c.issued_at)) ctx.addIssue({ code: 'custom', message: 'deadline must follow issued_at', path: ['deadline'] });
  });
export type TLivenessChallenge = z.infer<typeof ZLivenessChallenge>;

/**
 * Facts about the camera track as the hosted page saw it (sent with the first frame of a capture).
 * Client-reported, so only evidence: a page under an attacker's control can lie, and the server
 * never fails a capture on these alone. `label` is the device's name as the browser gives it; it
 * can carry a person's name ("Ana's iPhone Camera"), so the server keeps only its class in the
 * evidence (the upload's meta is erased with the Case like the frames).
 */
export const ZCaptureSource = z.object({
  label: z.string().max(256),
  /** `MediaStreamTrack.getSettings()`: scalar values only (frameRate, width, height, resizeMode, facingMode…). */
  settings: z.record(z.string().max(64), z.union([z.string().max(128), z.number(), z.boolean()])).refine((r) => Object.keys(r).length <= 48, 'at most 48 settings').optional(),
  /** `MediaStreamTrack.getCapabilities()`: the names the track exposes (exposureMode, focusMode, whiteBalanceMode…). */
  capabilities: z.array(z.string().max(64)).max(64).optional(),
  /** `enumerateDevices()`: how many devices of each kind. */
  devices: z.object({ videoinput: z.number().int().min(0).max(64), audioinput: z.number().int().min(0).max(64), audiooutput: z.number().int().min(0).max(64) }).optional(),
  /** Which `requestVideoFrameCallback` clock the intervals use: the camera's capture time, else the media time; absent: no callback in this browser. */
  clock: z.enum(['capture', 'media']).optional(),
});
export type TCaptureSource = z.infer<typeof ZCaptureSource>;

/** Camera frames the page was handed since the previous upload (`requestVideoFrameCallback`). */
export const ZCameraFrames = z.object({
  /** New camera frames presented to the page since the previous uploaded frame. */
  presented: z.number().int().min(0).max(1000),
  /** Of those, how many were pixel-identical to the camera frame before (on a 64 × 48 copy). */
  duplicates: z.number().int().min(0).max(1000),
  /** Intervals between consecutive camera frames, ms, by `ZCaptureSource.clock`. */
  intervals_ms: z.array(z.number().min(0).max(10_000)).max(64),
});
export type TCameraFrames = z.infer<typeof ZCameraFrames>;

/** Metadata of one `liveness_frame` upload (sent beside the image). */
export const ZLivenessFrameMeta = z.object({
  nonce: z.string().regex(/^[0-9a-f]{32}$/),
  /** Milliseconds since the challenge started, by the page's clock. */
  timestamp_ms: z.number().nonnegative(),
  /** The colour the page says it showed when the frame was taken; untrusted, cross-checked. */
  colour: ZScreenColour,
  /** The camera track's facts (hosted page, first frame of a capture). Absent from older pages and other clients. */
  source: ZCaptureSource.optional(),
  /** The camera frames since the previous upload (hosted page, browsers with `requestVideoFrameCallback`). */
  camera: ZCameraFrames.optional(),
});
export type TLivenessFrameMeta = z.infer<typeof ZLivenessFrameMeta>;

export const ZChallengeSettings = z.object({
  stepCount: z.number().int().min(1).max(LIVENESS_STEPS.length),
  /** Time the page gives per step, used to size the capture. */
  msPerStep: z.number().int().min(500),
  colourMinMs: z.number().int().min(150),
  colourMaxMs: z.number().int().min(150),
  /** Time from issue until the capture must be uploaded. */
  validForMs: z.number().int().min(10_000),
  /** Set: issue a timed script (version 2) whose neutral period lasts this long, then one `msPerStep` slot per step. */
  neutralMs: z.number().int().min(500).optional(),
});
export type TChallengeSettings = z.infer<typeof ZChallengeSettings>;

/**
 * 3 of 4 steps give 24 orders; with the colour sequence a replay of an earlier capture fits
 * a new challenge with negligible probability. Colour segments of 400–700 ms span 4–10 frames at
 * 10–15 fps, enough to measure each one while camera exposure settles.
 */
export const DEFAULT_CHALLENGE_SETTINGS: TChallengeSettings = {
  stepCount: 3,
  msPerStep: 2000,
  colourMinMs: 400,
  colourMaxMs: 700,
  validForMs: 10 * 60_000,
};

/**
 * The timed script (version 2): 2 s of straight look (the reference pose, and time for the camera
 * to settle), then 2 s per step with the prompt shown for exactly that slot.
 */
export const TIMED_CHALLENGE_SETTINGS: TChallengeSettings = { ...DEFAULT_CHALLENGE_SETTINGS, neutralMs: 2000 };

function randomInt(rand: () => number, minInclusive: number, maxInclusive: number): number {
  return minInclusive + Math.min(maxInclusive - minInclusive, Math.floor(rand() * (maxInclusive - minInclusive + 1)));
}

/**
 * Issues a challenge. `rand` must be a cryptographic source in production (the server passes
 * one backed by `crypto.getRandomValues`); a seeded one makes tests reproducible. In a workflow,
 * pass Temporal's deterministic `Math.random` only if the challenge is issued there.
 */
export function issueChallenge(rand: () => number, now: Date, settings: TChallengeSettings = DEFAULT_CHALLENGE_SETTINGS, allowed: readonly TLivenessStep[] = LIVENESS_STEPS): TLivenessChallenge {
  const s = ZChallengeSettings.parse(settings);
  const nonce = Array.from({ length: 32 }, () => randomInt(rand, 0, 15).toString(16)).join('');

  // `allowed`: the Flow's selfie-liveness steps (default all); the draw is the same for the default.
  const pool: TLivenessStep[] = [...new Set(allowed)];
  if (s.stepCount > pool.length) throw new Error(`stepCount ${s.stepCount} exceeds the ${pool.length} allowed steps`);
  for (let i = pool.length - 1; i > 0; i--) {
    const j = randomInt(rand, 0, i);
    [pool[i], pool[j]] = [pool[j]!, pool[i]!];
  }
  const steps = pool.slice(0, s.stepCount);

  // One extra step's worth of time at the start lets the applicant settle into a neutral pose,
  // which the engine uses as the person's own reference.
  const captureMs = s.neutralMs !== undefined ? s.neutralMs + s.stepCount * s.msPerStep : (s.stepCount + 1) * s.msPerStep;
  const names = ZScreenColour.options;
  const colours: TColourSegment[] = [];
  let t = 0;
  let previous: TScreenColour | undefined;
  while (t < captureMs) {
    // Never repeat a colour back to back: each segment boundary is then a measurable change.
    let colour: TScreenColour;
    do colour = names[randomInt(rand, 0, names.length - 1)]!;
    while (colour === previous);
    const duration = randomInt(rand, Math.min(s.colourMinMs, s.colourMaxMs), Math.max(s.colourMinMs, s.colourMaxMs));
    colours.push({ colour, start_ms: t, duration_ms: duration });
    previous = colour;
    t += duration;
  }

  const base = {
    nonce,
    issued_at: now.toISOString(),
    deadline: new Date(now.getTime() + s.validForMs).toISOString(),
    steps,
    colours,
    capture_ms: captureMs,
  };
  if (s.neutralMs === undefined) return { version: 1, ...base };
  const neutral = s.neutralMs;
  const slots = steps.map((step, i) => ({ step, start_ms: neutral + i * s.msPerStep, end_ms: neutral + (i + 1) * s.msPerStep }));
  return { version: 2, ...base, neutral_ms: neutral, slots };
}

/** The issued colour at `timestampMs`, or undefined after the sequence ends. */
export function colourAt(challenge: Pick<TLivenessChallenge, 'colours'>, timestampMs: number): TScreenColour | undefined {
  for (const s of challenge.colours) if (timestampMs >= s.start_ms && timestampMs < s.start_ms + s.duration_ms) return s.colour;
  return undefined;
}

/** sRGB triple of a screen colour, each 0..1. */
export function colourRgb(colour: TScreenColour): [number, number, number] {
  const [r, g, b] = SCREEN_COLOURS[colour];
  return [r / 255, g / 255, b / 255];
}
