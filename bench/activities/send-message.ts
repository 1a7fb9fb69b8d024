import { Context } from '@temporalio/activity';
import type { Message, Task } from '../../a2a/index.js';
import { asActivity } from '../../activities/failures.js';
import { agentClient, type BaselineDeps } from './agent-client.js';

export interface BaselineSendInput {
  agent: string;
  message: Message;
  /**
   * false: a blocking `SendMessage` that returns when the task is terminal or interrupted (the
   * `blocking_activity` design); true: returns as soon as the task exists (`timer_poll`).
   */
  returnImmediately: boolean;
}

/** Longest blocking call the baseline allows (the activity's start-to-close bounds it anyway). */
const BLOCKING_TIMEOUT_MS = 10 * 60_000;

/** One `SendMessage`; the task comes back without its message history. */
export async function baselineSendMessage(deps: BaselineDeps, input: BaselineSendInput): Promise<Task> {
  return asActivity(input.agent, async () => {
    const { cancellationSignal: signal } = Context.current();
    const client = await agentClient(
      deps,
      input.agent,
      signal,
      input.returnImmediately ? deps.requestTimeoutMs : BLOCKING_TIMEOUT_MS,
    );
    const response = await client.sendMessage(
      { message: input.message, configuration: { returnImmediately: input.returnImmediately, historyLength: 0 } },
      { signal },
    );
    if (!('task' in response)) throw new Error(`${input.agent} answered with a message, not a task`);
    const { history: _history, ...task } = response.task;
    return task;
  });
}
