/**
 * Live progress of a delegation without bloating its history: the tracking activity
 * heartbeats what it has seen (state, artifact chunks and text), and `describe()` returns the
 * last heartbeat of each pending activity.
 */
import type { WorkflowHandle } from '@temporalio/client';
import { defaultPayloadConverter } from '@temporalio/common';
import type { TrackProgress } from '../activities/index.js';

export interface PendingActivityView {
  activityType: string;
  attempt: number;
  /** The last failure of a retried attempt (e.g. the agent is unreachable), as text. */
  lastFailure?: string;
  progress?: TrackProgress;
}

/** The delegation's pending activities (at most a few), with decoded tracking progress. */
export async function pendingActivities(handle: WorkflowHandle): Promise<PendingActivityView[]> {
  const { raw } = await handle.describe();
  return (raw.pendingActivities ?? []).map((activity) => {
    const payload = activity.heartbeatDetails?.payloads?.[0];
    const progress = payload ? (defaultPayloadConverter.fromPayload(payload) as TrackProgress) : undefined;
    return {
      activityType: activity.activityType?.name ?? 'unknown',
      attempt: activity.attempt ?? 1,
      lastFailure: activity.lastFailure?.message ?? undefined,
      progress,
    };
  });
}

/** Activities that follow a task and heartbeat what they have seen. */
const FOLLOWING = new Set(['a2a.trackTask', 'a2a.streamMessage', 'trackTask', 'streamMessage']);

/** The last heartbeat of the activity following the task (a tracking round or a stream turn), if one runs. */
export async function trackingProgress(handle: WorkflowHandle): Promise<TrackProgress | undefined> {
  return followingProgress(await pendingActivities(handle));
}

export function followingProgress(pending: readonly PendingActivityView[]): TrackProgress | undefined {
  return pending.find((a) => FOLLOWING.has(a.activityType) && a.progress?.taskId)?.progress;
}

/** What is going wrong while a delegation runs: the agent does not answer, or an activity is retried after a failure. */
export interface Trouble {
  /** The activity it happens in, without our `a2a.` prefix (`streamMessage`, `getTask`…). */
  activity: string;
  attempt: number;
  /** Since when the agent has not answered (ISO 8601), when that is what is wrong. */
  since?: string;
  /** One line: the last failure, or the request still waiting for its answer. */
  error: string;
}

/**
 * The trouble the pending activities show: a tracker's heartbeat saying the agent stopped
 * answering (and why) comes first; else the last failure of an activity on its second attempt or later.
 */
export function troubleOf(pending: readonly PendingActivityView[]): Trouble | undefined {
  const activity = (a: PendingActivityView) => a.activityType.replace(/^a2a\./, '');
  const silent = pending.find((a) => a.progress?.unreachableSince !== undefined);
  if (silent) {
    return {
      activity: activity(silent),
      attempt: silent.attempt,
      since: new Date(silent.progress!.unreachableSince!).toISOString(),
      error: oneLine(silent.progress!.lastError ?? silent.lastFailure ?? 'no answer'),
    };
  }
  const retried = pending.find((a) => a.attempt > 1 && a.lastFailure);
  return retried
    ? { activity: activity(retried), attempt: retried.attempt, error: oneLine(retried.lastFailure!) }
    : undefined;
}

function oneLine(text: string): string {
  return text.split('\n', 1)[0]!.slice(0, 300);
}
