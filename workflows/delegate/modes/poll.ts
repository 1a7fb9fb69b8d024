/** Poll mode: SendMessage with `returnImmediately`, then GetTask rounds with capped backoff. */
import { CancellationScope } from '@temporalio/workflow';
import type { Message } from '../../../a2a/index.js';
import { sendAndAdopt } from './send.js';
import { roundSettings, type ModeContext, type SendOutcome, type TrackingMode } from './tracking-mode.js';

export function pollMode(ctx: ModeContext): TrackingMode {
  const { acts, agent, state, name } = ctx;
  return {
    send: (message: Message): Promise<SendOutcome> =>
      // Never cancelled half-way: we must learn the task id of what we sent, to cancel it.
      CancellationScope.nonCancellable(() => sendAndAdopt(ctx, message)),
    follow: () =>
      acts.trackTask(
        { agent, taskId: state.taskId!, mode: 'poll', handled: state.handled, ...roundSettings(ctx) },
        `Track task ${state.taskId} at ${name} (poll)`,
      ),
    close: async () => {},
    carried: () => ({}),
  };
}
