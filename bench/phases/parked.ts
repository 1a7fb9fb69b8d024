/**
 * `parked`: N delegations that all stop in `input-required` on one worker process. Measures the
 * time until all are parked (visibility: `A2aTaskState` = INPUT_REQUIRED), the worker's RSS
 * then (against its RSS after a warm-up), and, after all are answered, the time until all have
 * completed. A parked delegation holds no activity slot and no open connection, so the RSS per
 * parked delegation is what its cached workflow state costs, as long as all fit the worker's
 * workflow cache; past it, the evicted ones cost next to nothing, hence `rss_mb_per_1000_cached`,
 * read when the cache has just filled.
 */
import type { Client, WorkflowHandle } from '@temporalio/client';
import { answerSignal } from '../../contract/index.js';
import type { BenchEnv } from '../bench-env.js';
import { visibilityListDelivery, waitingQuery } from '../delivery/visibility-list.js';
import { mbPer1000Cached } from '../figures.js';
import { round } from '../stats.js';
import { startDelegation, temporalDelegation, type TemporalRun } from '../variants/temporal.js';
import { ANSWER_TEXT } from '../scenario.js';
import { waitFor } from '../../test/helpers/wait.js';
import { mapLimit, retryingNamespaceBlips } from '../wait.js';

let bareSequence = 0;

export interface ParkedFigures {
  n: number;
  /** Worker RSS with all N parked, and after the warm-up (before any was started). */
  worker_rss_mb: number;
  idle_rss_mb: number;
  /** (worker_rss_mb - idle_rss_mb) per 1000 parked delegations. */
  rss_mb_per_1000: number;
  /** Worker RSS when the first min(n, cache) were parked, before any eviction. */
  cached_rss_mb: number;
  /** (cached_rss_mb - idle_rss_mb) per 1000 of those min(n, cache): what one cached workflow costs. */
  rss_mb_per_1000_cached: number;
  /** Peak RSS over the whole phase (VmHWM), and the RSS once all have completed (nothing parked). */
  peak_rss_mb: number;
  rss_after_drain_mb: number;
  /** The worker's main-thread JS heap in use after a full GC: after the warm-up, with all parked, after the drain. */
  heap_used_mb: { idle: number; parked: number; drained: number };
  start_s: number;
  drain_s: number;
  /** The worker's workflow cache size (A2A_MAX_CACHED_WORKFLOWS; parked ones beyond it are evicted). */
  max_cached_workflows: number;
}

export interface ParkedOptions {
  count: number;
  startConcurrency: number;
  answerConcurrency: number;
  listIntervalMs: number;
  /** The worker's workflow cache size (given to the worker as A2A_MAX_CACHED_WORKFLOWS). */
  maxCachedWorkflows: number;
  /**
   * How the delegations follow their tasks, or a baseline that waits for its signal:
   * `blocking_activity` in our worker, `bare_sdk` (bare/workflows.ts) in a bare-SDK worker.
   * @default 'delegate_stream'
   */
  variant?: ParkedVariant;
  log: (line: string) => void;
}

export type ParkedVariant = 'delegate_stream' | 'delegate_push' | 'blocking_activity' | 'bare_sdk';

const WARMUP = 5;

