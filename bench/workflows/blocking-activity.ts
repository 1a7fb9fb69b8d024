/**
 * `blocking_activity`: the design most people write first. One activity makes a blocking
 * `SendMessage` (it returns when the task is interrupted or done); the answer comes by signal;
 * a second blocking call carries it. No streaming, no heartbeats: a worker crash re-sends the
 * whole call after its start-to-close timeout.
 */
import { condition, proxyActivities } from '@temporalio/workflow';
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

const { baselineSendMessage } = proxyActivities<BaselineActivities>({
  startToCloseTimeout: '10 minutes',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds' },
});

export async function blockingActivity(input: DelegateInput): Promise<BaselineResult> {
  const state = baselineState(input);
  state.sending();
  let task: Task = await baselineSendMessage({
    agent: input.agent,
    message: firstMessage(input, state.status.contextId),
    returnImmediately: false,
  });
  while (task.status.state === 'TASK_STATE_INPUT_REQUIRED') {
    askFrom(state, task, new Date());
    await condition(() => state.answered);
    const { answer, receipt } = state.takeAnswer();
    task = await baselineSendMessage({
      agent: input.agent,
      message: answerMessage(answer, receipt.messageId, task),
      returnImmediately: false,
    });
  }
  return finish(state, task);
}
