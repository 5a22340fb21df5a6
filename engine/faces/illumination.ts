import { colourAt, colourRgb, type TLivenessChallenge, type TScreenColour } from '../../domain/liveness.js';

export interface IlluminationSample {
  timestampMs: number;
  /** Mean linear RGB of the skin patch. */
  skinRgb: [number, number, number];
  /** The colour the page claims it showed. */
  claimed: TScreenColour;
}

export interface IlluminationResult {
  /** Mean per-channel correlation at the best lag, in −1..1 (NaN when not measurable). */
  correlation: number;
  lagFrames: number;
  perChannel: [number, number, number];
  /** Fraction of frames whose claimed colour differs from the issued one (away from boundaries). */
  claimedMismatch: number;
  frames: number;
}

function pearson(a: number[], b: number[]): number {
  const n = a.length;
  const ma = a.reduce((s, v) => s + v, 0) / n;
  const mb = b.reduce((s, v) => s + v, 0) / n;
  let sab = 0, saa = 0, sbb = 0;
  for (let i = 0; i < n; i++) {
    sab += (a[i]! - ma) * (b[i]! - mb);
    saa += (a[i]! - ma) ** 2;
    sbb += (b[i]! - mb) ** 2;
  }
  // A constant signal (a still photo, or no change at all) has no response: correlation 0.
  return saa > 1e-12 && sbb > 1e-12 ? sab / Math.sqrt(saa * sbb) : 0;
}

/** Removes slow drift (head motion, exposure) with a centred moving mean over `halfWindowMs`. */
function highPass(times: number[], values: number[], halfWindowMs: number): number[] {
  return values.map((v, i) => {
    let s = 0, n = 0;
    for (let j = 0; j < values.length; j++) {
      if (Math.abs(times[j]! - times[i]!) <= halfWindowMs) {
        s += values[j]!;
        n++;
      }
    }
    return v - s / n;
  });
}

/** Chromaticity in log space: brightness (exposure, distance) cancels, colour remains. */
function logChroma(rgb: [number, number, number]): [number, number, number] {
  const l = rgb.map((v) => Math.log(v + 1e-3));
  const m = (l[0]! + l[1]! + l[2]!) / 3;
  return [l[0]! - m, l[1]! - m, l[2]! - m];
}

/**
 * How well the face's colour follows the issued screen colours. Light from the screen adds to the
 * skin's light in proportion to the screen colour, so the skin's log-chromaticity moves with the
 * issued colour's chromaticity. A printed photo or a phone replay in front of the camera is lit
 * far less by the applicant's screen (the phone emits its own light) and a recorded video carries
 * the colours of another session, if any. The same high-pass filter is applied to the expected
 * signal so the comparison is like for like; a small lag absorbs camera and display latency.
 */
export function scoreIllumination(samples: IlluminationSample[], challenge: Pick<TLivenessChallenge, 'colours'>, maxLagFrames: number): IlluminationResult {
  const s = [...samples].sort((a, b) => a.timestampMs - b.timestampMs);
  const times = s.map((x) => x.timestampMs);
  const observed = s.map((x) => logChroma(x.skinRgb));
  const expectedAt = (t: number) => {
    const c = colourAt(challenge, t);
    if (!c) return undefined;
    const rgb = colourRgb(c);
    const m = (rgb[0] + rgb[1] + rgb[2]) / 3;
    return [rgb[0] - m, rgb[1] - m, rgb[2] - m];
  };

  let mismatched = 0, judged = 0;
  for (const x of s) {
    const near = [x.timestampMs - 120, x.timestampMs, x.timestampMs + 120].map((t) => colourAt(challenge, t));
    if (near.some((c) => c === undefined)) continue;
    judged++;
    if (!near.includes(x.claimed)) mismatched++;
  }

  let best: IlluminationResult = { correlation: NaN, lagFrames: 0, perChannel: [NaN, NaN, NaN], claimedMismatch: judged ? mismatched / judged : 1, frames: s.length };
  for (let lag = 0; lag <= maxLagFrames; lag++) {
    // Frame i shows the response to the colour issued at frame i − lag's time.
    const idx: number[] = [];
    const exp: number[][] = [];
    for (let i = lag; i < s.length; i++) {
      const e = expectedAt(times[i - lag]!);
      if (e) {
        idx.push(i);
        exp.push(e);
      }
    }
    if (idx.length < 4) continue;
    const t = idx.map((i) => times[i]!);
    const per = [0, 1, 2].map((c) => {
      const o = highPass(t, idx.map((i) => observed[i]![c]!), 600);
      const e = highPass(t, exp.map((v) => v[c]!), 600);
      return pearson(o, e);
    }) as [number, number, number];
    const corr = (per[0] + per[1] + per[2]) / 3;
    if (!(corr <= best.correlation)) best = { ...best, correlation: corr, lagFrames: lag, perChannel: per, frames: idx.length };
  }
  return best;
}
