/**
 * `delegate`: one remote A2A task, from the first message to a terminal state, with any number
 * of input-required rounds in between. Any workflow can run it as a child (see
 * delegate-child.ts); the release coordinator does.
 */
import {
  allHandlersFinished,
  CancellationScope,
  condition,
  ContinueAsNew,
  currentUpdateInfo,
  isCancellation,
  log,
  setHandler,
  uuid4,
} from '@temporalio/workflow';
import { msToNumber } from '@temporalio/common/lib/time.js';
import type { Message, Task } from '../a2a/index.js';
import type { TrackOutcome } from '../activities/index.js';
import { delegationActivities, TRACKING_DEFAULTS } from './activity-proxies.js';
import { followUntilDecided, waitForAnswer, type TrackContext } from './delegate-follow.js';
import { answerMessage, cancelledTaskId, explain, firstMessage, terminalFailure } from './delegate-outcomes.js';
import { DelegationState } from './delegation-state.js';
import type { AgentRef, DelegateInput, DelegateResult, StatusKey } from './delegation-types.js';
import { DelegationPublisher } from './delegation-ui.js';
import { answerSignal, answerUpdate, delegationStatusQuery, taskUpdatedSignal } from './messages.js';
import { PushNotices, pushUnavailable, stillOnIt } from './push-mode.js';

