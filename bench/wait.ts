/**
 * Running many calls with a cap on how many are in flight. (Waiting for an observable event is
 * the tests' `waitFor`, test/helpers/wait.ts.)
 */

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
