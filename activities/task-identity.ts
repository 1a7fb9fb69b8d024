/**
 * Whether a task an agent hands us is this delegation's: no cross-talk. An agent that answered
 * delegation B with delegation A's task and context had B adopt both, and cancelling B canceled
 * A's task. A task is adopted only when
 *
 * - its context is the one the delegation sent (every message carries the delegation's own
 *   `contextId`, and A2A has the agent keep it) and does not change while it is followed;
 * - it is the task the delegation named, when it named one (an answer, a follow-up read);
 * - no other delegation on this worker follows it ({@link TaskOwners}).
 *
 * What this cannot see: a task adopted by a delegation on *another* worker process whose context
 * is the same (a caller that continues one conversation from two delegations at once). Different
 * delegations have different contexts unless a caller gives them the same one, so the context
 * check covers every other case across workers.
 */
import { Context } from '@temporalio/activity';
import { InvalidResponseError } from '../a2a/errors.js';

/** What the delegation expects of the task it is handed. */
export interface ExpectedTask {
  /** The task it follows or answered (empty: the agent names it now). */
  taskId?: string;
  /** The context the delegation sent. */
  contextId?: string;
}

/** An id for a message: at most 64 characters, quoted. */
export function quoteId(id: string): string {
  return JSON.stringify(id.length > 64 ? `${id.slice(0, 63)}…` : id);
}

/**
 * Checks a task (or a task event) against what the delegation expects.
 * @throws InvalidResponseError (not retryable) for a task of another context, or another task than the one named.
 */
export function checkTaskIdentity(taskId: string, contextId: string | undefined, expected: ExpectedTask): void {
  if (expected.taskId && taskId !== expected.taskId) {
    throw new InvalidResponseError(
      `The agent answered with task ${quoteId(taskId)} where this delegation follows task ${quoteId(expected.taskId)}; a task is never swapped for another.`,
      { path: 'taskId' },
    );
  }
  if (expected.contextId && contextId && contextId !== expected.contextId) {
    throw new InvalidResponseError(
      `The agent answered with task ${quoteId(taskId)} of context ${quoteId(contextId)}, but this delegation's context is ${quoteId(expected.contextId)}; a task of another conversation is never adopted (it may be another delegation's).`,
      { path: 'contextId' },
    );
  }
}

/** How many tasks the worker remembers (the oldest are forgotten first). */
const DEFAULT_CAPACITY = 10_000;

/**
 * Which delegation (workflow id, the same across continue-as-new) on this worker follows which
 * remote task, by agent interface and task id, with the task's context. One per worker, bounded:
 * a delegation adds one entry per task it follows, the least recently seen are forgotten first.
 */
export class TaskOwners {
  private readonly owners = new Map<string, { workflowId: string; contextId?: string }>();

  constructor(private readonly capacity = DEFAULT_CAPACITY) {}

  /**
   * Records that `workflowId` follows `taskId` at the agent interface `agentUrl`.
   * @throws InvalidResponseError when another delegation on this worker follows that task, or its context changed.
   */
  claim(agentUrl: string, taskId: string, contextId: string | undefined, workflowId: string): void {
    const key = `${agentUrl}\n${taskId}`;
    const known = this.owners.get(key);
    if (known && known.workflowId !== workflowId) {
      throw new InvalidResponseError(
        `The agent answered with task ${quoteId(taskId)}, which another delegation on this worker follows; a task is never shared between delegations, so nothing was done to it.`,
        { path: 'taskId' },
      );
    }
    if (known?.contextId && contextId && known.contextId !== contextId) {
      throw new InvalidResponseError(
        `The agent moved task ${quoteId(taskId)} from context ${quoteId(known.contextId)} to ${quoteId(contextId)}; a task keeps its context, so it is no longer followed.`,
        { path: 'contextId' },
      );
    }
    this.owners.delete(key);
    this.owners.set(key, {
      workflowId,
      ...((contextId ?? known?.contextId) ? { contextId: contextId ?? known?.contextId } : {}),
    });
    if (this.owners.size > this.capacity) this.owners.delete(this.owners.keys().next().value!);
  }

  /** The workflow that follows the task on this worker, if one does. */
  ownerOf(agentUrl: string, taskId: string): string | undefined {
    return this.owners.get(`${agentUrl}\n${taskId}`)?.workflowId;
  }
}

/** The id of the workflow the current activity runs for (the delegation). */
export function currentWorkflowId(): string {
  return Context.current().info.workflowExecution?.workflowId ?? '';
}
