import { Context } from '@temporalio/activity';
import { TaskNotCancelableError, TaskNotFoundError, type Message, type Task } from '../a2a/index.js';
import type { AgentRef } from '../workflows/delegation-types.js';
import { clientFor, type ActivityDeps } from './deps.js';
import { asActivity } from './failures.js';
import { whileHeartbeating } from './heartbeat.js';
import { withinPayloadLimit } from './payload-limit.js';
import { findSentTask } from './send-message.js';
import { withoutHistory } from './task-view.js';

export interface CancelTaskInput {
  agent: AgentRef;
  /** The task to cancel; when unknown (a stream turn cancelled before the agent named it), `sent` finds it. */
  taskId?: string;
  /** The message whose task is to be canceled, looked up by its id. */
  sent?: Message;
}

/**
 * `CancelTask`, idempotent: a task that already ended is returned as it is, an unknown task
 * gives `undefined`. Runs from the workflow's non-cancellable scope when the delegation is cancelled.
 */
export async function cancelTask(
  deps: ActivityDeps,
  { agent, taskId, sent }: CancelTaskInput,
): Promise<Task | undefined> {
  return asActivity(agent.name, () =>
    whileHeartbeating(async () => {
      const client = clientFor(deps, agent);
      const signal = Context.current().cancellationSignal;
      const id = taskId ?? (sent ? (await findSentTask(client, sent, signal))?.id : undefined);
      if (!id) return undefined;
      try {
        return withinPayloadLimit(withoutArtifacts(await client.cancelTask({ id }, { signal })), agent.name, id);
      } catch (err) {
        if (err instanceof TaskNotFoundError) return undefined;
        if (err instanceof TaskNotCancelableError) {
          return withoutArtifacts(await client.getTask({ id, historyLength: 0 }, { signal }));
        }
        throw err;
      }
    }),
  );
}

/** The workflow needs the task's final state, not its content. */
function withoutArtifacts(task: Task): Task {
  const { artifacts: _artifacts, ...rest } = withoutHistory(task);
  return rest;
}
