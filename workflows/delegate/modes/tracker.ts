/**
 * A tracker is how a delegation learns what its remote task does: `stream` (the reply stream
 * and SubscribeToTask), `poll` (GetTask with backoff) or `push` (the agent POSTs to our webhook
 * receiver, the workflow waits for the notice and reads the task). The delegation drives every
 * mode through this one small interface; a tracker works for the delegation that made it.
 */
import type { Message } from '../../../a2a/index.js';
import type { RoundSettings, TrackOutcome } from '../../../activities/index.js';
import type { Carry } from '../carry.js';
import type { Delegation } from '../delegation.js';

/** Where a send leaves the delegation: the agent's direct reply, or where its task stands (`running` unless decided). */
export type AfterSend = { kind: 'message'; message: Message } | { kind: 'task'; outcome: TrackOutcome };

export interface Tracker {
  /**
   * Sends `message` (the first request, or an answer); `next` takes the reply or the task's
   * standing within the send's own reaction (a reaction of the caller's would be one more
   * promise: the SDK captures a stack trace for each), inside a {@link Delegation.batch}.
   */
  send<T>(message: Message, next: (sent: AfterSend) => T | PromiseLike<T>): Promise<T>;
  /** One tracking round: follows the task until it decides (terminal, or a new question) or the round ends (`running`). */
  follow(): Promise<TrackOutcome>;
  /** The delegation ends, whatever the way: give back what the mode holds at the agent (undefined: nothing to give back). */
  close(): Promise<void> | undefined;
  /** What the next run needs to go on following the task (continue-as-new). */
  carried(): Carry<'pushConfigId'>;
}

/** The round settings every tracking activity takes. */
export function roundSettings({ settings, state }: Pick<Delegation, 'settings' | 'state'>): RoundSettings {
  const { roundMs, pollInitialMs, pollMaxMs, unreachableMs } = settings;
  const { unreachableSince, droppedBytes } = state;
  return {
    roundMs,
    pollInitialMs,
    pollMaxMs,
    unreachableMs,
    ...(unreachableSince ? { unreachableSince } : {}),
    ...(droppedBytes ? { droppedBytes } : {}),
  };
}

/**
 * One turn in stream or poll mode: a single activity sends `message` and follows its task for a
 * first round (`a2a.streamMessage`, `a2a.pollMessage`). Cancellable: on cancel the activity's
 * failure carries the task id, and while the agent has not named the task a cancellation looks
 * it up by the message in flight (poll mode's turn lets its send finish first, so it names the task).
 */
export function sendTurn<T>(
  run: Delegation,
  message: Message,
  mode: 'stream' | 'poll',
  next: (sent: AfterSend) => T | PromiseLike<T>,
): Promise<T> {
  const { acts, target, state, input, name } = run;
  state.working();
  run.inFlight = message;
  const turnInput = {
    agent: target,
    message,
    acceptedOutputModes: input.acceptedOutputModes,
    handled: state.handled,
    ...roundSettings(run),
  };
  const turn =
    mode === 'stream'
      ? acts.streamMessage(turnInput, `SendStreamingMessage to ${name}`)
      : acts.pollMessage(turnInput, `SendMessage to ${name} (poll)`);
  // Not async: one reaction instead of an async function's promises (the SDK traces each one).
  return turn.then(({ resolved, ...reply }) =>
    run.batch(() => {
      run.inFlight = undefined;
      if (resolved) run.resolvedBy(resolved);
      if (reply.kind === 'message') return next(reply);
      state.adopt(reply.task);
      const { kind: _kind, ...outcome } = reply;
      state.observe(outcome); // a turn that ran a whole round shows what it received
      return next({ kind: 'task', outcome });
    }),
  );
}

/** One round of the tracking activity (stream and poll mode): it follows the task until it decides or the round ends. */
export function trackRound(run: Delegation, mode: 'stream' | 'poll'): Promise<TrackOutcome> {
  const { acts, agent, state, name } = run;
  return acts.trackTask(
    {
      agent,
      taskId: state.taskId!,
      contextId: state.status.contextId,
      mode,
      handled: state.handled,
      ...roundSettings(run),
    },
    `Track task ${state.taskId} at ${name} (${mode})`,
  );
}
