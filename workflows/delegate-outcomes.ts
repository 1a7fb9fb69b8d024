/** The messages a delegation sends and the failures it ends with: pure builders, no I/O. */
import { ActivityFailure, ApplicationFailure, CancelledFailure, TimeoutFailure, uuid4 } from '@temporalio/workflow';
import { TimeoutType } from '@temporalio/common';
import type { Message, Part } from '../a2a/index.js';
import type { TrackOutcome } from '../activities/index.js';
import type { AnswerInput, DelegateInput } from './delegation-types.js';
import { FailureType } from './failure-types.js';

export function firstMessage(input: DelegateInput, contextId: string): Message {
  const parts: Part[] = [...(input.text ? [{ text: input.text } as Part] : []), ...(input.parts ?? [])];
  if (parts.length === 0)
    throw ApplicationFailure.nonRetryable(
      'Nothing to send: give the delegation a text or at least one part.',
      'A2A_EMPTY_MESSAGE',
    );
  return {
    messageId: uuid4(),
    role: 'ROLE_USER',
    contextId,
    parts,
    ...(input.referenceTaskIds?.length ? { referenceTaskIds: input.referenceTaskIds } : {}),
    ...(input.metadata ? { metadata: input.metadata } : {}),
  } as Message;
}

export function answerMessage(answer: AnswerInput, messageId: string, taskId: string, contextId: string): Message {
  return {
    messageId,
    role: 'ROLE_USER',
    taskId,
    contextId,
    parts: [{ text: answer.text } as Part, ...(answer.parts ?? [])],
  } as Message;
}

export function terminalFailure(outcome: TrackOutcome, agent: string, taskId: string): ApplicationFailure {
  const { phase } = outcome;
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

/** Failures as sentences: an unreachable agent names the last error and what to do. */
export function explain(err: unknown, agent: string, unreachableTimeout: string | number): Error {
  if (
    err instanceof ActivityFailure &&
    err.cause instanceof TimeoutFailure &&
    err.cause.timeoutType === TimeoutType.SCHEDULE_TO_CLOSE
  ) {
    const last = err.cause.cause?.message ?? 'no answer';
    return ApplicationFailure.create({
      type: FailureType.agentUnreachable,
      nonRetryable: true,
      message: `Agent "${agent}" could not be reached for ${String(unreachableTimeout)} (last error: ${last}). Start the agent or fix its URL in the agents file, then start the delegation again.`,
    });
  }
  if (err instanceof ActivityFailure && err.cause instanceof ApplicationFailure) return err.cause;
  return err instanceof Error ? err : new Error(String(err));
}

/** The task id a cancelled stream turn had seen (its CancelledFailure carries it in its details). */
export function cancelledTaskId(err: unknown): string | undefined {
  for (let e = err as { cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    if (e instanceof CancelledFailure) {
      const details = e.details[0] as { taskId?: unknown } | undefined;
      if (typeof details?.taskId === 'string' && details.taskId) return details.taskId;
    }
  }
  return undefined;
}
