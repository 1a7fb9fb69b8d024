/**
 * A tracking activity (a stream or poll turn, a tracking round) is retried almost only when the
 * worker that ran its last attempt died or was cut off: its heartbeats stopped. That worker also
 * held the delegation's workflow in its cache, so the workflow task that takes this attempt's
 * result would wait on the dead worker's sticky queue (`STICKY_QUEUE_TIMEOUT`) before any other
 * worker may take it. The new attempt asks the server to forget that sticky queue
 * (`ResetStickyTaskQueue`, what an SDK worker sends for a workflow it evicts), so the task goes to
 * the task queue at once and the surviving worker replays the short history. A failure only costs
 * the sticky queue's wait, and a worker that was alive after all only replays.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { Context, log } from '@temporalio/activity';

/** Longer than this, the sticky queue's own timeout (1 s) has moved the task anyway. */
const TAKEOVER_WAIT_MS = 1_000;

/**
 * On a retried attempt: moves the workflow off the sticky queue of the worker that ran the last
 * one. Resolves once the server took it (at most {@link TAKEOVER_WAIT_MS}); never rejects. Await it
 * before the attempt completes, so the task that takes its result is not scheduled on the sticky
 * queue first.
 */
export function takeOverFromLastAttempt(): Promise<void> {
  const context = Context.current();
  const { attempt, isLocal, workflowExecution, namespace } = context.info;
  if (attempt < 2 || isLocal || !workflowExecution) return Promise.resolve();
  let client: Context['client'];
  try {
    client = context.client;
  } catch {
    return Promise.resolve(); // an activity environment without a client (unit tests)
  }
  const reset = client.workflowService.resetStickyTaskQueue({ namespace, execution: workflowExecution }).then(
    () => undefined,
    (err: unknown) => log.debug('could not reset the sticky task queue', { error: String(err) }),
  );
  return Promise.race([reset, sleep(TAKEOVER_WAIT_MS, undefined, { ref: false })]);
}
