/** Push mode's SendMessage step (poll mode sends and polls in one activity: `sendTurn`). */
import type { Message } from '../../../a2a/index.js';
import type { PushFollowUp, SendMessageOutcome, TrackOutcome } from '../../../activities/index.js';
import type { Delegation } from '../delegation.js';
import type { AfterSend } from './tracker.js';

/** A send and what its activity did for push mode besides. */
export interface PushSend {
  after: AfterSend;
  /** The config the send registered for the task. */
  registered?: string;
  /** The send read the task after it registered, so the outcome is as current as a read's. */
  read: boolean;
}

/**
 * `SendMessage` with `returnImmediately` (and `push`'s follow-up: register, then read once). The
 * caller awaits it and hands the outcome to {@link adoptSent} (two steps, not one async function:
 * the SDK captures a stack trace for every promise a workflow makes).
 */
export function sendMessage(run: Delegation, message: Message, push: PushFollowUp): Promise<SendMessageOutcome> {
  const { acts, state, input, name } = run;
  state.sending();
  return acts.sendMessage(
    { agent: run.target, message, acceptedOutputModes: input.acceptedOutputModes, handled: state.handled, push },
    `SendMessage to ${name}`,
  );
}

/**
 * The task the send created (or continued) is adopted. The outcome is `running` (the mode's
 * tracking decides from here) unless the task the agent returned, or the read, has already decided.
 */
export function adoptSent(run: Delegation, { resolved, ...sent }: SendMessageOutcome): PushSend {
  const { state } = run;
  if (resolved) run.resolvedBy(resolved);
  if (sent.kind === 'message') return { after: sent, read: false };
  state.adopt(sent.task);
  const { read: readOutcome, pushConfigRegistered: registered } = sent;
  const done = { ...(registered ? { registered } : {}), read: Boolean(readOutcome) };
  if (readOutcome) {
    state.observeState(readOutcome.task.status.state);
    return { after: { kind: 'task', outcome: readOutcome }, ...done };
  }
  state.observeState(sent.task.status.state);
  const { artifacts = [], ...task } = sent.task;
  const { decided } = sent;
  const outcome: TrackOutcome = decided
    ? { ...decided, task, artifacts }
    : { phase: 'running', task, status: { state: task.status.state }, statusText: '', artifacts: [] };
  return { after: { kind: 'task', outcome }, ...done };
}
