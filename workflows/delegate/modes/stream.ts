/**
 * Stream mode: one activity per turn sends with SendStreamingMessage and follows the reply stream
 * until the task decides (one request where send-then-subscribe takes two); later rounds follow
 * the task with SubscribeToTask.
 */
import type { Delegation } from '../delegation.js';
import { sendTurn, trackRound, type Tracker } from './tracker.js';

export function streamMode(run: Delegation): Tracker {
  return {
    send: (message, next) => sendTurn(run, message, 'stream', next),
    follow: () => trackRound(run, 'stream'),
    close: () => undefined,
    carried: () => ({ pushConfigId: undefined }),
  };
}
