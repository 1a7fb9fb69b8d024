import { Context } from '@temporalio/activity';
import { TaskNotCancelableError, TaskNotFoundError, type Task } from '../a2a/index.js';
import type { AgentRef } from '../workflows/delegation-types.js';
import { clientFor, type ActivityDeps } from './deps.js';
import { asActivity } from './failures.js';
import { withoutHistory } from './task-view.js';

export interface CancelTaskInput {
  agent: AgentRef;
  taskId: string;
}

/**
 * `CancelTask`, idempotent: a task that already ended is returned as it is, an unknown task
 * gives `undefined`. Runs from the workflow's non-cancellable scope when the delegation is cancelled.
 */
export async function cancelTask(deps: ActivityDeps, { agent, taskId }: CancelTaskInput): Promise<Task | undefined> {
  return asActivity(agent.name, async () => {
    const client = clientFor(deps, agent);
    const signal = Context.current().cancellationSignal;
    try {
      return withoutHistory(await client.cancelTask({ id: taskId }, { signal }));
    } catch (err) {
      if (err instanceof TaskNotFoundError) return undefined;
      if (err instanceof TaskNotCancelableError)
        return withoutHistory(await client.getTask({ id: taskId, historyLength: 0 }, { signal }));
      throw err;
    }
  });
}
