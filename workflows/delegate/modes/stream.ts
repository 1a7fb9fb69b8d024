/**
 * Stream mode: one activity per turn sends with SendStreamingMessage and follows the reply stream
 * until the task decides (one request where send-then-subscribe takes two); later rounds follow
 * the task with SubscribeToTask.
 */
import type { Message } from '../../../a2a/index.js';
import { roundSettings, type ModeContext, type SendOutcome, type TrackingMode } from './tracking-mode.js';

export function streamMode(ctx: ModeContext): TrackingMode {
  const { acts, agent, state, input, name } = ctx;
  return {
    async send(message: Message): Promise<SendOutcome> {
      // Cancellable: on cancel the activity's failure carries the task id, so the task can still be canceled.
      state.working();
      ctx.inFlight = message;
      const turn = await acts.streamMessage(
        {
          agent,
          message,
          acceptedOutputModes: input.acceptedOutputModes,
          handled: state.handled,
          ...roundSettings(ctx),
        },
        `SendStreamingMessage to ${name}`,
      );
      ctx.inFlight = undefined;
      if (turn.kind === 'message') return turn;
      state.adopt(turn.task);
      const { kind: _kind, ...outcome } = turn;
      state.observe(outcome); // a turn that ran a whole round shows what it received
      return { kind: 'task', outcome };
    },
    follow: () =>
      acts.trackTask(
        { agent, taskId: state.taskId!, mode: 'stream', handled: state.handled, ...roundSettings(ctx) },
        `Track task ${state.taskId} at ${name} (stream)`,
      ),
    close: async () => {},
    carried: () => ({}),
  };
}
