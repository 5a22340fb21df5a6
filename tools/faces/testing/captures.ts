import sharp from 'sharp';
import { colourAt, type TColourSegment, type TLivenessChallenge, type TLivenessFrameMeta, type TLivenessStep } from '../../../domain/liveness.js';
import { decodeImage, type Box } from '../../../engine/faces/image.js';
import type { FaceModels } from '../../../engine/faces/models-bundle.js';
import { addScreenLight } from './screen-light.js';

export interface CaptureFrame {
  image: Buffer;
  meta: TLivenessFrameMeta;
}

/** A deterministic PRNG (mulberry32) so generated challenges are reproducible in tests. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A challenge whose steps are what a recorded clip shows (the clips predate this product), with a
 * freshly random colour sequence covering the clip. The nonce, deadline and colours are as the
 * server would issue them.
 */
export function challengeForClip(base: TLivenessChallenge, steps: TLivenessStep[], durationMs: number): TLivenessChallenge {
  let t = 0;
  const colours: TColourSegment[] = [];
  for (const seg of base.colours) {
    if (t >= durationMs) break;
    colours.push(seg);
    t = seg.start_ms + seg.duration_ms;
  }
  let i = 0;
  // Extend by cycling the issued colours if the clip is longer than the issued capture.
  while (t < durationMs) {
    const src = base.colours[i++ % base.colours.length]!;
    const prev = colours[colours.length - 1]!;
    const colour = src.colour === prev.colour ? base.colours[(i + 1) % base.colours.length]!.colour : src.colour;
    colours.push({ colour, start_ms: t, duration_ms: src.duration_ms });
    t += src.duration_ms;
  }
  return { ...base, steps, colours, capture_ms: durationMs };
}

export interface LightOptions {
  /** Colours lighting the face: usually the issued challenge's; another challenge's for an attack; none for a screen or a photo. */
  lightFrom?: Pick<TLivenessChallenge, 'colours'>;
  strength?: number;
}

/**
 * Turns decoded frames into a capture for `challenge`: each frame gets the challenge's nonce, its
 * timestamp and the colour the page would claim; its pixels get the simulated screen light of
 * `lightFrom` on the face found by the engine's own detector.
 */
export async function buildCapture(
  models: FaceModels,
  frames: { image: Buffer; timestampMs: number }[],
  challenge: TLivenessChallenge,
  opts: LightOptions = {},
): Promise<CaptureFrame[]> {
  const out: CaptureFrame[] = [];
  let lastBox: Box | undefined;
  for (const f of frames) {
    let image = f.image;
    const lit = opts.lightFrom ? colourAt(opts.lightFrom, f.timestampMs) : undefined;
    if (lit) {
      const img = await decodeImage(f.image, 100_000);
      const [face] = await models.frameDetector.detect(img);
      lastBox = face?.box ?? lastBox;
      if (lastBox) image = await addScreenLight(f.image, lastBox, lit, opts.strength ?? 0.2);
    }
    const claimed = colourAt(challenge, f.timestampMs) ?? challenge.colours[challenge.colours.length - 1]!.colour;
    out.push({ image, meta: { nonce: challenge.nonce, timestamp_ms: f.timestampMs, colour: claimed } });
  }
  return out;
}

/** The same still image `count` times at `fps`: a photo held steadily in front of the camera. */
export function stillFrames(image: Buffer, count: number, fps: number): { image: Buffer; timestampMs: number }[] {
  return Array.from({ length: count }, (_, i) => ({ image, timestampMs: Math.round((i * 1000) / fps) }));
}

/**
 * A flat photo rotated about a vertical axis through its centre and seen in perspective: the
 * strongest 2-D imitation of a head turn (what a held-up print or a warped photo can do).
 * `yawDeg` over time follows `yawAt`.
 */
