/**
 * The push configs whose delegation is sending to or reading its task in an activity of this
 * process right now. The webhook receiver answers a delivery bound to one of them `later` without
 * asking the delegation: its `taskUpdateWanted` query would say the same (the delegation answers
 * `later` while it sends or reads), and a query is a task of its own on the workflow's queue,
 * which the end of that activity then waits behind.
 *
 * Process-wide on purpose: the receiver and the activities meet here without wiring, whichever
 * worker of the process runs them. A receiver in another process asks the delegation as before.
 * An agent cannot fill it: an entry lives exactly as long as one of our activities.
 */
import { Context } from '@temporalio/activity';

const underWay = new Map<string, number>();
const keyOf = (workflowId: string, configId: string) => `${workflowId}\n${configId}`;

/** Runs `io` (a push delegation's send or read) with its config marked as under way. */
export async function withPushIoUnderWay<T>(configId: string | undefined, io: () => Promise<T>): Promise<T> {
  const workflowId = configId && Context.current().info.workflowExecution?.workflowId;
  if (!configId || !workflowId) return io();
  const key = keyOf(workflowId, configId);
  underWay.set(key, (underWay.get(key) ?? 0) + 1);
  try {
    return await io();
  } finally {
    const left = underWay.get(key)! - 1;
    if (left > 0) underWay.set(key, left);
    else underWay.delete(key);
  }
}

/** Whether an activity of this process sends to or reads the task of this push config now. */
export function pushIoUnderWay(workflowId: string, configId: string | undefined): boolean {
  return configId !== undefined && underWay.has(keyOf(workflowId, configId));
}
