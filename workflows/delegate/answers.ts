/**
 * The wait for a person's answer to the agent's question, with the optional input deadline.
 * While the task waits for authorization it is also watched: an agent may resume on its own
 * once it is authorized out of band. Answers are signals and updates, each a history event: when
 * history grows long the run continues as new, and the question goes on waiting in the next run.
 */
import {
  ApplicationFailure,
  CancellationScope,
  condition,
  ContinueAsNew,
  isCancellation,
  workflowInfo,
} from '@temporalio/workflow';
import type { TrackOutcome } from '../../activities/index.js';
import type { AnswerInput } from '../../contract/delegation-types.js';
import { FailureType } from '../../contract/failure-types.js';
import type { Delegation } from './delegation.js';
import { inputWait } from './telemetry.js';

/** An answer to send, or the task moved on by itself (authorized out of band). */
export type Reply = { answer: AnswerInput; messageId: string } | { resumedByAgent: TrackOutcome };

/** Waits for the answer to the pending question; `watch` follows the task meanwhile (auth questions). */
export function waitForAnswer(run: Delegation, watch: () => Promise<TrackOutcome>): Promise<Reply> {
  const { state, input, settings } = run;
  const question = state.status.question!;
  const wait = inputWait(input.agent, state.taskId ?? '', state.status.rounds + 1, Date.parse(question.askedAt));
  const replied = (reply: Reply): Reply => {
    if ('answer' in reply) wait.end('answered', reply.answer.by);
    else wait.end('resumed-by-agent');
    return reply;
  };
  const failed = (err: unknown): never => {
    wait.end(
      err instanceof ContinueAsNew
        ? 'continued-as-new'
        : isCancellation(err)
          ? 'canceled'
          : err instanceof ApplicationFailure && err.type === FailureType.inputTimeout
            ? 'timeout'
            : 'failed',
    );
    throw err;
  };
  // Not async, and the usual wait (an input question, no input deadline, answered before history
  // grows long) in one reaction: the SDK captures a stack trace for every promise a workflow makes.
  if (question.state !== 'TASK_STATE_AUTH_REQUIRED' && settings.inputTimeoutMs === undefined) {
    return condition(() => wokenFor(run)).then(
      () => (state.answered ? replied(takeReply(run)) : replyTo(run, watch).then(replied, failed)),
      failed,
    );
  }
  return replyTo(run, watch).then(replied, failed);
}

/** Whether the wait for an answer has something to do: an answer came, or history grew long. */
const wokenFor = ({ state }: Delegation) => state.answered || workflowInfo().continueAsNewSuggested;

function takeReply({ state }: Delegation): Reply {
  const { answer, receipt } = state.takeAnswer();
  return { answer, messageId: receipt.messageId };
}

async function replyTo(run: Delegation, watch: () => Promise<TrackOutcome>): Promise<Reply> {
  const { state, settings, input, name } = run;
  const question = state.status.question!;
  // The input deadline counts from the question, also in a run that continued while it waited.
  const deadline =
    settings.inputTimeoutMs === undefined ? undefined : Date.parse(question.askedAt) + settings.inputTimeoutMs;
  const woken = () => wokenFor(run);
  for (;;) {
    const timeoutMs = deadline === undefined ? undefined : Math.max(0, deadline - Date.now());
    // An input question is only ever ended by an answer (or the deadline); an auth question also by the agent.
    const first =
      question.state === 'TASK_STATE_AUTH_REQUIRED'
        ? await answeredOrResumed(woken, timeoutMs, watch)
        : { ok: timeoutMs === undefined ? (await condition(woken), true) : await condition(woken, timeoutMs) };
    if ('resumedByAgent' in first) return { resumedByAgent: first.resumedByAgent };
    if (state.answered) return takeReply(run);
    if (!first.ok) break;
    // History is long: the question goes on waiting in the next run (unless an answer came meanwhile).
    await run.continueAsNewIfSuggested();
  }
  // Nobody answered in time: the task must not wait at the agent forever either.
  const taskId = state.taskId!;
  const canceled = await run.cancelRemoteTask('no answer in time');
  throw ApplicationFailure.create({
    type: FailureType.inputTimeout,
    nonRetryable: true,
    message: `Nobody answered ${name}'s question within ${String(input.inputTimeout)} ("${question.text}"); ${canceled ? `the remote task ${taskId} was canceled` : `canceling the remote task ${taskId} failed (${state.status.remoteCancel})`}. Start the delegation again and answer within the deadline, or raise inputTimeout.`,
  });
}

/** Whether `woken` became true (false: `timeoutMs` passed first). */
function answered(woken: () => boolean, timeoutMs: number | undefined): Promise<boolean> {
  return timeoutMs === undefined ? condition(woken).then(() => true) : condition(woken, timeoutMs);
}

/** The wait of an auth question: the answer (or the deadline), or the task resumed by the agent, whichever comes first; the other is cancelled. */
async function answeredOrResumed(
  woken: () => boolean,
  timeoutMs: number | undefined,
  watch: () => Promise<TrackOutcome>,
): Promise<{ ok: boolean } | { resumedByAgent: TrackOutcome }> {
  const waiting = new CancellationScope();
  const answer = waiting.run(() => answered(woken, timeoutMs));
  const watching = waiting.run(watch);
  const first = await Promise.race([
    answer.then((ok) => ({ ok })),
    watching.then((resumedByAgent) => ({ resumedByAgent })),
  ]);
  waiting.cancel();
  await Promise.allSettled([answer, watching]);
  return first;
}
