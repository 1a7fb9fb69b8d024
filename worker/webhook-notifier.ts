/** Hands a verified push delivery to its delegation as the `taskUpdated` signal. */
import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import type { TaskUpdatedNotice } from '../contract/delegation-types.js';
import { taskUpdatedSignal } from '../contract/messages.js';

/** `delivered` when the workflow got the signal, `gone` when it no longer runs. Other failures throw. */
export type PushNotifier = (workflowId: string, notice: TaskUpdatedNotice) => Promise<'delivered' | 'gone'>;

/**
 * How long a signal may take before the delivery is answered 503 (the receiver tries it again
 * later): generous for a loaded server, and within the 10 s a quiet socket is kept.
 */
const SIGNAL_DEADLINE_MS = 8000;

/** Signals the workflow's current run (a delegation that continued as new gets it too). */
export function temporalNotifier(client: Client): PushNotifier {
  return async (workflowId, notice) => {
    try {
      await client.withDeadline(Date.now() + SIGNAL_DEADLINE_MS, () =>
        client.workflow.getHandle(workflowId).signal(taskUpdatedSignal, notice),
      );
      return 'delivered';
    } catch (err) {
      if (err instanceof WorkflowNotFoundError) return 'gone';
      throw err;
    }
  };
}
