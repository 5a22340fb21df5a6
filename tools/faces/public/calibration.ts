/** Genuine (same person) and impostor (different people) similarity scores of one split. */
export interface Scores {
  same: Float64Array;
  diff: Float64Array;
}

/**
 * The threshold for a target false-accept rate: the smallest value, on a 0.001 grid (what the
 * settings hold), at which at most `far` of the impostor scores are ≥ it. Accept = score ≥ threshold.
 */
export function thresholdAtFar(diff: Float64Array, far: number): number {
  const sorted = Float64Array.from(diff).sort().reverse();
  const allowed = Math.floor(far * sorted.length);
  // The (allowed+1)-th highest impostor must fall below the threshold.
  const t = Math.floor((sorted[allowed] ?? -1) * 1000 + 1) / 1000;
  return Math.round(t * 1000) / 1000;
}

export function rates(s: Scores, threshold: number): { tar: number; far: number; fa: number; fr: number } {
  let fa = 0, fr = 0;
  for (const v of s.diff) if (v >= threshold) fa++;
  for (const v of s.same) if (v < threshold) fr++;
  return { tar: 1 - fr / (s.same.length || 1), far: fa / (s.diff.length || 1), fa, fr };
}
