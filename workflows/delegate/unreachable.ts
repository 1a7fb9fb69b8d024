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
  if (err.retryState === RetryState.TIMEOUT && err.cause instanceof ApplicationFailure)
    return { last: err.cause.message };
  return undefined;
}
