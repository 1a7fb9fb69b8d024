import { ActivityFailure, ApplicationFailure, RetryState, TimeoutFailure, TimeoutType } from '@temporalio/common';
import { describe, expect, it } from 'vitest';
import { outOfTime } from '../../../../workflows/delegate/unreachable.js';

const ended = (retryState: RetryState, cause: Error) =>
  new ActivityFailure('activity failed', 'a2a.getTask', '1', retryState, 'worker', cause);

describe('running out of time for an agent', () => {
  it('is an attempt cut off by the schedule-to-close timeout, naming the last error', () => {
    const timeout = new TimeoutFailure('timed out', undefined, TimeoutType.SCHEDULE_TO_CLOSE);
    Object.assign(timeout, { cause: new Error('connect ECONNREFUSED') });
    expect(outOfTime(ended(RetryState.TIMEOUT, timeout))).toEqual({ last: 'connect ECONNREFUSED' });
  });

  it('is a last attempt that could not reach the agent when no retry fits in the time left', () => {
    const refused = ApplicationFailure.create({ message: 'connection refused', type: 'A2A_CONNECTION_FAILED' });
    expect(outOfTime(ended(RetryState.TIMEOUT, refused))).toEqual({ last: 'connection refused' });
  });

  it('is not an agent that asked for a longer wait than the delegation allows: that stays rate-limited', () => {
    const limited = ApplicationFailure.create({ message: 'wait 31 years', type: 'A2A_RATE_LIMITED' });
    expect(outOfTime(ended(RetryState.TIMEOUT, limited))).toBeUndefined();
    const refused = ApplicationFailure.create({ message: 'refused', type: 'A2A_CONNECTION_FAILED' });
    expect(outOfTime(ended(RetryState.MAXIMUM_ATTEMPTS_REACHED, refused))).toBeUndefined();
  });
});
