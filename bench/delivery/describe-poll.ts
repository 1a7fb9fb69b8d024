/**
 * Answer delivery for one delegation at a time: the client describes the workflow every
 * `intervalMs` until its `A2aTaskState` search attribute says it waits for input. Describe reads
 * the server's mutable state (no visibility lag) and, unlike a query, never involves the worker.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { WorkflowHandle } from '@temporalio/client';
import { A2A_TASK_STATE } from '../../contract/index.js';
import type { AnswerDelivery } from './answer-delivery.js';

export function describePollDelivery(intervalMs: number): AnswerDelivery {
  return {
    async awaitQuestion(handle: WorkflowHandle) {
      for (;;) {
        const description = await handle.describe();
        if (description.typedSearchAttributes.get(A2A_TASK_STATE) === 'TASK_STATE_INPUT_REQUIRED') return;
        if (description.status.name !== 'RUNNING')
          throw new Error(`${handle.workflowId} ended (${description.status.name}) without asking`);
        await sleep(intervalMs);
      }
    },
    close() {},
  };
}
