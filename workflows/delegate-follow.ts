/**
 * How a delegation follows its task between sending and deciding: tracking rounds (stream or
 * poll, one heartbeating activity each), push mode's read-then-wait loop, the wait for an
 * answer, and continue-as-new between rounds. Called by delegate.ts only.
 */
import {
  allHandlersFinished,
  ApplicationFailure,
  CancellationScope,
  condition,
  continueAsNew,
  workflowInfo,
} from '@temporalio/workflow';
import { msToNumber } from '@temporalio/common/lib/time.js';
import type { TrackOutcome } from '../activities/index.js';
import type { DelegationActivityCalls, TRACKING_DEFAULTS } from './activity-proxies.js';
import type { delegate } from './delegate.js';
import type { DelegationState } from './delegation-state.js';
import type { AgentRef, AnswerInput, DelegateInput, ResolvedAgent, StatusKey } from './delegation-types.js';
import { FailureType } from './failure-types.js';
import type { PushNotices } from './push-mode.js';

/** What the following steps need to know about the delegation. */
export interface TrackContext {
  resolved: ResolvedAgent;
  agent: AgentRef;
  taskId: string;
  mode: 'stream' | 'poll' | 'push';
  handled: StatusKey | undefined;
  tracking: typeof TRACKING_DEFAULTS & DelegateInput['tracking'];
  name: string;
  notices: PushNotices;
  pushConfigId: string | undefined;
}

/** Follows the task by the delegation's mode until it is terminal or asks something new. */
export function followUntilDecided(
  acts: DelegationActivityCalls,
  ctx: TrackContext,
  state: DelegationState,
  input: DelegateInput,
  readFirst = true,
): Promise<TrackOutcome> {
  return ctx.mode === 'push'
    ? waitForPush(acts, ctx, state, input, readFirst)
    : trackUntilDecided(acts, { ...ctx, mode: ctx.mode }, state, input);
}

/** Tracking rounds until the task is terminal or asks something new; history grows per round only. */
async function trackUntilDecided(
  acts: DelegationActivityCalls,
  ctx: TrackContext & { mode: 'stream' | 'poll' },
  state: DelegationState,
  input: DelegateInput,
): Promise<TrackOutcome> {
  for (;;) {
    const outcome = await acts.trackTask(
      {
        agent: ctx.agent,
        taskId: ctx.taskId,
        mode: ctx.mode,
        handled: ctx.handled,
        roundMs: msToNumber(ctx.tracking.roundTimeout),
        pollInitialMs: msToNumber(ctx.tracking.pollInitialInterval),
        pollMaxMs: msToNumber(ctx.tracking.pollMaxInterval),
      },
      `Track task ${ctx.taskId} at ${ctx.name} (${ctx.mode})`,
    );
    if (outcome.phase !== 'running') return outcome;
    state.status.state = outcome.task.status.state;
    state.status.artifacts = outcome.artifacts;
    await continueAsNewIfSuggested(ctx, state, input);
  }
}

/**
 * Push mode: read the task (`GetTask`), and while nothing is decided wait for a `taskUpdated`
 * notice or the safety-net timer, then read again. No activity runs while it waits; each wake-up
 * adds one short activity (and the signal) to history.
 */
async function waitForPush(
  acts: DelegationActivityCalls,
  ctx: TrackContext,
  state: DelegationState,
  input: DelegateInput,
  readFirst: boolean,
): Promise<TrackOutcome> {
  if (!readFirst) await condition(() => ctx.notices.pending, ctx.tracking.pushSafetyNetInterval);
  for (;;) {
    ctx.notices.clear();
    const outcome = await acts.getTask(
      { agent: ctx.agent, taskId: ctx.taskId, handled: ctx.handled },
      `GetTask ${ctx.taskId} at ${ctx.name} (push)`,
    );
    if (outcome.phase !== 'running') return outcome;
    state.status.state = outcome.task.status.state; // artifacts stay as they were: a running read leaves them out
    await continueAsNewIfSuggested(ctx, state, input);
    await condition(() => ctx.notices.pending, ctx.tracking.pushSafetyNetInterval);
  }
}

/** Continues as new between rounds when the history grew long; the next run follows the same task. */
async function continueAsNewIfSuggested(
  ctx: TrackContext,
  state: DelegationState,
  input: DelegateInput,
): Promise<void> {
  if (!workflowInfo().continueAsNewSuggested) return;
  await condition(allHandlersFinished);
  await continueAsNew<typeof delegate>({
    ...input,
    resume: {
      resolved: ctx.resolved,
      taskId: ctx.taskId,
      contextId: state.status.contextId,
      rounds: state.status.rounds,
      handled: ctx.handled,
      ...(ctx.pushConfigId ? { pushConfigId: ctx.pushConfigId } : {}),
    },
  });
}

/**
 * Waits for the answer (with the optional input deadline). While the task waits for
 * authorization, it is also watched: an agent may resume on its own once it is authorized.
 */
export async function waitForAnswer(
  acts: DelegationActivityCalls,
  state: DelegationState,
  input: DelegateInput,
  ctx: TrackContext,
): Promise<{ answer: AnswerInput; messageId: string } | { moved: TrackOutcome }> {
  const waiting = new CancellationScope();
  const answered = waiting.run(async () => {
    if (input.inputTimeout === undefined) {
      await condition(() => state.answered);
      return true;
    }
    return condition(() => state.answered, input.inputTimeout);
  });
  // An input question is only ever ended by an answer (or the deadline); an auth question also by the agent.
  const watching =
    state.status.question?.state === 'TASK_STATE_AUTH_REQUIRED'
      ? waiting.run(() => followUntilDecided(acts, ctx, state, input))
      : undefined;
  const first = await Promise.race([
    answered.then((ok) => ({ ok })),
    ...(watching ? [watching.then((moved) => ({ moved }))] : []),
  ]);
  waiting.cancel();
  await Promise.allSettled(watching ? [answered, watching] : [answered]);
  if ('moved' in first) return { moved: first.moved };
  if (!first.ok) {
    const question = state.status.question;
    await CancellationScope.nonCancellable(() =>
      acts.cancelTask(
        { agent: ctx.agent, taskId: ctx.taskId },
        `CancelTask ${ctx.taskId} at ${ctx.name} (no answer in time)`,
      ),
    );
    throw ApplicationFailure.create({
      type: FailureType.inputTimeout,
      nonRetryable: true,
      message: `Nobody answered ${ctx.name}'s question within ${String(input.inputTimeout)} ("${question?.text ?? ''}"); the remote task ${ctx.taskId} was canceled. Start the delegation again and answer within the deadline, or raise inputTimeout.`,
    });
  }
  const { answer, receipt } = state.takeAnswer();
  return { answer, messageId: receipt.messageId };
}
