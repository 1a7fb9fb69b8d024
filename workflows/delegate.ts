/**
 * `delegate`: one remote A2A task, from the first message to a terminal state, with any number
 * of questions in between. Each round sends a message (the request, then each answer), follows
 * the task until it decides, and asks a person when the agent asks. Any workflow can run it as a
 * child (see delegate-child.ts); the release coordinator does.
 */
import * as wf from '@temporalio/workflow';
import type { Message } from '../a2a/index.js';
import type { TrackOutcome } from '../activities/index.js';
import { delegationActivities } from './activity-proxies.js';
import { waitForAnswer } from './answers.js';
import { handleDelegationMessages } from './delegate-handlers.js';
import { answerMessage, endAfterCancel, endAfterFailure, failureCode, firstMessage } from './delegate-outcomes.js';
import { isQuestion, resultOf, terminalFailure } from './delegate-outcomes.js';
import { Deadline } from './deadline.js';
import { DelegationState } from './delegation-state.js';
import type { DelegateInput, DelegateResult, ResolvedAgent } from '../contract/delegation-types.js';
import { DelegationPublisher } from './delegation-ui.js';
import { modeContext, PushNotices, trackingMode, type ModeContext, type TrackingMode } from './modes/index.js';
import { trackingSettings } from './tracking-settings.js';
import { agentLabel } from '../contract/telemetry.js';
import { delegationMetrics } from './telemetry.js';

/** Runs started by 0.1 lack this marker and replay their own commands (`legacy`); deprecate once none is open. */
export const DELEGATE_V2_PATCH = 'a2a-temporal-0.2-delegate';

/** The `delegate` workflow: one remote A2A task, from the message sent to its terminal state, with the questions the agent asks on the way answered through the `answer` update or signal. See [docs/architecture.md](../docs/architecture.md#how-a-delegation-survives-crashes). */
export async function delegate(input: DelegateInput): Promise<DelegateResult> {
  const legacy = !wf.patched(DELEGATE_V2_PATCH);
  const settings = trackingSettings(input);
  const contextId = input.resume?.contextId ?? input.contextId ?? wf.uuid4();
  const ui = new DelegationPublisher(legacy ? undefined : input.resume?.taskId);
  const state = new DelegationState(input, contextId, (status) => ui.publish(status), input.resume, !legacy);
  const notices = new PushNotices();
  handleDelegationMessages(state, notices); // handlers first: a question can be answered as soon as it is asked
  const metrics = delegationMetrics(input.agent);
  if (!input.resume) metrics.started();

  const acts = delegationActivities(settings, legacy);
  const deadline = new Deadline(input, settings);
  let ctx: ModeContext | undefined;
  let mode: TrackingMode | undefined;
  let result: DelegateResult;
  try {
    result = await deadline.run(async () => {
      const resolved =
        input.resume?.resolved ??
        (await acts.resolveAgent({ agent: input.agent }, `Resolve agent ${agentLabel(input.agent)}`));
      ctx = modeContext({ input, state, acts, settings, legacy }, resolved);
      mode = trackingMode(resolved, ctx, notices);
      let outgoing: Message | undefined = input.resume ? undefined : firstMessage(input, contextId);
      let decided: TrackOutcome | undefined;
      for (;;) {
        if (outgoing) {
          const sent = await mode.send(outgoing);
          outgoing = undefined;
          if (sent.kind === 'message') return resultOf(input, state, sent);
          if (sent.outcome.phase !== 'running') decided = sent.outcome;
        }
        state.working();
        const outcome = decided ?? (await followUntilDecided(mode, resolved));
        decided = undefined;
        state.observe(outcome);
        if (outcome.phase === 'completed')
          return mode.close().then(() => resultOf(input, state, { kind: 'task', outcome }));
        if (!isQuestion(outcome)) throw terminalFailure(outcome, state);
        state.ask(outcome, new Date().toISOString());
        const reply = await waitForAnswer(ctx, () => followUntilDecided(mode!, resolved));
        // Authorized out of band, the task may go on without a message.
        if ('resumedByAgent' in reply) decided = reply.resumedByAgent;
        else outgoing = answerMessage(reply.answer, reply.messageId, state);
      }
    });
  } catch (err) {
    if (err instanceof wf.ContinueAsNew) throw err; // the next run follows the same task, with the mode's hold on it
    const failure = wf.isCancellation(err)
      ? await endAfterCancel(state, ctx, mode, err, deadline)
      : await endAfterFailure(state, ctx, mode, err, input);
    metrics.failed(failureCode(failure), state.status.rounds);
    throw failure;
  }
  state.completed();
  metrics.completed(state.status.rounds);
  await wf.condition(wf.allHandlersFinished);
  return result;

  /** Tracking rounds until the task decides: history grows per round only, and continues as new when long. */
  async function followUntilDecided(tracking: TrackingMode, resolved: ResolvedAgent): Promise<TrackOutcome> {
    for (;;) {
      const outcome = await tracking.follow();
      if (outcome.phase !== 'running') return outcome;
      state.observe(outcome);
      if (!legacy) state.announce();
      if (wf.workflowInfo().continueAsNewSuggested) {
        await wf.condition(wf.allHandlersFinished);
        const resume = { resolved, ...state.carried(), ...tracking.carried(), ...deadline.carried() };
        await wf.continueAsNew<typeof delegate>({ ...input, resume });
      }
    }
  }
}
