/**
 * `throughput_per_s`: delegations completed per second with `concurrency` in flight (a closed
 * loop: each of `concurrency` clients starts its next delegation when its last one completes),
 * from the first start to the last completion.
 */
import { round } from '../stats.js';

export interface ThroughputLevel {
  concurrency: number;
  total: number;
  /** Passes over the variants, the order reversed each pass, sharing `total`. @default 2 */
  passes?: number;
}

export interface ThroughputResult {
  per_s: number;
  completed: number;
  seconds: number;
  /** Each of the subject's counters (see {@link ThroughputSubject.counters}) per delegation measured. */
  per_delegation?: Record<string, number>;
}

/** One variant's delegations at a level: its own worker and answer delivery, closed after the level. */
export interface ThroughputSubject {
  run: () => Promise<void>;
  close: () => Promise<void>;
  /** Cumulative counters (CPU ms, server requests by method) read before and after each half. */
  counters?: () => Promise<Record<string, number>>;
  /**
   * Waits for the work a pass leaves the server (its task queues lag behind at high concurrency),
   * after the warm-up and after each pass, before the pass's counters are read: that work is the
   * variant's, not the next variant's.
   */
  settle?: () => Promise<void>;
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

/**
 * Every variant at one level, in passes that alternate the order: the variants in order, then in
 * reverse, and so on (`passes`, default 2), the passes sharing `total` between them. The dev
 * server slows as its store fills (at c200 its CPU per delegation rose from 52 to 65 ms over 4,000
 * delegations), which a single pass charged to the variants run last; mirrored, every variant
 * sits at the same mean position, so the drift cancels in the ratios; more passes also spread a
 * slow stretch of the machine over the variants instead of one. Every subject is opened and
 * warmed by one round at the level before any pass: the drift is steepest while the store is
 * nearly empty (at c200, `blocking_activity` ran its first pass at 33.7 per s, then 30.2 and
 * 28.9, warmed only before its own first pass), which mirroring cannot cancel.
 */
export async function measureThroughputLevel<V extends string>(
  variants: readonly V[],
  level: ThroughputLevel,
  open: (variant: V) => Promise<ThroughputSubject>,
  onPass: (variant: V, pass: ThroughputResult) => void = () => {},
): Promise<Record<V, ThroughputResult>> {
  const subjects = new Map<V, ThroughputSubject>();
  const sums = new Map<V, { completed: number; seconds: number; counted: Record<string, number> }>();
  const passes = level.passes ?? 2;
  try {
    for (const variant of variants) {
      const subject = await open(variant);
      subjects.set(variant, subject);
      await measureThroughput(subject.run, { concurrency: level.concurrency, total: level.concurrency });
      await subject.settle?.();
    }
    for (let pass = 0; pass < passes; pass++) {
      const order = pass % 2 === 0 ? variants : [...variants].reverse();
      // The first passes take the remainder: every delegation of `total` is run once.
      const total = Math.floor(level.total / passes) + (pass < level.total % passes ? 1 : 0);
      for (const variant of order) {
        const subject = subjects.get(variant)!;
        const before = await subject.counters?.();
        const measured = await measureThroughput(subject.run, { concurrency: level.concurrency, total });
        await subject.settle?.();
        const after = await subject.counters?.();
        onPass(variant, measured);
        const sum = sums.get(variant) ?? { completed: 0, seconds: 0, counted: {} };
        sums.set(variant, sum);
        sum.completed += measured.completed;
        sum.seconds += measured.seconds;
        for (const [name, value] of Object.entries(after ?? {}))
          sum.counted[name] = (sum.counted[name] ?? 0) + value - (before?.[name] ?? 0);
      }
    }
  } finally {
    for (const subject of subjects.values()) await subject.close();
  }
  return Object.fromEntries(
    [...sums].map(([variant, { completed, seconds, counted }]) => [
      variant,
      {
        per_s: round(completed / seconds),
        completed,
        seconds: round(seconds, 2),
        ...(Object.keys(counted).length
          ? {
              per_delegation: Object.fromEntries(
                Object.entries(counted)
                  .filter(([, n]) => n > 0)
                  .map(([name, n]) => [name, round(n / completed, 2)]),
              ),
            }
          : {}),
      },
    ]),
  ) as Record<V, ThroughputResult>;
}
