/**
 * The wait for a person's answer to the agent's question, with the optional input deadline.
 * While the task waits for authorization it is also watched: an agent may resume on its own
 * once it is authorized out of band.
 */
import { ApplicationFailure, CancellationScope, condition, isCancellation } from '@temporalio/workflow';
import type { TrackOutcome } from '../../activities/index.js';
import type { AnswerInput } from '../../contract/delegation-types.js';
import { FailureType } from '../../contract/failure-types.js';
import type { ModeContext } from './modes/index.js';
import { inputWait } from './telemetry.js';

/** An answer to send, or the task moved on by itself (authorized out of band). */
export type Reply = { answer: AnswerInput; messageId: string } | { resumedByAgent: TrackOutcome };

export async function waitForAnswer(ctx: ModeContext, watch: () => Promise<TrackOutcome>): Promise<Reply> {
  const wait = inputWait(ctx.input.agent, ctx.state.taskId ?? '', ctx.state.status.rounds + 1);
  try {
    const reply = await replyTo(ctx, watch);
    if ('answer' in reply) wait.end('answered', reply.answer.by);
    else wait.end('resumed-by-agent');
    return reply;
  } catch (err) {
    wait.end(isCancellation(err) ? 'canceled' : 'timeout');
    throw err;
  }
}

async function replyTo(ctx: ModeContext, watch: () => Promise<TrackOutcome>): Promise<Reply> {
  const { state, settings, acts, agent, name, input } = ctx;
  const waiting = new CancellationScope();
  const answered = waiting.run(() =>
    settings.inputTimeoutMs === undefined
      ? condition(() => state.answered).then(() => true)
      : condition(() => state.answered, settings.inputTimeoutMs),
  );
  // An input question is only ever ended by an answer (or the deadline); an auth question also by the agent.
  const watching = state.status.question?.state === 'TASK_STATE_AUTH_REQUIRED' ? waiting.run(watch) : undefined;
  const first = await Promise.race([
    answered.then((ok) => ({ ok })),
    ...(watching ? [watching.then((resumedByAgent) => ({ resumedByAgent }))] : []),
  ]);
  waiting.cancel();
  await Promise.allSettled(watching ? [answered, watching] : [answered]);
  if ('resumedByAgent' in first) return { resumedByAgent: first.resumedByAgent };
  if (first.ok) {
    const { answer, receipt } = state.takeAnswer();
    return { answer, messageId: receipt.messageId };
  }
  // Nobody answered in time: the task must not wait at the agent forever either.
  const taskId = state.taskId!;
  await CancellationScope.nonCancellable(() =>
    acts.cancelTask({ agent, taskId }, `CancelTask ${taskId} at ${name} (no answer in time)`),
  );
  throw ApplicationFailure.create({
    type: FailureType.inputTimeout,
    nonRetryable: true,
    message: `Nobody answered ${name}'s question within ${String(input.inputTimeout)} ("${state.status.question?.text ?? ''}"); the remote task ${taskId} was canceled. Start the delegation again and answer within the deadline, or raise inputTimeout.`,
  });
}
