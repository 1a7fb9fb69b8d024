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

/**
 * The `level` interval of `p50(a) / p50(b)` by a paired bootstrap: `a[i]` and `b[i]` were taken
 * in the same round (the latency phase interleaves its variants), so rounds are resampled
 * together and a slow patch of the machine weighs on both sides alike. The generator is seeded,
 * so a run's samples always give the same interval.
 */
export function medianRatioInterval(
  a: readonly number[],
  b: readonly number[],
  { level = 0.95, resamples = 2000, seed = 25 } = {},
): [number, number] {
  const n = Math.min(a.length, b.length);
  if (n === 0) return [Number.NaN, Number.NaN];
  const random = mulberry32(seed);
  const ratios: number[] = [];
  const ra: number[] = new Array<number>(n);
  const rb: number[] = new Array<number>(n);
  for (let k = 0; k < resamples; k++) {
    for (let i = 0; i < n; i++) {
      const j = Math.floor(random() * n);
      ra[i] = a[j]!;
      rb[i] = b[j]!;
    }
    ratios.push(percentile(ra, 50) / percentile(rb, 50));
  }
  const tail = ((1 - level) / 2) * 100;
  return [percentile(ratios, tail), percentile(ratios, 100 - tail)];
}

/** A small seeded generator (mulberry32): the bootstrap must not depend on `Math.random`. */
function mulberry32(seed: number): () => number {
  let t = seed >>> 0;
  return () => {
    t = (t + 0x6d2b79f5) >>> 0;
    let x = Math.imul(t ^ (t >>> 15), t | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}
