/**
 * `hostility`: one worker serves 100 ordinary delegations while 11 hostile agents (the test
 * suite's hostile agent, test/hostile/, with its heaviest attacks: endless bodies, endless SSE
 * lines and events, a 64 MB card, 1,000s of artifacts, deep JSON, huge ids, garbage, 700 stream
 * events of 7 MiB) run
 * alongside. Every ordinary delegation must complete, every hostile one must end in its typed
 * failure, and the worker's event loop must not stall for more than 100 ms (measured inside the
 * worker with `monitorEventLoopDelay`, once the worker has served one ordinary delegation per mode). Then each byte-cap attack alone on a fresh worker: its
 * peak RSS (VmHWM) against the worker's RSS when idle, and the event loop's longest stall.
 */
import { WorkflowFailedError, type Client } from '@temporalio/client';
import { ATTACKS } from '../../test/hostile/attacks.js';
import { startHostileAgent, type HostileAgent } from '../../test/hostile/hostile-agent.js';
import type { BenchEnv } from '../bench-env.js';
import type { AnswerDelivery } from '../delivery/answer-delivery.js';
import { round } from '../stats.js';
import { answerAndFinish, startDelegation, type TemporalRun } from '../variants/temporal.js';

/** Attacks that run alongside the ordinary delegations (each its own agent). */
const ALONGSIDE = [
  'oversized-card',
  'endless-body',
  'endless-sse-line',
  'endless-sse-event',
  'many-artifacts',
  'deep-json',
  'huge-task-id',
  'unknown-task-state',
  'sse-not-json',
  'garbage-card',
  'stream-byte-flood',
] as const;

/** How many hostile agents run beside the ordinary delegations. */
export const HOSTILE_ALONGSIDE = ALONGSIDE.length;

/** The attacks that send the most bytes, each measured alone for its peak RSS. */
const LARGEST = [
  'oversized-card',
  'endless-body',
  'endless-sse-line',
  'endless-sse-event',
  'stream-byte-flood',
] as const;

export interface AttackOutcome {
  code: string;
  seconds: number;
}

export interface HostilityFigures {
  normal_total: number;
  normal_completed: number;
  hostile: Record<string, AttackOutcome>;
  /** The longest the worker's event loop was blocked while all of them ran, and the 99th percentile. */
  event_loop_max_ms: number;
  event_loop_p99_ms: number;
  wall_s: number;
  /** Each of the largest attacks alone on a fresh worker: peak RSS, and the longest the event loop was blocked. */
  alone: Record<
    string,
    AttackOutcome & { idle_rss_mb: number; peak_rss_mb: number; event_loop_max_ms: number; event_loop_p99_ms: number }
  >;
}

export async function measureHostility(
  env: BenchEnv,
  delivery: (taskQueue: string) => AnswerDelivery,
  normal = 100,
): Promise<HostilityFigures> {
  const agents = new Map<string, HostileAgent>();
  try {
    for (const name of new Set<string>([...ALONGSIDE, ...LARGEST])) {
      agents.set(name, await startHostileAgent({ attack: ATTACKS.get(name)! }));
    }
    const extra = JSON.stringify(Object.fromEntries([...agents].map(([name, agent]) => [name, agent.baseUrl])));

    const taskQueue = `bench-hostility-${process.pid}`;
    const worker = await env.spawnWorker(taskQueue, { BENCH_EXTRA_AGENTS: extra });
    const run: TemporalRun = { client: env.client, taskQueue, delivery: delivery(taskQueue) };
    await warmUp(run);
    await worker.eventLoopDelay(); // from here on
    const began = performance.now();
    const ordinary = Array.from({ length: normal }, async () =>
      answerAndFinish(run, await startDelegation(run, 'delegate_stream')).then(
        () => true,
        () => false,
      ),
    );
    const hostile = ALONGSIDE.map((name) => attack(env.client, taskQueue, name));
    const [completed, outcomes] = await Promise.all([Promise.all(ordinary), Promise.all(hostile)]);
    const wall = (performance.now() - began) / 1000;
    const loop = await worker.eventLoopDelay();
    run.delivery.close();
    await worker.stop();

    const alone: HostilityFigures['alone'] = {};
    for (const name of LARGEST) {
      const queue = `bench-hostility-${name}-${process.pid}`;
      const fresh = await env.spawnWorker(queue, { BENCH_EXTRA_AGENTS: extra });
      const warm: TemporalRun = { client: env.client, taskQueue: queue, delivery: delivery(queue) };
      await warmUp(warm);
      warm.delivery.close();
      const idle = fresh.rssMb();
      await fresh.eventLoopDelay(); // from here on
      const outcome = await attack(env.client, queue, name);
      const stall = await fresh.eventLoopDelay();
      alone[name] = {
        ...outcome,
        idle_rss_mb: round(idle, 1),
        peak_rss_mb: round(fresh.peakRssMb(), 1),
        event_loop_max_ms: round(stall.maxMs, 1),
        event_loop_p99_ms: round(stall.p99Ms, 1),
      };
      await fresh.stop();
    }
    return {
      normal_total: normal,
      normal_completed: completed.filter(Boolean).length,
      hostile: Object.fromEntries(ALONGSIDE.map((name, i) => [name, outcomes[i]!])),
      event_loop_max_ms: round(loop.maxMs, 1),
      event_loop_p99_ms: round(loop.p99Ms, 1),
      wall_s: round(wall, 2),
      alone,
    };
  } finally {
    await Promise.all([...agents.values()].map((agent) => agent.close()));
  }
}

/** One delegation to a hostile agent: how it ended (its failure type) and how long that took. */
/**
 * One ordinary delegation in each mode the attacks use, before the event loop is watched: a
 * worker's first delegation compiles what every later one reuses (protobuf codecs, schemas, the
 * workflow's modules; 40-90 ms of main thread in one go), which is not what an attack costs.
 */
async function warmUp(run: TemporalRun): Promise<void> {
  for (const variant of ['delegate_stream', 'delegate_poll'] as const) {
    await answerAndFinish(run, await startDelegation(run, variant));
  }
}

async function attack(client: Client, taskQueue: string, name: string): Promise<AttackOutcome> {
  const began = performance.now();
  const mode = ATTACKS.get(name)!.mode ?? 'poll';
  const handle = await client.workflow.start('delegate', {
    taskQueue,
    workflowId: `bench-hostile-${name}-${process.pid}-${Date.now()}`,
    args: [{ agent: name, text: 'Check the dependencies of payment-service for Node.js 24', mode }],
  });
  const code = await handle.result().then(
    () => 'COMPLETED',
    (err: unknown) =>
      err instanceof WorkflowFailedError ? ((err.cause as { type?: string }).type ?? err.cause?.name ?? '?') : '?',
  );
  return { code, seconds: round((performance.now() - began) / 1000, 2) };
}
