/**
 * Running many calls with a cap on how many are in flight, and calling again through the dev
 * server's namespace blips. (Waiting for an observable event is the tests' `waitFor`,
 * test/helpers/wait.ts.)
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { NamespaceNotFoundError } from '@temporalio/common';

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

/**
 * Runs `fn`, again (at most `attempts` times in all, `delayMs` apart) while the server answers
 * that the namespace does not exist. The bench's dev server answered one `StartWorkflowExecution`
 * so, 32 minutes and 20,000 workflows into a run, for the namespace it had served all along (its
 * namespace registry reloads from its store under load); nothing was created, so calling again
 * is safe. Any other error, or the same one `attempts` times, is thrown.
 */
export async function retryingNamespaceBlips<T>(fn: () => Promise<T>, attempts = 5, delayMs = 1000): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (err) {
      if (!(err instanceof NamespaceNotFoundError) || attempt >= attempts) throw err;
      console.error(`bench: ${err.message} (attempt ${attempt} of ${attempts}); trying again in ${delayMs} ms`);
      await sleep(delayMs);
    }
  }
}

/**
 * Waits until a process is quiet: its CPU time (`cpuSeconds`, cumulative) grows by less than
 * `idleShare` of one core over a window of `windowMs`, checked window after window, at most
 * `maxMs`. @returns how long it waited, in ms.
 */
export async function untilQuiet(
  cpuSeconds: () => number,
  { windowMs = 500, idleShare = 0.1, maxMs = 15_000 }: { windowMs?: number; idleShare?: number; maxMs?: number } = {},
): Promise<number> {
  const started = performance.now();
  let last = cpuSeconds();
  while (performance.now() - started < maxMs) {
    await sleep(windowMs);
    const now = cpuSeconds();
    const busy = now - last;
    last = now;
    if (busy * 1000 < windowMs * idleShare) break;
  }
  return Math.round(performance.now() - started);
}
