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
  /** The activity's type, e.g. `a2a.streamMessage`. */
  activityType: string;
  /** The attempt under way (1 for the first). */
  attempt: number;
  /** The last failure of a retried attempt (e.g. the agent is unreachable), as text. */
  lastFailure?: string;
  /** Its type (`ConnectionError`, `TransportTimeoutError`…). */
  lastFailureType?: string;
  /** When Temporal starts the next attempt, while it waits to (epoch ms). */
  nextAttemptAt?: number;
  /** When Temporal stops retrying it: its schedule-to-close deadline (epoch ms). */
  expiresAt?: number;
  /** When the current attempt was scheduled (epoch ms). */
  scheduledAt?: number;
  /** What the tracking activity last reported by heartbeat. */
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
      lastFailureType: activity.lastFailure?.applicationFailureInfo?.type ?? undefined,
      nextAttemptAt: epochMs(activity.nextAttemptScheduleTime),
      expiresAt: epochMs(activity.expirationTime),
      scheduledAt: epochMs(activity.scheduledTime),
      progress,
    };
  });
}

/** Activities that follow a task and heartbeat what they have seen. */
const FOLLOWING = new Set(['a2a.trackTask', 'a2a.streamMessage', 'a2a.pollMessage']);

/** The last heartbeat of the activity following the task (a tracking round, or a stream or poll turn), if one runs. */
export async function trackingProgress(handle: WorkflowHandle): Promise<TrackProgress | undefined> {
  return followingProgress(await pendingActivities(handle));
}

export function followingProgress(pending: readonly PendingActivityView[]): TrackProgress | undefined {
  return pending.find((a) => FOLLOWING.has(a.activityType) && a.progress?.taskId)?.progress;
}

/**
 * What is going wrong while a delegation runs (`status --json`'s `problem`, the text's `!` line):
 * the agent does not answer (`agent-unreachable`: refused, timed out, silent), or an activity
 * fails for another reason and Temporal retries it (`activity-failing`).
 */
export interface Problem {
  kind: 'agent-unreachable' | 'activity-failing';
  /** The activity it happens in, without our `a2a.` prefix (`streamMessage`, `getTask`…). */
  activity: string;
  /** Since when (ISO 8601): the agent's silence as the delegation counts it, or the failing activity's current attempt. */
  since: string;
  /** Requests the agent left unanswered (a tracker's own retries), or the activity's attempts. */
  attempts: number;
  /** One line: the last failure, or the request still waiting for its answer. */
  lastError: string;
  /** When the next try leaves (ISO 8601), while one waits. */
  nextAttemptAt?: string;
  /** When the delegation gives up on the agent (ISO 8601): it then fails `A2A_AGENT_UNREACHABLE`. */
  givesUpAt?: string;
}

/** Failures that mean the agent did not answer (transport errors, Temporal's own timeouts). */
const UNREACHABLE_FAILURES = /^(ConnectionError|TransportTimeoutError|StreamIdleTimeoutError)$/;

/**
 * The problem the pending activities show: a heartbeat saying the agent stopped answering (since
 * when, how often, until when) comes first; else an activity on its second attempt or later.
 */
export function problemOf(pending: readonly PendingActivityView[]): Problem | undefined {
  const activity = (a: PendingActivityView) => a.activityType.replace(/^a2a\./, '');
  const iso = (ms: number | undefined) => (ms === undefined ? {} : { iso: new Date(ms).toISOString() });
  const silent = pending.find((a) => a.progress?.unreachableSince !== undefined);
  if (silent) {
    const p = silent.progress!;
    const next = iso(p.nextAttemptAt ?? silent.nextAttemptAt).iso;
    const givesUp = iso(p.givesUpAt ?? silent.expiresAt).iso;
    return {
      kind: 'agent-unreachable',
      activity: activity(silent),
      since: new Date(p.unreachableSince!).toISOString(),
      attempts: p.attempts ?? silent.attempt,
      lastError: oneLine(p.lastError ?? silent.lastFailure ?? 'no answer'),
      ...(next ? { nextAttemptAt: next } : {}),
      ...(givesUp ? { givesUpAt: givesUp } : {}),
    };
  }
  const retried = pending.find((a) => a.attempt > 1 && a.lastFailure);
  if (!retried) return undefined;
  const next = iso(retried.nextAttemptAt).iso;
  const givesUp = iso(retried.expiresAt).iso;
  return {
    kind: UNREACHABLE_FAILURES.test(retried.lastFailureType ?? '') ? 'agent-unreachable' : 'activity-failing',
    activity: activity(retried),
    since: new Date(retried.scheduledAt ?? Date.now()).toISOString(),
    attempts: retried.attempt - (next ? 1 : 0),
    lastError: oneLine(retried.lastFailure!),
    ...(next ? { nextAttemptAt: next } : {}),
    ...(givesUp ? { givesUpAt: givesUp } : {}),
  };
}

/** A protobuf timestamp as epoch ms. */
function epochMs(ts: { seconds?: { toNumber(): number } | number | null; nanos?: number | null } | null | undefined) {
  if (!ts?.seconds) return undefined;
  const seconds = typeof ts.seconds === 'number' ? ts.seconds : ts.seconds.toNumber();
  return seconds * 1000 + Math.floor((ts.nanos ?? 0) / 1e6);
}

function oneLine(text: string): string {
  return text.split('\n', 1)[0]!.slice(0, 300);
}
