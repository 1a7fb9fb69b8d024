import { describe, expect, it } from 'vitest';
import { troubleOf, type PendingActivityView } from '../../../client/tracking-progress.js';

const tracking = (progress: Partial<NonNullable<PendingActivityView['progress']>> = {}): PendingActivityView => ({
  activityType: 'a2a.streamMessage',
  attempt: 1,
  progress: { taskId: 't1', events: 3, artifacts: [], ...progress },
});

describe('troubleOf', () => {
  it('is nothing while every activity is on its first attempt and the agent answers', () => {
    expect(troubleOf([tracking()])).toBeUndefined();
  });

  it('names the silent agent first: since when, and why', () => {
    const since = Date.UTC(2026, 11, 1, 23, 19, 4);
    expect(
      troubleOf([
        { activityType: 'a2a.getTask', attempt: 3, lastFailure: 'connection refused' },
        tracking({ unreachableSince: since, lastError: 'GetTask: no answer for 4 s' }),
      ]),
    ).toEqual({
      activity: 'streamMessage',
      attempt: 1,
      since: '2026-12-01T23:19:04.000Z',
      error: 'GetTask: no answer for 4 s',
    });
  });

  it("names an activity retried after a failure, with the failure's first line", () => {
    expect(troubleOf([tracking(), { activityType: 'a2a.getTask', attempt: 2, lastFailure: 'refused\nstack' }])).toEqual(
      { activity: 'getTask', attempt: 2, error: 'refused' },
    );
  });
});
