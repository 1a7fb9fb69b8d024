/**
 * Answer delivery for many delegations in flight: ONE visibility list every `intervalMs` finds
 * every delegation of the task queue whose `A2aTaskState` search attribute says it waits for
 * input, and wakes the callers waiting for those ids. Costs one list call per interval however
 * many delegations wait, where per-workflow queries would cost one call each.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Client, WorkflowHandle } from '@temporalio/client';
import type { AnswerDelivery } from './answer-delivery.js';

/** The visibility query of the delegations of `taskQueue` that wait for input. */
export function waitingQuery(taskQueue: string): string {
  return `TaskQueue = "${taskQueue}" AND ExecutionStatus = "Running" AND A2aTaskState = "TASK_STATE_INPUT_REQUIRED"`;
}

export function visibilityListDelivery(client: Client, taskQueue: string, intervalMs: number): AnswerDelivery {
  const waiters = new Map<string, () => void>();
  let loop: Promise<void> | undefined;
  let closed = false;

  const scan = async () => {
    while (waiters.size > 0 && !closed) {
      try {
        for await (const info of client.workflow.list({ query: waitingQuery(taskQueue), pageSize: 1000 })) {
          const wake = waiters.get(info.workflowId);
          if (wake) {
            waiters.delete(info.workflowId);
            wake();
          }
        }
      } catch (err) {
        console.error(`visibility list failed (retrying): ${(err as Error).message}`);
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
