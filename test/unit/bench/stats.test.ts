import { describe, expect, it } from 'vitest';
import { medianRatioInterval, percentile } from '../../../bench/stats.js';

/** Latencies around `center`, spread by a fixed pattern (no random source in the test). */
const around = (center: number, n: number) => Array.from({ length: n }, (_, i) => center + ((i * 37) % 23) - 11);

describe('medianRatioInterval', () => {
  it('is a single point when every round has the same ratio', () => {
    const a = around(50, 40);
    const [low, high] = medianRatioInterval(
      a.map((x) => x * 1.1),
      a,
    );
    expect(low).toBeCloseTo(1.1, 10);
    expect(high).toBeCloseTo(1.1, 10);
  });

  it('gives the same interval whenever it is given the same samples (its generator is seeded)', () => {
    const a = around(55, 60);
    const b = around(50, 60).reverse();
    expect(medianRatioInterval(a, b)).toEqual(medianRatioInterval([...a], [...b]));
  });

  it('holds the ratio of the medians, and narrows as rounds accumulate', () => {
    const a = around(55, 200);
    const b = around(50, 200).reverse();
    const point = percentile(a, 50) / percentile(b, 50);
    const [low, high] = medianRatioInterval(a, b);
    expect(low).toBeLessThanOrEqual(point);
    expect(high).toBeGreaterThanOrEqual(point);
    const [fewLow, fewHigh] = medianRatioInterval(a.slice(0, 30), b.slice(0, 30));
    expect(high - low).toBeLessThan(fewHigh - fewLow);
  });

  it('is undefined without samples', () => {
    expect(medianRatioInterval([], [])).toEqual([Number.NaN, Number.NaN]);
  });
});
