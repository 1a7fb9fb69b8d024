/**
 * Stream mode: one activity per turn sends with SendStreamingMessage and follows the reply stream
 * until the task decides (one request where send-then-subscribe takes two); later rounds follow
 * the task with SubscribeToTask.
 */
import type { Message } from '../../../a2a/index.js';
import type { Delegation } from '../delegation.js';
import { roundSettings, trackRound, type AfterSend, type Tracker } from './tracker.js';

export function streamMode(run: Delegation): Tracker {
  const { acts, agent, state, input, name } = run;
  return {
    async send(message: Message): Promise<AfterSend> {
      // Cancellable: on cancel the activity's failure carries the task id, so the task can still be canceled.
      state.working();
      run.inFlight = message;
      const turn = await acts.streamMessage(
        {
          agent,
          message,
          acceptedOutputModes: input.acceptedOutputModes,
          handled: state.handled,
          ...roundSettings(run),
        },
        `SendStreamingMessage to ${name}`,
      );
      run.inFlight = undefined;
      if (turn.kind === 'message') return turn;
      state.adopt(turn.task);
      const { kind: _kind, ...outcome } = turn;
      state.observe(outcome); // a turn that ran a whole round shows what it received
      return { kind: 'task', outcome };
    },
    follow: () => trackRound(run, 'stream'),
    close: async () => {},
    carried: () => ({ pushConfigId: undefined }),
  };
}
