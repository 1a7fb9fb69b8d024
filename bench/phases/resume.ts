/**
 * `resume_after_kill_s`: a streaming delegation's worker is SIGKILLed while the report streams;
 * a new worker process is started at once. The figure is the time from the answer to the result
 * minus the same time for an undisturbed delegation on the same worker setup.
 */
import { durationMs } from '../../contract/durations.js';
import { trackingProgress } from '../../client/tracking-progress.js';
import { TRACKING_DEFAULTS } from '../../workflows/delegate/tracking-settings.js';
import { answerSignal } from '../../contract/index.js';
import type { BenchEnv } from '../bench-env.js';
import type { AnswerDelivery } from '../delivery/answer-delivery.js';
import { round } from '../stats.js';
import { startDelegation, temporalDelegation, type TemporalRun } from '../variants/temporal.js';
import { ANSWER_TEXT, type RemoteDelays } from '../scenario.js';
import { waitFor } from '../../test/helpers/wait.js';

export interface ResumeFigures {
  resume_after_kill_s: number;
  /** The tracking activity's heartbeat timeout (the target is this + 2 s). */
  heartbeat_timeout_s: number;
  /** Answer → result, undisturbed and with the kill. */
  undisturbed_s: number;
  disturbed_s: number;
  /** Answer → SIGKILL, and SIGKILL → the new worker polling. */
  killed_after_s: number;
  replacement_ready_s: number;
}

export async function measureResume(
  env: BenchEnv,
  delivery: (taskQueue: string) => AnswerDelivery,
  chunkDelayMs: number,
): Promise<ResumeFigures> {
  const taskQueue = `bench-resume-${process.pid}`;
  const doomed = await env.spawnWorker(taskQueue);
  const run: TemporalRun = { client: env.client, taskQueue, delivery: delivery(taskQueue) };
  const delays: RemoteDelays = { workDelayMs: 0, chunkDelayMs };
  await temporalDelegation(run, 'delegate_stream'); // warm-up: card cached, code loaded

  const undisturbed = await answeredToDone(run, delays);

  const handle = await startDelegation(run, 'delegate_stream', delays);
  await run.delivery.awaitQuestion(handle);
  const answeredAt = performance.now();
  await handle.signal(answerSignal, { text: ANSWER_TEXT });
  // In flight: the second round's tracking activity has heartbeated what the stream brought.
  await waitFor(async () => (await trackingProgress(handle))?.state === 'TASK_STATE_WORKING', {
    timeoutMs: 30_000,
    intervalMs: 20,
    what: 'the report stream',
  });
  const killedAt = performance.now();
  await doomed.kill('SIGKILL');
  const rescuer = await env.spawnWorker(taskQueue);
  const readyAt = performance.now();
  await handle.result();
  const doneAt = performance.now();
  await rescuer.stop();

  const disturbed = (doneAt - answeredAt) / 1000;
  return {
    resume_after_kill_s: round(disturbed - undisturbed, 2),
    heartbeat_timeout_s: durationMs(TRACKING_DEFAULTS.heartbeatTimeout, 'heartbeatTimeout') / 1000,
    undisturbed_s: round(undisturbed, 2),
    disturbed_s: round(disturbed, 2),
    killed_after_s: round((killedAt - answeredAt) / 1000, 2),
    replacement_ready_s: round((readyAt - killedAt) / 1000, 2),
  };
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
