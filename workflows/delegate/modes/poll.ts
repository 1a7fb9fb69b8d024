/**
 * Poll mode: one activity per turn sends with SendMessage and `returnImmediately`, then polls the
 * task with GetTask (capped backoff) until it decides or the round ends; later rounds poll the
 * task in tracking rounds.
 */
import type { Message } from '../../../a2a/index.js';
import type { Delegation } from '../delegation.js';
import { sendTurn, trackRound, type AfterSend, type Tracker } from './tracker.js';

export function pollMode(run: Delegation): Tracker {
  return {
    send: (message: Message): Promise<AfterSend> => sendTurn(run, message, 'poll'),
    follow: () => trackRound(run, 'poll'),
    close: () => undefined,
    carried: () => ({ pushConfigId: undefined }),
  };
}
