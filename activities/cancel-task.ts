import { Context, log } from '@temporalio/activity';
import { type A2AClient, type Message, type Task } from '../a2a/index.js';
import { TaskNotCancelableError, TaskNotFoundError } from '../a2a/errors.js';
import type { AgentTarget } from '../contract/delegation-types.js';
import { clientFor, type ActivityDeps } from './deps.js';
import { asActivity } from './failures.js';
import { whileHeartbeating } from './heartbeat.js';
import { withinPayloadLimit } from './payload-limit.js';
import { resolveCard } from './resolve-agent.js';
import { findSentTask } from './send-message.js';
import { checkTaskIdentity, currentWorkflowId } from './task-identity.js';
import { withoutHistory } from './task-view.js';

export interface CancelTaskInput {
  /** By name only when the delegation's first turn was cancelled before it said what it resolved. */
  agent: AgentTarget;
  /** The task to cancel; when unknown (a turn cancelled before the agent named it), `sent` finds it. */
  taskId?: string;
  /** The message whose task is to be canceled, looked up by its id. */
  sent?: Message;
}

/**
 * `CancelTask`, idempotent: a task that already ended is returned as it is, an unknown task
 * gives `undefined`. Runs from the workflow's non-cancellable scope when the delegation is cancelled.
 * Never cancels a task another delegation on this worker follows (see task-identity.ts), and an
 * answer about another task than the one canceled is an invalid response.
 */
export async function cancelTask(
  deps: ActivityDeps,
  { agent, taskId, sent }: CancelTaskInput,
): Promise<Task | undefined> {
  return asActivity(agent.name, () =>
    whileHeartbeating(async () => {
      const signal = Context.current().cancellationSignal;
      const endpoint = agent.endpoint ?? (await resolveCard(deps, agent.name, signal)).endpoint;
      const client = await clientFor(deps, { name: agent.name, endpoint });
      const id = taskId ?? (sent ? await lookUp(client, sent, signal) : undefined);
      if (!id) return undefined;
      const owner = deps.owners.ownerOf(endpoint.url, id);
      if (owner !== undefined && owner !== currentWorkflowId()) {
        log.warn('not canceling a task another delegation on this worker follows', { taskId: id });
        return undefined;
      }
      try {
        const task = await client.cancelTask({ id }, { signal });
        checkTaskIdentity(task.id, task.contextId, { taskId: id });
        return withinPayloadLimit(withoutArtifacts(task), agent.name, `task ${id}`);
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

/** How long a cancellation looks for the task of a message the agent had not acknowledged yet. */
const LOOKUP_MS = 15_000;

/**
 * The task `sent` created. An agent slow to acknowledge may create it only after we stopped
 * listening, so it is looked for again for a while before we conclude there is none.
 */
async function lookUp(client: A2AClient, sent: Message, signal: AbortSignal): Promise<string | undefined> {
  const until = Date.now() + LOOKUP_MS;
  for (let pause = 250; ; pause = Math.min(pause * 2, 2_000)) {
    const found = await findSentTask(client, sent, signal);
    if (found || Date.now() + pause > until) return found?.id;
    await Context.current().sleep(pause);
  }
}

/** The workflow needs the task's final state, not its content. */
function withoutArtifacts(task: Task): Task {
  const { artifacts: _artifacts, ...rest } = withoutHistory(task);
  return rest;
}