export async function planarTurnFrames(photo: Buffer, maxSide: number, fps: number, durationMs: number, yawAt: (t: number) => number): Promise<{ image: Buffer; timestampMs: number }[]> {
  const src = await decodeImage(photo, maxSide);
  const frames: { image: Buffer; timestampMs: number }[] = [];
  const f = src.width * 1.2; // focal length in pixels, a phone-like field of view
  for (let t = 0; t < durationMs; t += 1000 / fps) {
    const th = (yawAt(t) * Math.PI) / 180;
    const out = Buffer.alloc(src.width * src.height * 3);
    const cx = src.width / 2;
    const cy = src.height / 2;
    const D = f; // the photo plane sits at distance f, filling the view
    for (let v = 0; v < src.height; v++) {
      for (let u = 0; u < src.width; u++) {
        // Inverse map: intersect the camera ray of (u, v) with the rotated plane.
        const rx = (u - cx) / f;
        const ry = (v - cy) / f;
        // Plane point (X, Y) maps to camera (X cosθ, Y, D + X sinθ); solve X from rx = X cosθ / (D + X sinθ).
        const X = (rx * D) / (Math.cos(th) - rx * Math.sin(th));
        const Y = ry * (D + X * Math.sin(th));
        const sx = X + cx;
        const sy = Y + cy;
        const o = (v * src.width + u) * 3;
        if (sx < 0 || sy < 0 || sx >= src.width - 1 || sy >= src.height - 1) continue;
        const x0 = Math.floor(sx), y0 = Math.floor(sy), fx = sx - x0, fy = sy - y0;
        for (let c = 0; c < 3; c++) {
          const p = (yy: number, xx: number) => src.data[(yy * src.width + xx) * 3 + c]!;
          out[o + c] = Math.round((p(y0, x0) * (1 - fx) + p(y0, x0 + 1) * fx) * (1 - fy) + (p(y0 + 1, x0) * (1 - fx) + p(y0 + 1, x0 + 1) * fx) * fy);
        }
      }
    }
    frames.push({ image: await sharp(out, { raw: { width: src.width, height: src.height, channels: 3 } }).jpeg({ quality: 90 }).toBuffer(), timestampMs: Math.round(t) });
  }
  return frames;
}

/**
 * A print of a photo, photographed: reduced dynamic range and saturation of ink on paper, a
 * halftone-like dot pattern, slight blur, and the print held slightly tilted inside a darker
 * scene. A crude imitation of the real thing; there is no print-attack clip in the shared set.
 */
export async function simulatePrint(photo: Buffer, maxSide: number): Promise<Buffer> {
  const src = await decodeImage(photo, maxSide);
  const data = Buffer.alloc(src.width * src.height * 3);
  for (let y = 0; y < src.height; y++) {
    for (let x = 0; x < src.width; x++) {
      const i = (y * src.width + x) * 3;
      const dot = ((x % 4) < 2) === ((y % 4) < 2) ? 1 : -1; // 4-px screen pattern
      const mean = (src.data[i]! + src.data[i + 1]! + src.data[i + 2]!) / 3;
      for (let c = 0; c < 3; c++) {
        const desat = mean + 0.6 * (src.data[i + c]! - mean);
        data[i + c] = Math.max(0, Math.min(255, Math.round(40 + desat * 0.7 + dot * 10)));
      }
    }
  }
  const print = await sharp(data, { raw: { width: src.width, height: src.height, channels: 3 } }).blur(0.8).rotate(4, { background: '#202020' }).png().toBuffer();
  const meta = await sharp(print).metadata();
  const W = Math.round((meta.width ?? src.width) * 1.5);
  const H = Math.round((meta.height ?? src.height) * 1.3);
  const scene = await sharp({ create: { width: W, height: H, channels: 3, background: '#3a3530' } })
    .composite([{ input: print, left: Math.round(W * 0.17), top: Math.round(H * 0.12) }])
    .png()
    .toBuffer();
  // sharp resizes before it composites, so the scene is flattened first.
  return sharp(scene)
    .resize({ width: maxSide, height: maxSide, fit: 'inside' })
    .jpeg({ quality: 88 })
    .toBuffer();
}

/**
 * A timed-script (version 2) challenge for a recorded clip, its slots placed by one fixed rule from
 * the clip's labelled motion times (never tuned per clip): a slot opens 500 ms before the motion
 * starts (the prompt leads the head), not before the neutral period or the previous slot ends,
 * and closes halfway between this motion's end and the next one's start (the last: 500 ms after
 * the motion ends, inside the clip). Colours as `challengeForClip`.
 */
export function scriptedChallengeForClip(base: TLivenessChallenge, durationMs: number, neutralMs: number, motions: { step: TLivenessStep; startMs: number; endMs: number }[]): TLivenessChallenge {
  const c = challengeForClip(base, motions.map((m) => m.step), durationMs);
  const slots: { step: TLivenessStep; start_ms: number; end_ms: number }[] = [];
  let boundary = neutralMs;
  motions.forEach((m, i) => {
    const start = Math.max(boundary, m.startMs - 500);
    const next = motions[i + 1];
    const end = next ? Math.max(start + 500, Math.round((m.endMs + next.startMs) / 2)) : Math.min(durationMs, Math.max(start + 500, m.endMs + 500));
    slots.push({ step: m.step, start_ms: Math.round(start), end_ms: Math.round(end) });
    boundary = end;
  });
  return { ...c, version: 2, neutral_ms: neutralMs, slots };
}
