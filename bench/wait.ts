/**
 * Waiting for observable events (a visibility count, a describe() field) by checking every
 * `intervalMs`, and running many calls with a cap on how many are in flight.
 */
import { setTimeout as sleep } from 'node:timers/promises';

export async function waitUntil<T>(
  probe: () => Promise<T | undefined | false>,
  { timeoutMs, intervalMs = 50, what }: { timeoutMs: number; intervalMs?: number; what: string },
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined && value !== false) return value;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}${last ? ` (last error: ${String(last)})` : ''}`);
    await sleep(intervalMs);
  }
}

/** Runs `fn(i)` for i in 0..count-1 with at most `limit` in flight; results in order. */
export async function mapLimit<T>(count: number, limit: number, fn: (i: number) => Promise<T>): Promise<T[]> {
  const results = new Array<T>(count);
  let next = 0;
  const lane = async () => {
    while (next < count) {
      const i = next++;
      results[i] = await fn(i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, count) }, lane));
  return results;
}