export async function measureParked(env: BenchEnv, options: ParkedOptions): Promise<ParkedFigures> {
  const { client } = env;
  const variant = options.variant ?? 'delegate_stream';
  const taskQueue = `bench-parked-${variant}-${process.pid}`;
  const cache = String(options.maxCachedWorkflows);
  const worker =
    variant === 'bare_sdk'
      ? await env.spawnBareWorker(taskQueue, options.maxCachedWorkflows)
      : await env.spawnWorker(taskQueue, { A2A_MAX_CACHED_WORKFLOWS: cache });
  const run: TemporalRun = {
    client,
    taskQueue,
    delivery: visibilityListDelivery(client, taskQueue, options.listIntervalMs),
  };
  const start = (): Promise<WorkflowHandle> =>
    retryingNamespaceBlips(() =>
      variant === 'bare_sdk'
        ? client.workflow.start('waitForSignal', {
            taskQueue,
            workflowId: `bench-bare-${process.pid}-${++bareSequence}`,
          })
        : startDelegation(run, variant),
    );
  for (let i = 0; i < WARMUP; i++) {
    if (variant !== 'bare_sdk') {
      await temporalDelegation(run, variant);
      continue;
    }
    const handle = await start();
    await run.delivery.awaitQuestion(handle);
    await handle.signal(answerSignal, { text: ANSWER_TEXT });
    await handle.result();
  }
  // RSS is read after a full GC of the worker's main thread, so collectable garbage is not counted.
  const idleHeap = (await worker.collectGarbage()).after.heapUsed;
  const idle = worker.rssMb();

  // First as many as the cache holds, so the RSS per cached workflow is read before any eviction
  // (memory freed by evicted workflows and their replays is not always returned to the system),
  // then the rest.
  const cachedCount = Math.min(options.count, options.maxCachedWorkflows);
  const startedAt = performance.now();
  const park = async (from: number, to: number): Promise<void> => {
    await mapLimit(to - from, options.startConcurrency, start);
    await waitFor(async () => (await count(client, waitingQuery(taskQueue))) >= to, {
      timeoutMs: 15 * 60_000,
      intervalMs: 250,
      what: `${to} parked delegations`,
    });
  };
  await park(0, cachedCount);
  await worker.collectGarbage();
  const cachedRss = worker.rssMb();
  if (options.count > cachedCount) await park(cachedCount, options.count);
  options.log(`parked: ${options.count} parked in ${((performance.now() - startedAt) / 1000).toFixed(1)} s`);
  const parkedAt = performance.now();
  const parkedHeap = (await worker.collectGarbage()).after.heapUsed;
  const rss = worker.rssMb();

  const waiting = await retryingNamespaceBlips(async () => {
    const ids: string[] = [];
    for await (const info of client.workflow.list({ query: waitingQuery(taskQueue), pageSize: 1000 }))
      ids.push(info.workflowId);
    return ids;
  });
  await mapLimit(waiting.length, options.answerConcurrency, (i) =>
    retryingNamespaceBlips(() => client.workflow.getHandle(waiting[i]!).signal(answerSignal, { text: ANSWER_TEXT })),
  );
  options.log(
    `parked: ${waiting.length} answered in ${((performance.now() - parkedAt) / 1000).toFixed(1)} s; waiting for all to complete`,
  );
  const done = `TaskQueue = "${taskQueue}" AND ExecutionStatus = "Completed"`;
  await waitFor(async () => (await count(client, done)) >= options.count + WARMUP, {
    timeoutMs: 15 * 60_000,
    intervalMs: 250,
    what: 'all parked delegations to complete',
  });
  const drainedAt = performance.now();
  const failed = await count(
    client,
    `TaskQueue = "${taskQueue}" AND ExecutionStatus != "Completed" AND ExecutionStatus != "Running"`,
  );
  if (failed) throw new Error(`${failed} parked delegations did not complete`);
  run.delivery.close();
  const peak = worker.peakRssMb();
  const drainedHeap = (await worker.collectGarbage()).after.heapUsed;
  const drainedRss = worker.rssMb();
  await worker.stop();
  return {
    n: options.count,
    worker_rss_mb: round(rss),
    idle_rss_mb: round(idle),
    rss_mb_per_1000: round(((rss - idle) * 1000) / options.count),
    cached_rss_mb: round(cachedRss),
    rss_mb_per_1000_cached: mbPer1000Cached(
      { worker_rss_mb: cachedRss, idle_rss_mb: idle, n: cachedCount },
      options.maxCachedWorkflows,
    ),
    peak_rss_mb: round(peak),
    rss_after_drain_mb: round(drainedRss),
    heap_used_mb: { idle: mb(idleHeap), parked: mb(parkedHeap), drained: mb(drainedHeap) },
    start_s: round((parkedAt - startedAt) / 1000, 2),
    drain_s: round((drainedAt - parkedAt) / 1000, 2),
    max_cached_workflows: options.maxCachedWorkflows,
  };
}

function mb(bytes: number): number {
  return round(bytes / 1024 ** 2);
}

async function count(client: Client, query: string): Promise<number> {
  return (await client.workflow.count(query)).count;
}
