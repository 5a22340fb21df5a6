/** Small helpers shared by the benchmark scripts. */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i]!;
}

export function summarize(ms: number[]): { n: number; p50: number; p95: number; p99: number; max: number } {
  const s = [...ms].sort((a, b) => a - b);
  return { n: s.length, p50: percentile(s, 50), p95: percentile(s, 95), p99: percentile(s, 99), max: s[s.length - 1] ?? NaN };
}

export const fmt = (x: number, digits = 1): string => (Number.isFinite(x) ? x.toFixed(digits) : '—');

/** Runs `total` calls of `fn` with `concurrency` in flight; returns per-call latencies and wall time. */
export async function runConcurrent(total: number, concurrency: number, fn: (i: number) => Promise<void>): Promise<{ latencies: number[]; wallMs: number; errors: number }> {
  const latencies: number[] = [];
  let next = 0;
  let errors = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (;;) {
        const i = next++;
        if (i >= total) return;
        const s = performance.now();
        try {
          await fn(i);
          latencies.push(performance.now() - s);
        } catch {
          errors++;
        }
      }
    }),
  );
  return { latencies, wallMs: performance.now() - t0, errors };
}

/**
 * Wilson score interval (95 %) of k successes in n, in percent: what a rate measured on a few dozen
 * real images can and cannot claim (10/11 is 62–98 %).
 */
export function wilson95(k: number, n: number): { lo: number; hi: number } {
  if (n === 0) return { lo: NaN, hi: NaN };
  const z = 1.96, p = k / n, d = 1 + (z * z) / n;
  const c = p + (z * z) / (2 * n), a = z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n));
  return { lo: (100 * (c - a)) / d, hi: (100 * (c + a)) / d };
}
