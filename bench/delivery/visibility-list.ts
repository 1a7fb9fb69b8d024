/**
 * Answer delivery for many delegations in flight: every `intervalMs`, visibility lists which of
 * the delegations still awaited (by workflow id, at most {@link IDS_PER_LIST} per call) have an
 * `A2aTaskState` search attribute saying they wait for input, and wakes their callers. Costs one
 * list call per interval (per {@link IDS_PER_LIST} awaited) however many wait, where per-workflow
 * queries would cost one call each, and lists each delegation about once: a list of every
 * waiting delegation of the task queue returned the ones already answered again and again (a
 * baseline's state stays INPUT_REQUIRED until it ends, ours until the answer's upsert is
 * visible), and the dev server spends about 0.5 ms of CPU per row listed (109 ms for a list of
 * 200), so a variant slowed by load paid more for delivery the slower it went.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Client, WorkflowHandle } from '@temporalio/client';
import type { AnswerDelivery } from './answer-delivery.js';

/** The visibility query of the delegations of `taskQueue` that wait for input. */
export function waitingQuery(taskQueue: string): string {
  return `TaskQueue = "${taskQueue}" AND ExecutionStatus = "Running" AND A2aTaskState = "TASK_STATE_INPUT_REQUIRED"`;
}

/** The most workflow ids one list call names. */
const IDS_PER_LIST = 200;

/** {@link waitingQuery}, narrowed to `workflowIds` (the bench's own ids: no quoting needed). */
export function awaitedWaitingQuery(taskQueue: string, workflowIds: readonly string[]): string {
  return `${waitingQuery(taskQueue)} AND WorkflowId IN (${workflowIds.map((id) => `"${id}"`).join(', ')})`;
}

export function visibilityListDelivery(client: Client, taskQueue: string, intervalMs: number): AnswerDelivery {
  const waiters = new Map<string, () => void>();
  let loop: Promise<void> | undefined;
  let closed = false;

  const scan = async () => {
    while (waiters.size > 0 && !closed) {
      const awaited = [...waiters.keys()];
      for (let from = 0; from < awaited.length; from += IDS_PER_LIST) {
        try {
          const query = awaitedWaitingQuery(taskQueue, awaited.slice(from, from + IDS_PER_LIST));
          for await (const info of client.workflow.list({ query, pageSize: IDS_PER_LIST })) {
            const wake = waiters.get(info.workflowId);
            if (wake) {
              waiters.delete(info.workflowId);
              wake();
            }
          }
        } catch (err) {
          console.error(`visibility list failed (retrying): ${(err as Error).message}`);
        }
      }
      if (waiters.size > 0) await sleep(intervalMs);
    }
    loop = undefined;
  };

  return {
    awaitQuestion(handle: WorkflowHandle) {
      const asked = new Promise<void>((resolve) => waiters.set(handle.workflowId, resolve));
      loop ??= scan();
      return asked;
    },
    close() {
      closed = true;
    },
  };
}
