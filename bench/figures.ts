/** Figures derived from the measured ones (pure arithmetic, unit-tested): ratios and per-cached memory. */
import { round } from './stats.js';

/** Per throughput level (`c50`…): `delegate_stream` per second / `blocking_activity` per second. */
export function throughputRatios(
  perS: Partial<Record<string, Record<string, number>>> | undefined,
  of = 'delegate_stream',
  against = 'blocking_activity',
): Record<string, number> {
  const ours = perS?.[of] ?? {};
  const base = perS?.[against] ?? {};
  return Object.fromEntries(
    Object.keys(ours)
      .filter((level) => base[level] !== undefined && base[level] > 0)
      .map((level) => [level, round(ours[level]! / base[level]!, 2)]),
  );
}

/**
 * MB of worker RSS per 1,000 workflows held in the workflow cache: the growth from idle to all
 * parked, over the number the cache can hold (parked ones past the cache are evicted and cost
 * next to nothing in the worker).
 */
export function mbPer1000Cached(parked: { worker_rss_mb: number; idle_rss_mb: number; n: number }, cache: number) {
  const cached = Math.min(parked.n, cache);
  return round(((parked.worker_rss_mb - parked.idle_rss_mb) * 1000) / cached);
}

/** Memory per cached workflow in our worker against the bare-SDK worker's, both from one run. */
export interface ParkedMemory {
  cache: number;
  ours_mb_per_1000_cached: number;
  bare_mb_per_1000_cached: number;
  /** ours / bare (the target: <= 1.2). */
  ratio_to_bare: number;
}

export function parkedMemory(
  ours: { rss_mb_per_1000_cached: number; max_cached_workflows: number },
  bare: { rss_mb_per_1000_cached: number },
): ParkedMemory {
  return {
    cache: ours.max_cached_workflows,
    ours_mb_per_1000_cached: ours.rss_mb_per_1000_cached,
    bare_mb_per_1000_cached: bare.rss_mb_per_1000_cached,
    ratio_to_bare: round(ours.rss_mb_per_1000_cached / bare.rss_mb_per_1000_cached, 2),
  };
}
