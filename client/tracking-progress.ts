/**
 * Live progress of a delegation without bloating its history: the tracking activity
 * heartbeats what it has seen (state, artifact chunks and text), and `describe()` returns the
 * last heartbeat of each pending activity.
 */
import type { WorkflowHandle } from '@temporalio/client';
import { defaultPayloadConverter } from '@temporalio/common';
import type { TrackProgress } from '../activities/index.js';

/** A delegation's running activity as Temporal describes it: attempt, last heartbeat and last failure. See [docs/guide.md](../docs/guide.md#the-commands). */
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
const FOLLOWING = new Set(['a2a.trackTask', 'a2a.streamMessage']);

/** The last heartbeat of the activity following the task (a tracking round or a stream turn), if one runs. */
export async function trackingProgress(handle: WorkflowHandle): Promise<TrackProgress | undefined> {
  return (await pendingActivities(handle)).find((a) => FOLLOWING.has(a.activityType) && a.progress?.taskId)?.progress;
}
