import { describe, expect, it } from 'vitest';
import { problemText } from '../../../client/render-status.js';
import { problemOf, type PendingActivityView } from '../../../client/tracking-progress.js';

const tracking = (progress: Partial<NonNullable<PendingActivityView['progress']>> = {}): PendingActivityView => ({
  activityType: 'a2a.streamMessage',
  attempt: 1,
  progress: { taskId: 't1', events: 3, artifacts: [], ...progress },
});

const at = (h: number, m: number, s: number) => Date.UTC(2026, 11, 1, h, m, s);

describe('problemOf', () => {
  it('is nothing while every activity is on its first attempt and the agent answers', () => {
    expect(problemOf([tracking()])).toBeUndefined();
  });

  it("names the silent agent first, with the tracker's own clock: since, attempts, next try, giving up", () => {
    expect(
      problemOf([
        { activityType: 'a2a.getTask', attempt: 3, lastFailure: 'connection refused' },
        tracking({
          unreachableSince: at(14, 2, 11),
          lastError: 'GetTask could not complete because the connection failed (ECONNREFUSED)',
          attempts: 7,
          nextAttemptAt: at(14, 3, 5),
          givesUpAt: at(14, 4, 11),
        }),
      ]),
    ).toEqual({
      kind: 'agent-unreachable',
      activity: 'streamMessage',
      since: '2026-12-01T14:02:11.000Z',
      attempts: 7,
      lastError: 'GetTask could not complete because the connection failed (ECONNREFUSED)',
      nextAttemptAt: '2026-12-01T14:03:05.000Z',
      givesUpAt: '2026-12-01T14:04:11.000Z',
    });
  });

  it("takes a call activity's retries from Temporal: attempts made, the next one, its schedule-to-close deadline", () => {
    expect(
      problemOf([
        {
          activityType: 'a2a.sendMessage',
          attempt: 4,
          lastFailure: 'SendMessage could not complete because the connection failed (ECONNREFUSED)\nstack',
          lastFailureType: 'ConnectionError',
          scheduledAt: at(14, 2, 20),
          nextAttemptAt: at(14, 2, 24),
          expiresAt: at(14, 4, 11),
        },
      ]),
    ).toEqual({
      kind: 'agent-unreachable',
      activity: 'sendMessage',
      since: '2026-12-01T14:02:20.000Z',
      attempts: 3,
      lastError: 'SendMessage could not complete because the connection failed (ECONNREFUSED)',
      nextAttemptAt: '2026-12-01T14:02:24.000Z',
      givesUpAt: '2026-12-01T14:04:11.000Z',
    });
  });

  it('calls a retried failure that is not about reaching the agent an activity failing', () => {
    const problem = problemOf([
      tracking(),
      { activityType: 'a2a.getTask', attempt: 2, lastFailure: 'blob store full', lastFailureType: 'Error' },
    ]);
    expect(problem).toMatchObject({ kind: 'activity-failing', activity: 'getTask', attempts: 2 });
  });
});

describe('problemText', () => {
  it('says since when, how often, the last error, when the next try leaves and when the delegation gives up', () => {
    const problem = problemOf([
      tracking({
        unreachableSince: at(14, 2, 11),
        lastError: 'connection refused at 127.0.0.1:41241',
        attempts: 7,
        nextAttemptAt: at(14, 3, 8),
        givesUpAt: at(14, 4, 11),
      }),
    ])!;
    expect(problemText(problem, at(14, 3, 0))).toBe(
      'agent unreachable since 14:02:11Z (7 attempts, last: connection refused at 127.0.0.1:41241), next try in 8 s; gives up at 14:04:11Z',
    );
  });
});
