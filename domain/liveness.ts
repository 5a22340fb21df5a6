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

export const ZLivenessChallenge = z
  .object({
    version: z.literal(1),
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
  })
  .superRefine((c, ctx) => {
    if (new Set(c.steps).size !== c.steps.length) ctx.addIssue({ code: 'custom', message: 'steps must not repeat', path: ['steps'] });
    let expected = 0;
    for (const [i, s] of c.colours.entries()) {
      if (s.start_ms !== expected) ctx.addIssue({ code: 'custom', message: 'colour segments must be contiguous from 0', path: ['colours', i] });
      expected = s.start_ms + s.duration_ms;
    }
    if (Date.parse(c.deadline) <= Date.parse(c.issued_at)) ctx.addIssue({ code: 'custom', message: 'deadline must follow issued_at', path: ['deadline'] });
  });
export type TLivenessChallenge = z.infer<typeof ZLivenessChallenge>;

/** Metadata of one `liveness_frame` upload (sent beside the image). */
export const ZLivenessFrameMeta = z.object({
  nonce: z.string().regex(/^[0-9a-f]{32}$/),
  /** Milliseconds since the challenge started, by the page's clock. */
  timestamp_ms: z.number().nonnegative(),
  /** The colour the page says it showed when the frame was taken; untrusted, cross-checked. */
  colour: ZScreenColour,
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

function randomInt(rand: () => number, minInclusive: number, maxInclusive: number): number {
  return minInclusive + Math.min(maxInclusive - minInclusive, Math.floor(rand() * (maxInclusive - minInclusive + 1)));
}

/**
 * Issues a challenge. `rand` must be a cryptographic source in production (the server passes
 * one backed by `crypto.getRandomValues`); a seeded one makes tests reproducible. In a workflow,
 * pass Temporal's deterministic `Math.random` only if the challenge is issued there.
 */
export function issueChallenge(rand: () => number, now: Date, settings: TChallengeSettings = DEFAULT_CHALLENGE_SETTINGS): TLivenessChallenge {
  const s = ZChallengeSettings.parse(settings);
  const nonce = Array.from({ length: 32 }, () => randomInt(rand, 0, 15).toString(16)).join('');

  const pool: TLivenessStep[] = [...LIVENESS_STEPS];
  for (let i = pool.length - 1; i > 0; i--) {
    const j = randomInt(rand, 0, i);
    [pool[i], pool[j]] = [pool[j]!, pool[i]!];
  }
  const steps = pool.slice(0, s.stepCount);

  // One extra step's worth of time at the start lets the applicant settle into a neutral pose,
  // which the engine uses as the person's own reference.
  const captureMs = (s.stepCount + 1) * s.msPerStep;
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

  return {
    version: 1,
    nonce,
    issued_at: now.toISOString(),
    deadline: new Date(now.getTime() + s.validForMs).toISOString(),
    steps,
    colours,
    capture_ms: captureMs,
  };
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
