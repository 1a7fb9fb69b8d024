/**
 * What the two baseline workflows share with `delegate`, so the client treats every Temporal
 * variant the same way: the `status` query and the `answer` signal (same definitions, same
 * `DelegationState` rules), and the same first and answer messages.
 */
import { setHandler, upsertSearchAttributes, uuid4 } from '@temporalio/workflow';
import type { Artifact, Message, Part, Task, TaskState } from '../../a2a/index.js';
import { DelegationState } from '../../workflows/delegate/delegation-state.js';
import type { AnswerInput, DelegateInput } from '../../contract/delegation-types.js';
import { answerSignal, delegationStatusQuery } from '../../contract/messages.js';
import { A2A_TASK_STATE } from '../../contract/search-attributes.js';

/** What a baseline returns: the fields of `DelegateResult` the bench checks. */
export interface BaselineResult {
  taskId: string;
  state: TaskState;
  artifacts: Artifact[];
  rounds: number;
}

/** A delegation state with the `status` query and the `answer` signal wired, as `delegate` does it. */
export function baselineState(input: DelegateInput): DelegationState {
  const state = new DelegationState(input, uuid4());
  setHandler(delegationStatusQuery, () => state.status);
  setHandler(answerSignal, (answer) => {
    if (state.rejectionOf(answer)) return;
    state.accept(answer, answer.answerId ?? uuid4(), uuid4());
  });
  return state;
}

export function firstMessage(input: DelegateInput, contextId: string): Message {
  const parts: Part[] = [...(input.text ? [{ text: input.text } as Part] : []), ...(input.parts ?? [])];
  return {
    messageId: uuid4(),
    role: 'ROLE_USER',
    contextId,
    parts,
    ...(input.metadata ? { metadata: input.metadata } : {}),
  } as Message;
}

export function answerMessage(answer: AnswerInput, messageId: string, task: Task): Message {
  return {
    messageId,
    role: 'ROLE_USER',
    taskId: task.id,
    contextId: task.contextId,
    parts: [{ text: answer.text } as Part],
  } as Message;
}

/**
 * Publishes the agent's question as `delegate` does: phase `waiting-for-input` in the `status`
 * query and `A2aTaskState` in the search attributes (how the bench client finds waiting
 * delegations, whatever the variant).
 */
export function askFrom(state: DelegationState, task: Task, askedAt: Date): void {
  state.adopt(task);
  state.observeState(task.status.state);
  state.ask(
    {
      phase: 'input-required',
      status: { state: task.status.state, messageId: task.status.message?.messageId },
      statusText: (task.status.message?.parts ?? []).map((p) => ('text' in p ? p.text : '')).join('\n'),
    },
    askedAt.toISOString(),
  );
  upsertSearchAttributes([{ key: A2A_TASK_STATE, value: 'TASK_STATE_INPUT_REQUIRED' }]);
}

export function finish(state: DelegationState, task: Task): BaselineResult {
  state.observeState(task.status.state);
  if (task.status.state === 'TASK_STATE_COMPLETED') state.completed();
  else state.failed(`the task ended ${task.status.state}`);
  return { taskId: task.id, state: task.status.state, artifacts: task.artifacts ?? [], rounds: state.status.rounds };
}
