/** Hands a verified push delivery to its delegation as the `taskUpdated` signal. */
import { QueryRejectedError, WorkflowClient, WorkflowNotFoundError, type Client } from '@temporalio/client';
import type { TaskUpdatedNotice } from '../contract/delegation-types.js';
import { localPushAnswer } from '../activities/push-local-state.js';
import { taskUpdatedSignal, taskUpdateWantedQuery } from '../contract/messages.js';

/**
 * What became of a notice: `delivered` when the workflow got the signal, `stale` when the
 * delegation said it would not act on it (nothing was signalled), `later` when it asked for it
 * again after the send or read under way (nothing was signalled yet), `gone` when it no longer runs
 * or the push config ended with its task.
 */
export type NotifyOutcome = 'delivered' | 'stale' | 'later' | 'gone';

/** Hands a notice to its delegation. Throws when Temporal did not take it. See [docs/push.md](../docs/push.md). */
export type PushNotifier = (workflowId: string, notice: TaskUpdatedNotice) => Promise<NotifyOutcome>;

/**
 * How long a signal may take before the delivery is answered 503 (the receiver tries it again
 * later): generous for a loaded server, and within the 10 s a quiet socket is kept.
 */
const SIGNAL_DEADLINE_MS = 8000;

/**
 * How long the receiver waits for the delegation to say whether it wants a notice; past it (the
 * worker is down or busy) the notice is signalled anyway.
 */
const WANTED_DEADLINE_MS = 2000;

/**
 * Signals the workflow's current run (a delegation that continued as new gets it too), after
 * offering the notice to the delegation's `taskUpdateWanted` query: a signal costs a history
 * event and a workflow task, and many deliveries need neither. After an answer agents deliver
 * the task as it was, still showing the question just answered; and a signal that arrives while
 * the workflow task whose read completes the delegation runs fails that task, which then runs
 * again (the read too). So while the delegation sends to or reads the task it answers `later`,
 * and the coalescer asks again after it; a query waits for a workflow task in flight, so it then
 * finds such a delegation closed. Only a plain "no" drops a notice: a query that fails or is late
 * signals it, so nothing is lost to a worker that is down.
 */
export function temporalNotifier(client: Client): PushNotifier {
  // A closed delegation is not asked (the server would replay its history on a worker to answer):
  // the signal then finds it gone.
  const asking = new WorkflowClient({
    connection: client.connection,
    namespace: client.options.namespace,
    dataConverter: client.options.dataConverter,
    identity: client.options.identity,
    queryRejectCondition: 'NOT_OPEN',
  });
  return async (workflowId, notice) => {
    // What an activity of this process knows: it sends to or reads the task (the delegation would
    // say `later`), or it found the task ended (the config ended with it; the delegation ignores it).
    const known = localPushAnswer(workflowId, notice.configId);
    if (known) return known;
    try {
      const wanted = await client
        .withDeadline(Date.now() + WANTED_DEADLINE_MS, () =>
          asking.getHandle(workflowId).query(taskUpdateWantedQuery, notice),
        )
        .catch((err: unknown) => (err instanceof QueryRejectedError ? 'closed' : undefined));
      if (wanted === 'closed') return 'gone';
      if (wanted === 'no') return 'stale';
      if (wanted === 'later') return 'later';
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