export async function delegate(input: DelegateInput): Promise<DelegateResult> {
  // Read by the taskUpdated handler, which may run as soon as it is set (buffered signals).
  let taskId = input.resume?.taskId;
  let handled: StatusKey | undefined = input.resume?.handled;
  const contextId = input.resume?.contextId ?? input.contextId ?? uuid4();
  const state = new DelegationState(input, contextId);
  const ui = new DelegationPublisher();
  const publish = () => ui.publish(state.status);
  state.status.rounds = input.resume?.rounds ?? 0;

  // Handlers first: a question can be answered as soon as it is published.
  setHandler(delegationStatusQuery, () => state.status);
  setHandler(
    answerUpdate,
    (answer) => {
      const receipt = state.accept(answer, answer.answerId ?? currentUpdateInfo()?.id ?? uuid4(), uuid4());
      publish();
      return receipt;
    },
    {
      validator: (answer) => {
        const why = state.rejectionOf(answer);
        if (why) throw new Error(why);
      },
    },
  );
  const notices = new PushNotices();
  setHandler(taskUpdatedSignal, (notice) => {
    if (!notices.receive(notice, taskId, handled))
      log.debug('taskUpdated ignored: another task, or the question already answered', { taskId: notice?.taskId });
  });
  setHandler(answerSignal, (answer) => {
    const why = state.rejectionOf(answer);
    if (why) {
      log.warn('answer signal ignored', { reason: why });
      return;
    }
    state.accept(answer, answer.answerId ?? uuid4(), uuid4());
    publish();
  });

  const acts = delegationActivities(input.tracking);
  const tracking = { ...TRACKING_DEFAULTS, ...input.tracking };
  const name = input.label ?? input.agent;
  let agent: AgentRef | undefined;
  /** Push mode: the config registered at the agent, deleted when the task ends. */
  let push: { taskId: string; configId: string } | undefined =
    input.resume?.pushConfigId && input.resume.taskId
      ? { taskId: input.resume.taskId, configId: input.resume.pushConfigId }
      : undefined;
  const releasePush = async () => {
    if (!push || !agent) return;
    const { taskId: id, configId } = push;
    const ref = agent;
    push = undefined;
    try {
      await CancellationScope.nonCancellable(() =>
        acts.deletePushConfig({ agent: ref, taskId: id, configId }, `Delete push config of task ${id} at ${name}`),
      );
    } catch (err) {
      log.warn('could not delete the push config; the agent may go on delivering to a receiver that answers 410', {
        taskId: id,
        configId,
        error: String(err),
      });
    }
  };

  /** Ends the delegation as completed, once the update handlers have finished. */
  const complete = async () => {
    state.setPhase('completed');
    publish();
    await condition(allHandlersFinished);
  };
  /** A direct Message reply instead of a task is the delegation's result. */
  const messageResult = async (message: Message): Promise<DelegateResult> => {
    await complete();
    return {
      agent: input.agent,
      kind: 'message',
      contextId: message.contextId ?? contextId,
      message,
      artifacts: [],
      rounds: state.status.rounds,
    };
  };
  /** Shows the task the agent created (or continued) for our message; returns its id. */
  const adoptTask = (task: Task): string => {
    state.status.taskId = task.id;
    state.status.contextId = task.contextId ?? state.status.contextId;
    return task.id;
  };

  try {
    const resolved =
      input.resume?.resolved ?? (await acts.resolveAgent({ agent: input.agent }, `Resolve agent ${input.agent}`));
    const mode = !input.mode || input.mode === 'auto' ? resolved.autoMode : input.mode;
    if (input.mode === 'push') {
      const unavailable = pushUnavailable(resolved, input.agent);
      if (unavailable) throw unavailable;
    }
    agent = { name: resolved.name, endpoint: resolved.endpoint };
    state.status.mode = mode;

    let outgoing: Message | undefined = input.resume ? undefined : firstMessage(input, contextId);
    /** Push mode: read the task before waiting (false right after an answer the agent is still working on). */
    let readFirst = true;
    let next: TrackOutcome | undefined;
    const rounds = {
      roundMs: msToNumber(tracking.roundTimeout),
      pollInitialMs: msToNumber(tracking.pollInitialInterval),
      pollMaxMs: msToNumber(tracking.pollMaxInterval),
    };
    for (;;) {
      if (outgoing && mode === 'stream') {
        // One activity sends and follows the reply stream (cancellable: on cancel its failure
        // carries the task id, so the task can still be canceled at the agent).
        state.setPhase('working');
        publish();
        const message = outgoing;
        outgoing = undefined;
        const turn = await acts.streamMessage(
          { agent, message, acceptedOutputModes: input.acceptedOutputModes, handled, ...rounds },
          `SendStreamingMessage to ${name}`,
        );
        if (turn.kind === 'message') return await messageResult(turn.message);
        taskId = adoptTask(turn.task);
        const { kind: _kind, ...outcome } = turn;
        next = outcome.phase === 'running' ? undefined : outcome; // still running at the round's end: tracking rounds go on
      } else if (outgoing) {
        state.setPhase('sending');
        publish();
        const message = outgoing;
        notices.clear(); // from here on, a delivery is about this message
        // Never cancelled half-way: we must learn the task id of what we sent, to cancel it.
        const sent = await CancellationScope.nonCancellable(() =>
          acts.sendMessage(
            { agent: agent!, message, acceptedOutputModes: input.acceptedOutputModes },
            `SendMessage to ${name}`,
          ),
        );
        outgoing = undefined;
        if (sent.kind === 'message') return await messageResult(sent.message);
        taskId = adoptTask(sent.task);
        state.status.state = sent.task.status.state;
        // After an answer, the config is in place: a delivery will say when the task moves on.
        readFirst = mode !== 'push' || push?.taskId !== taskId || !stillOnIt(sent.task.status, handled);
        if (mode === 'push' && push?.taskId !== taskId) {
          // Registered after the send: the task id (part of the credential) is known only now.
          // The first read comes after the registration, so nothing the agent did before is missed.
          await releasePush();
          const registration = { taskId, configId: uuid4() };
          push = registration;
          const ref = agent;
          await CancellationScope.nonCancellable(async () => {
            try {
              await acts.registerPushConfig(
                { agent: ref, ...registration },
                `Register push config for task ${registration.taskId} at ${name}`,
              );
            } catch (err) {
              // Nobody could follow the task: do not leave it running at the agent.
              await acts
                .cancelTask(
                  { agent: ref, taskId: registration.taskId },
                  `CancelTask ${registration.taskId} at ${name} (push config refused)`,
                )
                .catch(() => undefined);
              throw err;
            }
          });
        }
      }

      state.setPhase('working');
      publish();
      const ctx: TrackContext = {
        resolved,
        agent,
        taskId: taskId!,
        mode,
        handled,
        tracking,
        name,
        notices,
        pushConfigId: push?.configId,
      };
      const outcome = next ?? (await followUntilDecided(acts, ctx, state, input, readFirst));
      next = undefined;
      state.status.state = outcome.task.status.state;
      state.status.artifacts = outcome.artifacts;

      if (outcome.phase === 'completed') {
        await releasePush();
        await complete();
        return {
          agent: input.agent,
          kind: 'task',
          contextId: outcome.task.contextId ?? state.status.contextId,
          taskId,
          state: outcome.task.status.state,
          task: outcome.task,
          artifacts: outcome.artifacts,
          rounds: state.status.rounds,
        };
      }
      if (outcome.phase === 'failed' || outcome.phase === 'rejected' || outcome.phase === 'canceled') {
        throw terminalFailure(outcome, input.agent, taskId!);
      }

      // input-required / auth-required: ask, then wait durably for the answer.
      handled = outcome.status;
      state.ask({
        taskId: taskId!,
        state: outcome.phase === 'auth-required' ? 'TASK_STATE_AUTH_REQUIRED' : 'TASK_STATE_INPUT_REQUIRED',
        text: outcome.statusText || '(the agent asked for input without saying what it needs)',
        messageId: outcome.status.messageId,
        askedAt: new Date().toISOString(),
      });
      publish();
      const reply = await waitForAnswer(acts, state, input, { ...ctx, handled });
      if ('moved' in reply) {
        next = reply.moved; // AUTH_REQUIRED resolved out of band: the task went on without a message
        continue;
      }
      outgoing = answerMessage(reply.answer, reply.messageId, taskId!, state.status.contextId);
    }
  } catch (err) {
    if (err instanceof ContinueAsNew) throw err; // the next run follows the same task (and keeps its push config)
    if (isCancellation(err)) {
      taskId ??= cancelledTaskId(err); // a stream turn cancelled before it returned the task id
      state.setPhase('canceling');
      publish();
      if (agent && taskId) {
        const ref = agent;
        const id = taskId;
        const task = await CancellationScope.nonCancellable(() =>
          acts.cancelTask({ agent: ref, taskId: id }, `CancelTask ${id} at ${name}`),
        );
        state.status.state = task?.status.state ?? state.status.state;
      }
      await releasePush();
      state.setPhase('canceled');
      publish();
      throw err;
    }
    const failure = explain(err, input.agent, tracking.unreachableTimeout);
    await releasePush();
    state.setPhase('failed');
    state.status.error = failure.message;
    publish();
    throw failure;
  }
}
