/** Small statistics over samples in milliseconds. */

export interface Summary {
  n: number;
  p50: number;
  p95: number;
  mean: number;
  min: number;
  max: number;
}

/** Nearest-rank percentile (`p` in 0..100) of unsorted samples. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1]!;
}

export function summarize(samples: readonly number[]): Summary {
  const n = samples.length;
  return {
    n,
    p50: round(percentile(samples, 50)),
    p95: round(percentile(samples, 95)),
    mean: round(samples.reduce((a, b) => a + b, 0) / Math.max(1, n)),
    min: round(Math.min(...samples)),
    max: round(Math.max(...samples)),
  };
}

/** Rounds to `digits` decimals (figures in the JSON stay readable). */
export function round(value: number, digits = 1): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}
