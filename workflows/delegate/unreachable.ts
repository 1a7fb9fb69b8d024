/**
 * An activity that ran out of time for retries: its attempt in flight hit the schedule-to-close
 * timeout, or Temporal did not start another attempt past it and ended with the last attempt's
 * (transient) failure. Both mean the agent could not be reached in the time the delegation allows.
 */
import { ActivityFailure, ApplicationFailure, TimeoutFailure } from '@temporalio/workflow';
import { RetryState, TimeoutType } from '@temporalio/common';

/** The last failure seen before the time ran out (its message says what went wrong), or undefined when `err` is something else. */
export function outOfTime(err: unknown): { last: string } | undefined {
  if (!(err instanceof ActivityFailure)) return undefined;
  if (err.cause instanceof TimeoutFailure && err.cause.timeoutType === TimeoutType.SCHEDULE_TO_CLOSE)
    return { last: err.cause.cause?.message ?? 'no answer' };
  if (
    err.retryState === RetryState.TIMEOUT &&
    err.cause instanceof ApplicationFailure &&
    UNREACHABLE_TYPES.has(err.cause.type ?? '')
  )
    return { last: err.cause.message };
  return undefined;
}

/**
 * The failures that say the agent could not be reached (no connection, no answer in time). Any
 * other last failure keeps its own type: an agent that asked for a longer wait than the delegation
 * allows (429 with a huge Retry-After) is rate-limited, not unreachable.
 */
const UNREACHABLE_TYPES: ReadonlySet<string> = new Set([
  'A2A_CONNECTION_FAILED',
  'A2A_TIMEOUT',
  'A2A_STREAM_IDLE_TIMEOUT',
]);
