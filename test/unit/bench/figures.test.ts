import { describe, expect, it } from 'vitest';
import { mbPer1000Cached, parkedMemory, throughputRatios } from '../../../bench/figures.js';

describe('throughputRatios', () => {
  it('divides delegate_stream by blocking_activity at every level both were measured', () => {
    expect(
      throughputRatios({
        delegate_stream: { c50: 20, c200: 18 },
        blocking_activity: { c50: 25 },
        direct: { c50: 300 },
      }),
    ).toEqual({ c50: 0.8 });
  });

  it('is empty without the baseline', () => {
    expect(throughputRatios(undefined)).toEqual({});
    expect(throughputRatios({ delegate_stream: { c50: 20 } })).toEqual({});
  });
});

describe('mbPer1000Cached', () => {
  it('counts only as many workflows as the cache holds', () => {
    // 1,000 parked, 250 cached: 100 MB of growth is 400 MB per 1,000 cached.
    expect(mbPer1000Cached({ worker_rss_mb: 300, idle_rss_mb: 200, n: 1_000 }, 250)).toBe(400);
  });

  it('counts every parked workflow when all fit the cache', () => {
    expect(mbPer1000Cached({ worker_rss_mb: 300, idle_rss_mb: 200, n: 500 }, 1_000)).toBe(200);
  });
});

describe('parkedMemory', () => {
  it('sets ours beside the bare-SDK worker', () => {
    expect(
      parkedMemory({ rss_mb_per_1000_cached: 300, max_cached_workflows: 250 }, { rss_mb_per_1000_cached: 250 }),
    ).toEqual({ cache: 250, ours_mb_per_1000_cached: 300, bare_mb_per_1000_cached: 250, ratio_to_bare: 1.2 });
  });
});
