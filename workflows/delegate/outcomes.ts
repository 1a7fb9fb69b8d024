/** How a delegation's messages are built and how it ends: results, typed failures, cancellation. */
import { ActivityFailure, ApplicationFailure, CancelledFailure, isCancellation, uuid4 } from '@temporalio/workflow';
import type { Message, Part } from '../../a2a/index.js';
import type { TrackOutcome, TrackProgress } from '../../activities/index.js';
import type { DelegationState } from './delegation-state.js';
import type { AnswerInput, DelegateInput, DelegateResult } from '../../contract/delegation-types.js';
import { FailureType } from '../../contract/failure-types.js';
import { agentLabel } from '../../contract/telemetry.js';
import type { AfterSend } from './modes/index.js';
import { TRACKING_DEFAULTS } from './tracking-settings.js';
import { outOfTime } from './unreachable.js';

export function firstMessage(input: DelegateInput, contextId: string): Message {
  const parts: Part[] = [...(input.text ? [{ text: input.text } as Part] : []), ...(input.parts ?? [])];
  if (parts.length === 0) {
    throw ApplicationFailure.nonRetryable(
      'Nothing to send: give the delegation a text or at least one part.',
      FailureType.emptyMessage,
    );
  }
  return {
    messageId: uuid4(),
    role: 'ROLE_USER',
    contextId,
    parts,
    ...(input.referenceTaskIds?.length ? { referenceTaskIds: input.referenceTaskIds } : {}),
    ...(input.metadata ? { metadata: input.metadata } : {}),
  } as Message;
}

/** The answer to the pending question, on the same task and context. */
export function answerMessage(answer: AnswerInput, messageId: string, state: DelegationState): Message {
  return {
    messageId,
    role: 'ROLE_USER',
    taskId: state.taskId,
    contextId: state.status.contextId,
    parts: [{ text: answer.text } as Part, ...(answer.parts ?? [])],
  } as Message;
}

/** The delegation's result: the agent's direct reply, or the completed task with its assembled artifacts. */
export function resultOf(input: DelegateInput, state: DelegationState, end: AfterSend): DelegateResult {
  const { rounds } = state.status;
  if (end.kind === 'message') {
    const contextId = end.message.contextId ?? state.status.contextId;
    return { agent: input.agent, kind: 'message', contextId, message: end.message, artifacts: [], rounds };
  }
  const { artifacts: _stored, ...task } = end.outcome.task; // stored once: assembled, beside the task
  return {
    agent: input.agent,
    kind: 'task',
    contextId: task.contextId ?? state.status.contextId,
    taskId: state.taskId,
    state: task.status.state,
    task,
    artifacts: end.outcome.artifacts,
    rounds,
  };
}

/** True when the task waits for an answer (input or authorization). */
export function isQuestion(outcome: TrackOutcome): boolean {
  return outcome.phase === 'input-required' || outcome.phase === 'auth-required';
}

/** The agent ended the task without completing it. */
export function terminalFailure(outcome: TrackOutcome, state: DelegationState): ApplicationFailure {
  const { phase } = outcome;
  const { agent } = state.status;
  const taskId = state.taskId!;
  const type =
    phase === 'failed'
      ? FailureType.taskFailed
      : phase === 'rejected'
        ? FailureType.taskRejected
        : FailureType.taskCanceled;
  const verb = phase === 'failed' ? 'failed' : phase === 'rejected' ? 'rejected' : 'canceled';
  return ApplicationFailure.create({
    type,
    nonRetryable: true,
    message: `Agent "${agent}" ${verb} task ${taskId}: ${outcome.statusText || 'it gave no reason'}`,
    details: [
      { taskId, contextId: outcome.task.contextId, state: outcome.task.status.state, agentMessage: outcome.statusText },
    ],
  });
}

/**
 * What a delegation that went wrong throws: a typed failure with one sentence (an unreachable
 * agent names the last error and what to do), never an activity's wrapper.
 */
export function delegationFailure(err: unknown, input: DelegateInput): Error {
  const late = outOfTime(err);
  if (late) {
    const { last } = late;
    const unreachable = input.tracking?.unreachableTimeout ?? TRACKING_DEFAULTS.unreachableTimeout;
    return ApplicationFailure.create({
      type: FailureType.agentUnreachable,
      nonRetryable: true,
      message: `Agent "${agentLabel(input.agent)}" could not be reached within ${String(unreachable)} (last error: ${last}). Start the agent or fix its URL in the agents file, then start the delegation again.`,
    });
  }
  if (err instanceof ActivityFailure && err.cause instanceof ApplicationFailure) return err.cause;
  return err instanceof Error ? err : new Error(String(err));
}

/** The code an ended delegation is counted under in metrics: its failure type, or `CANCELED`. */
export function failureCode(failure: unknown): string {
  if (failure instanceof ApplicationFailure) return failure.type ?? failure.name;
  if (isCancellation(failure)) return 'CANCELED';
  return failure instanceof Error ? failure.name : 'Error';
}

/** Failures after which the remote task is left as it is: the agent ended it, or it was already canceled, or cannot be reached. */
const LEAVE_TASK: ReadonlySet<string> = new Set([
  FailureType.taskFailed,
  FailureType.taskRejected,
  FailureType.taskCanceled,
  FailureType.inputTimeout,
  FailureType.agentUnreachable,
]);
const TERMINAL_STATES: ReadonlySet<string> = new Set([
  'TASK_STATE_COMPLETED',
  'TASK_STATE_FAILED',
  'TASK_STATE_CANCELED',
  'TASK_STATE_REJECTED',
]);

/**
 * True when a delegation that failed with `failure` leaves its task running at the agent (the
 * agent sent something invalid or too large, say): nobody follows it any more, so it is canceled.
 */
export function leavesTaskRunning(failure: Error, state: DelegationState, taskId: string | undefined): boolean {
  const type = failure instanceof ApplicationFailure ? (failure.type ?? '') : '';
  return Boolean(taskId) && !TERMINAL_STATES.has(state.status.state ?? '') && !LEAVE_TASK.has(type);
}

/** The task id a cancelled or failed turn (stream, poll) had seen (its failure carries it in its details). */
export function turnTaskId(err: unknown): string | undefined {
  const taskId = progressIn(err)?.taskId;
  return typeof taskId === 'string' && taskId ? taskId : undefined;
}

/** What a following activity had received when it failed or was cancelled (the details it failed with). */
export function progressIn(err: unknown): TrackProgress | undefined {
  for (let e = err as { cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    if (e instanceof CancelledFailure || e instanceof ApplicationFailure) {
      const details = e.details?.[0] as Partial<TrackProgress> | undefined;
      if (details && typeof details === 'object' && 'taskId' in details) return details as TrackProgress;
    }
  }
  return undefined;
}
