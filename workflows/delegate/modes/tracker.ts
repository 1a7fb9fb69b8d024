/**
 * A tracking mode is how a delegation learns what its remote task does: `stream` (the reply
 * stream and SubscribeToTask), `poll` (GetTask with backoff) or `push` (the agent POSTs to our
 * webhook receiver, the workflow waits for the notice and reads the task). `delegate` drives
 * every mode through this one small interface.
 */
import type { Message } from '../../../a2a/index.js';
import type { RoundSettings, TrackOutcome } from '../../../activities/index.js';
import type { DelegationActivityCalls } from '../activity-proxies.js';
import type { DelegationState } from '../delegation-state.js';
import type { AgentRef, DelegateInput, ResumeState } from '../../../contract/delegation-types.js';
import type { TrackingSettings } from '../tracking-settings.js';

/** The end of a send: the agent's direct reply, or where its task stands (`running` unless decided). */
export type SendOutcome = { kind: 'message'; message: Message } | { kind: 'task'; outcome: TrackOutcome };

export interface TrackingMode {
  /** Sends `message` (the first request, or an answer) and returns the reply or the task's standing. */
  send(message: Message): Promise<SendOutcome>;
  /** One tracking round: follows the task until it decides (terminal, or a new question) or the round ends (`running`). */
  follow(): Promise<TrackOutcome>;
  /** The delegation ends, whatever the way: give back what the mode holds at the agent. */
  close(): Promise<void>;
  /** What the next run needs to go on following the task (continue-as-new). */
  carried(): Partial<ResumeState>;
}

/** What every mode works with. */
export interface ModeContext {
  input: DelegateInput;
  state: DelegationState;
  acts: DelegationActivityCalls;
  agent: AgentRef;
  settings: TrackingSettings;
  /** The agent as the summaries in the UI name it. */
  name: string;
  /** A stream turn's message while the agent has not named its task: a cancellation looks the task up by it. */
  inFlight?: Message;
}

/** The round settings every tracking activity takes. */
export function roundSettings({ settings, state }: ModeContext): RoundSettings {
  const { roundMs, pollInitialMs, pollMaxMs, unreachableMs } = settings;
  const since = state.unreachableSince;
  return { roundMs, pollInitialMs, pollMaxMs, unreachableMs, ...(since ? { unreachableSince: since } : {}) };
}
