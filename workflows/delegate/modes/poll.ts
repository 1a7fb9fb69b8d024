/**
 * Poll mode: one activity per turn sends with SendMessage and `returnImmediately`, then polls the
 * task with GetTask (capped backoff) until it decides or the round ends; later rounds poll the
 * task in tracking rounds.
 */
import type { Delegation } from '../delegation.js';
import { sendTurn, trackRound, type Tracker } from './tracker.js';

export function pollMode(run: Delegation): Tracker {
  return {
    send: (message, next) => sendTurn(run, message, 'poll', next),
    follow: () => trackRound(run, 'poll'),
    close: () => undefined,
    carried: () => ({ pushConfigId: undefined }),
  };
}
