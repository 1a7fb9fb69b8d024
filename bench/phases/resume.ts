/**
 * `resume_after_kill_s`: what a delegation loses when its worker gets SIGKILL, at each point a
 * worker can die under it, with a second worker already polling the task queue (as any deployment
 * of two replicas has; a replacement's own start-up is reported beside, not counted):
 *
 * - `streaming`: while its stream turn follows the report (chunks `chunkDelayMs` apart): the
 *   server notices the dead worker by the missing heartbeat and the turn is retried on the other.
 * - `waiting`: while it is parked on its question (no activity runs): the answer's workflow task
 *   waits on the dead worker's sticky queue, then the other worker replays the history.
 *
 * Each figure is the time from the answer to the result minus the same time undisturbed. Beside
 * them, the heartbeat traffic of an undisturbed delegation, from the server's own request counts.
 */
import { durationMs } from '../../contract/durations.js';
import { trackingProgress } from '../../client/tracking-progress.js';
import { TRACKING_DEFAULTS } from '../../workflows/delegate/tracking-settings.js';
import { answerSignal } from '../../contract/index.js';
import type { BenchEnv } from '../bench-env.js';
import type { AnswerDelivery } from '../delivery/answer-delivery.js';
import type { BenchWorker } from '../worker-process.js';
import { round } from '../stats.js';
import { startDelegation, temporalDelegation, type TemporalRun } from '../variants/temporal.js';
import { ANSWER_TEXT, type RemoteDelays } from '../scenario.js';
import { waitFor } from '../../test/helpers/wait.js';

export interface KillPointFigures {
  /** Answer → result with the kill, minus undisturbed. */
  lost_s: number;
  disturbed_s: number;
  /** The kill's moment against the answer (negative: before it). */
  killed_after_s: number;
}

export interface ResumeFigures {
  /** The worst kill point's lost time (the target: <= 3 s). */
  resume_after_kill_s: number;
  kill_points: { streaming: KillPointFigures; waiting: KillPointFigures };
  /** The tracking activity's heartbeat timeout. */
  heartbeat_timeout_s: number;
  /** Answer → result, undisturbed. */
  undisturbed_s: number;
  /** A new worker process's start-up (spawn → polling): what a deployment without a second replica adds. */
  replacement_ready_s: number;
  /**
   * Heartbeats the server received during one undisturbed delegation, start to result
   * (RecordActivityTaskHeartbeat), per second of it, and their share of all the requests its
   * frontend received meanwhile (the workers' long polls included).
   */
  heartbeats: { count: number; per_s: number; share_of_requests: number };
}

export async function measureResume(
  env: BenchEnv,
  delivery: (taskQueue: string) => AnswerDelivery,
  chunkDelayMs: number,
): Promise<ResumeFigures> {
  const taskQueue = `bench-resume-${process.pid}`;
  const run: TemporalRun = { client: env.client, taskQueue, delivery: delivery(taskQueue) };
  const delays: RemoteDelays = { workDelayMs: 0, chunkDelayMs };
  const spawn = async (): Promise<[BenchWorker, number]> => {
    const from = performance.now();
    const worker = await env.spawnWorker(taskQueue);
    return [worker, (performance.now() - from) / 1000];
  };
  let [doomed] = await spawn();
  await temporalDelegation(run, 'delegate_stream'); // warm-up: card cached, code loaded

  const before = await env.serverRequests();
  const startedAt = performance.now();
  const undisturbed = await answeredToDone(run, delays);
  const lifetime = (performance.now() - startedAt) / 1000;
  const after = await env.serverRequests();
  const heartbeatCount = (after.RecordActivityTaskHeartbeat ?? 0) - (before.RecordActivityTaskHeartbeat ?? 0);
  const allRequests = sum(after) - sum(before);

  // Streaming: the standby starts while the turn follows the report, then the turn's worker dies.
  let handle = await startDelegation(run, 'delegate_stream', delays);
  await run.delivery.awaitQuestion(handle);
  let answeredAt = performance.now();
  await handle.signal(answerSignal, { text: ANSWER_TEXT });
  await waitFor(async () => (await trackingProgress(handle))?.state === 'TASK_STATE_WORKING', {
    timeoutMs: 30_000,
    intervalMs: 20,
    what: 'the report stream',
  });
  const [firstStandby, replacementReady] = await spawn();
  let standby = firstStandby;
  let killedAt = performance.now();
  await doomed.kill('SIGKILL');
  await handle.result();
  const streaming = killPoint(answeredAt, killedAt, performance.now(), undisturbed);

  // Waiting: parked on its question on the standby, which dies before the answer.
  doomed = standby;
  handle = await startDelegation(run, 'delegate_stream', delays);
  await run.delivery.awaitQuestion(handle);
  [standby] = await spawn();
  killedAt = performance.now();
  await doomed.kill('SIGKILL');
  answeredAt = performance.now();
  await handle.signal(answerSignal, { text: ANSWER_TEXT });
  await handle.result();
  const waiting = killPoint(answeredAt, killedAt, performance.now(), undisturbed);
  await standby.stop();

  return {
    resume_after_kill_s: Math.max(streaming.lost_s, waiting.lost_s),
    kill_points: { streaming, waiting },
    heartbeat_timeout_s: durationMs(TRACKING_DEFAULTS.heartbeatTimeout, 'heartbeatTimeout') / 1000,
    undisturbed_s: round(undisturbed, 2),
    replacement_ready_s: round(replacementReady, 2),
    heartbeats: {
      count: heartbeatCount,
      per_s: round(heartbeatCount / lifetime, 2),
      share_of_requests: allRequests ? round(heartbeatCount / allRequests, 3) : 0,
    },
  };
}

function killPoint(answeredAt: number, killedAt: number, doneAt: number, undisturbed: number): KillPointFigures {
  const disturbed = (doneAt - answeredAt) / 1000;
  return {
    lost_s: round(disturbed - undisturbed, 2),
    disturbed_s: round(disturbed, 2),
    killed_after_s: round((killedAt - answeredAt) / 1000, 2),
  };
}

function sum(counts: Record<string, number>): number {
  return Object.values(counts).reduce((a, b) => a + b, 0);
}

/** Seconds from the answer to the result of one undisturbed delegation. */
async function answeredToDone(run: TemporalRun, delays: RemoteDelays): Promise<number> {
  const handle = await startDelegation(run, 'delegate_stream', delays);
  await run.delivery.awaitQuestion(handle);
  const answeredAt = performance.now();
  await handle.signal(answerSignal, { text: ANSWER_TEXT });
  await handle.result();
  return (performance.now() - answeredAt) / 1000;
}
