/** Picks the delegation's tracking mode from what the caller asked and what the agent offers. */
import type { ResolvedAgent } from '../../contract/delegation-types.js';
import { pollMode } from './poll.js';
import { pushMode, pushUnavailable, type PushNotices } from './push.js';
import { streamMode } from './stream.js';
import type { ModeContext, TrackingMode } from './tracking-mode.js';

export type { ModeContext, SendOutcome, TrackingMode } from './tracking-mode.js';
export { PushNotices } from './push.js';

/** The context every mode works with, once the agent is resolved. */
export function modeContext(base: Omit<ModeContext, 'agent' | 'name'>, resolved: ResolvedAgent): ModeContext {
  const agent = { name: resolved.name, endpoint: resolved.endpoint };
  return { ...base, agent, name: base.input.label ?? base.input.agent };
}

/**
 * The mode `auto` (or the caller's choice) turns into for this agent.
 *
 * @throws ApplicationFailure `A2A_PUSH_UNAVAILABLE` when push was asked for and cannot work; nothing was sent.
 */
export function trackingMode(resolved: ResolvedAgent, ctx: ModeContext, notices: PushNotices): TrackingMode {
  const { input, state } = ctx;
  if (input.mode === 'push') {
    const unavailable = pushUnavailable(resolved, input.agent);
    if (unavailable) throw unavailable;
  }
  const kind = !input.mode || input.mode === 'auto' ? resolved.autoMode : input.mode;
  state.trackBy(kind, resolved.endpoint.binding);
  return kind === 'stream' ? streamMode(ctx) : kind === 'poll' ? pollMode(ctx) : pushMode(ctx, notices);
}
