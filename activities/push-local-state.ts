/**
 * What the push activities of this process know about a push config that the webhook receiver
 * of the same process can answer a delivery with, without asking the delegation:
 *
 * - under way: an activity sends to or reads the config's task right now. The delegation would
 *   answer its `taskUpdateWanted` query `later`, and a query is a task of its own on the
 *   workflow's queue, which the end of that activity would wait behind.
 * - gone: a send or read found the config's task ended. The config ended with it (A2A) and the
 *   delegation, which has read the task's last state, ignores it from then on: deliveries bound to
 *   it are answered 410, as for a delegation that has ended. The deliveries an agent sends as its
 *   task ends would otherwise be asked about while the delegation completes.
 *
 * Process-wide on purpose: the receiver and the activities meet here without wiring, whichever
 * worker of the process runs them. A receiver in another process asks the delegation as before.
 * An agent cannot fill it: entries are made by our activities only, and the ended ones are few and
 * bounded.
 */
import { Context } from '@temporalio/activity';
import { LRUCache } from 'lru-cache';

/** What the receiver may answer for a config without asking: `later`, or `gone` once its task ended. */
export type LocalPushAnswer = 'later' | 'gone';

const underWay = new Map<string, number>();
const ended = new LRUCache<string, true>({ max: 10_000, ttl: 10 * 60_000 });
const keyOf = (workflowId: string, configId: string) => `${workflowId}\n${configId}`;

/**
 * Runs `io` (a push delegation's send or read of the task of `configId`) with the config marked
 * under way; `endsTask(result)` says whether it found that task ended.
 */
export async function withPushIo<T>(
  configId: string | undefined,
  io: () => Promise<T>,
  endsTask: (result: T) => boolean,
): Promise<T> {
  const workflowId = configId && Context.current().info.workflowExecution?.workflowId;
  if (!configId || !workflowId) return io();
  const key = keyOf(workflowId, configId);
  underWay.set(key, (underWay.get(key) ?? 0) + 1);
  try {
    const result = await io();
    if (endsTask(result)) ended.set(key, true);
    return result;
  } finally {
    const left = underWay.get(key)! - 1;
    if (left > 0) underWay.set(key, left);
    else underWay.delete(key);
  }
}

/** The answer to a delivery for this config that this process knows without asking the delegation. */
export function localPushAnswer(workflowId: string, configId: string | undefined): LocalPushAnswer | undefined {
  if (configId === undefined) return undefined;
  const key = keyOf(workflowId, configId);
  if (ended.has(key)) return 'gone';
  return underWay.has(key) ? 'later' : undefined;
}
