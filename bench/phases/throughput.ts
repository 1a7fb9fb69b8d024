/**
 * `throughput_per_s`: delegations completed per second with `concurrency` in flight (a closed
 * loop: each of `concurrency` clients starts its next delegation when its last one completes),
 * from the first start to the last completion.
 */
import { round } from '../stats.js';

export interface ThroughputLevel {
  concurrency: number;
  total: number;
}

export interface ThroughputResult {
  per_s: number;
  completed: number;
  seconds: number;
}

export async function measureThroughput(
  run: () => Promise<void>,
  { concurrency, total }: ThroughputLevel,
): Promise<ThroughputResult> {
  let started = 0;
  const begin = performance.now();
  const client = async () => {
    while (started < total) {
      started++;
      await run();
    }
  };
  await Promise.all(Array.from({ length: concurrency }, client));
  const seconds = (performance.now() - begin) / 1000;
  return { per_s: round(total / seconds), completed: total, seconds: round(seconds, 2) };
}
