import { Context } from '@temporalio/activity';
import type { Task } from '../../a2a/index.js';
import { asActivity } from '../../activities/failures.js';
import { agentClient, type BaselineDeps } from './agent-client.js';

export interface BaselineGetTaskInput {
  agent: string;
  taskId: string;
}

/** One `GetTask` (the `timer_poll` design runs one such activity per poll). */
export async function baselineGetTask(deps: BaselineDeps, input: BaselineGetTaskInput): Promise<Task> {
  return asActivity(input.agent, async () => {
    const { cancellationSignal: signal } = Context.current();
    const client = await agentClient(deps, input.agent, signal);
    return client.getTask({ id: input.taskId, historyLength: 0 }, { signal });
  });
}
