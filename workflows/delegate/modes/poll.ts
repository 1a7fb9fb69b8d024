/** Poll mode: SendMessage with `returnImmediately`, then GetTask rounds with capped backoff. */
import { CancellationScope } from '@temporalio/workflow';
import type { Message } from '../../../a2a/index.js';
import type { Delegation } from '../delegation.js';
import { sendAndAdopt } from './send.js';
import { trackRound, type AfterSend, type Tracker } from './tracker.js';

export function pollMode(run: Delegation): Tracker {
  return {
    send: (message: Message): Promise<AfterSend> =>
      // Never cancelled half-way: we must learn the task id of what we sent, to cancel it.
      CancellationScope.nonCancellable(() => sendAndAdopt(run, message)),
    follow: () => trackRound(run, 'poll'),
    close: async () => {},
    carried: () => ({ pushConfigId: undefined }),
  };
}
