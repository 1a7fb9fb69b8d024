/** Picks the delegation's tracker from what the caller asked and what the agent offers. */
import type { ResolvedAgent } from '../../../contract/delegation-types.js';
import type { Delegation } from '../delegation.js';
import { pollMode } from './poll.js';
import { pushUnavailable } from '../../../contract/push-availability.js';
import { pushMode } from './push.js';
import { streamMode } from './stream.js';
import type { Tracker } from './tracker.js';

export type { AfterSend, Tracker } from './tracker.js';
export { PushNotices } from './push.js';

/**
 * The tracker for the mode `auto` (or the caller's choice) turns into for this agent.
 * `resolved` is undefined only in an explicit mode, whose first send resolves the agent (and
 * checks in push mode that it can push).
 *
 * @throws ApplicationFailure `A2A_PUSH_UNAVAILABLE` when push was asked for and cannot work; nothing was sent.
 */
export function trackerFor(resolved: ResolvedAgent | undefined, run: Delegation): Tracker {
  const { input, state } = run;
  if (input.mode === 'push' && resolved) {
    const unavailable = pushUnavailable(resolved, input.agent);
    if (unavailable) throw unavailable;
  }
  const kind = !input.mode || input.mode === 'auto' ? resolved!.autoMode : input.mode;
  state.trackBy(kind, resolved?.endpoint.binding);
  return kind === 'stream' ? streamMode(run) : kind === 'poll' ? pollMode(run) : pushMode(run);
}
