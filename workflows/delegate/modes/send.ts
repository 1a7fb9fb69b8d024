/** Push mode's SendMessage step (poll mode sends and polls in one activity: `sendTurn`). */
import type { Message } from '../../../a2a/index.js';
import type { TrackOutcome } from '../../../activities/index.js';
import type { Delegation } from '../delegation.js';
import type { AfterSend } from './tracker.js';

/**
 * `SendMessage` with `returnImmediately`, then the task it created (or continued) is adopted.
 * The outcome is `running` (the mode's tracking decides from here) unless the task the agent
 * returned has already decided: then it is not read again.
 */
export async function sendAndAdopt(run: Delegation, message: Message): Promise<AfterSend> {
  const { acts, agent, state, input, name } = run;
  state.sending();
  const sent = await acts.sendMessage(
    { agent, message, acceptedOutputModes: input.acceptedOutputModes, handled: state.handled },
    `SendMessage to ${name}`,
  );
  if (sent.kind === 'message') return sent;
  state.adopt(sent.task);
  state.observeState(sent.task.status.state);
  const { artifacts = [], ...task } = sent.task;
  const { decided } = sent;
  const outcome: TrackOutcome = decided
    ? { ...decided, task, artifacts }
    : { phase: 'running', task, status: { state: task.status.state }, statusText: '', artifacts: [] };
  return { kind: 'task', outcome };
}
