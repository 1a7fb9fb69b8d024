/** The SendMessage step shared by poll and push mode. */
import type { Message } from '../../a2a/index.js';
import type { TrackOutcome } from '../../activities/index.js';
import type { ModeContext, SendOutcome } from './tracking-mode.js';

/**
 * `SendMessage` with `returnImmediately`, then the task it created (or continued) is adopted.
 * The outcome says `running`: the mode's tracking decides from here.
 */
export async function sendAndAdopt(
  { acts, agent, state, input, name }: ModeContext,
  message: Message,
): Promise<SendOutcome> {
  state.sending();
  const sent = await acts.sendMessage(
    { agent, message, acceptedOutputModes: input.acceptedOutputModes },
    `SendMessage to ${name}`,
  );
  if (sent.kind === 'message') return sent;
  state.adopt(sent.task);
  state.observeState(sent.task.status.state);
  const outcome: TrackOutcome = {
    phase: 'running',
    task: sent.task,
    status: {
      state: sent.task.status.state,
      messageId: sent.task.status.message?.messageId,
      timestamp: sent.task.status.timestamp,
    },
    statusText: '',
    artifacts: [],
  };
  return { kind: 'task', outcome };
}
