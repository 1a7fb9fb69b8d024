/**
 * Answer delivery for many delegations in flight: every `intervalMs`, one visibility list (per
 * {@link IDS_PER_LIST} awaited) finds which of the delegations still awaited have an
 * `A2aTaskState` saying they wait for input, and wakes their callers. Each delegation is listed
 * about once, so delivery costs a variant the same however slowly it runs (bench/README.md,
 * "The same answer path").
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
function awaitedWaitingQuery(taskQueue: string, workflowIds: readonly string[]): string {
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
