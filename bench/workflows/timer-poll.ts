/**
 * `timer_poll`: the other common first design. `SendMessage` with `returnImmediately`, then one
 * short activity per `GetTask` with a workflow timer between polls. Its pauses follow the
 * product's poll mode (200 ms, growing 1.5x while nothing changes, capped at 5 s), so the two
 * differ only in where the loop runs: here every poll is two activity-task round trips and a
 * timer in history; in `delegate`'s poll mode it is one heartbeating activity.
 */
import { condition, proxyActivities, sleep } from '@temporalio/workflow';
import type { Task } from '../../a2a/index.js';
import type { DelegateInput } from '../../contract/delegation-types.js';
import type { BaselineActivities } from '../activities/index.js';
import {
  answerMessage,
  askFrom,
  baselineState,
  finish,
  firstMessage,
  type BaselineResult,
} from './baseline-support.js';

const POLL_INITIAL_MS = 200;
const POLL_MAX_MS = 5_000;

const { baselineSendMessage, baselineGetTask } = proxyActivities<BaselineActivities>({
  startToCloseTimeout: '40 seconds',
  retry: { initialInterval: '500 milliseconds', backoffCoefficient: 2, maximumInterval: '10 seconds' },
});

const TERMINAL = new Set(['TASK_STATE_COMPLETED', 'TASK_STATE_FAILED', 'TASK_STATE_CANCELED', 'TASK_STATE_REJECTED']);

export async function timerPoll(input: DelegateInput): Promise<BaselineResult> {
  const state = baselineState(input);
  state.sending();
  let task = await baselineSendMessage({
    agent: input.agent,
    message: firstMessage(input, state.status.contextId),
    returnImmediately: true,
  });
  let answered: string | undefined; // the status message id of the question already answered
  for (;;) {
    state.working();
    task = await pollUntilDecided(input.agent, task.id, answered);
    if (task.status.state !== 'TASK_STATE_INPUT_REQUIRED') return finish(state, task);
    askFrom(state, task, new Date());
    await condition(() => state.answered);
    const { answer, receipt } = state.takeAnswer();
    answered = task.status.message?.messageId;
    await baselineSendMessage({
      agent: input.agent,
      message: answerMessage(answer, receipt.messageId, task),
      returnImmediately: true,
    });
  }
}

async function pollUntilDecided(agent: string, taskId: string, answered: string | undefined): Promise<Task> {
  let pause = POLL_INITIAL_MS;
  let seen = '';
  for (;;) {
    const task = await baselineGetTask({ agent, taskId });
    const { state, message } = task.status;
    if (TERMINAL.has(state)) return task;
    if (state === 'TASK_STATE_INPUT_REQUIRED' && message?.messageId !== answered) return task;
    const now = `${state}|${task.status.timestamp}|${(task.artifacts ?? []).map((a) => a.parts.length).join(',')}`;
    pause = now !== seen ? POLL_INITIAL_MS : Math.min(pause * 1.5, POLL_MAX_MS);
    seen = now;
    await sleep(pause);
  }
}
