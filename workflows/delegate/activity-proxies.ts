/**
 * The delegation's activities as the workflow calls them, one options profile each (a proxy per
 * profile: `executeWithOptions` merges into the proxy's options, so a shared proxy would leak
 * one profile's deadlines into another):
 *
 * - `call`: one request (push mode's reads, cancel, config calls). Heartbeats while the
 *   request is in flight, so a dead worker is noticed within the heartbeat timeout; gives up
 *   when the agent stays unreachable for `unreachableTimeout`.
 * - `send`: push mode's send, a `call` whose cancellation waits for the activity to stop: a
 *   cancelled send still names the task it created (its failure's details), so it can be canceled.
 * - `follow`: a tracking round, or a stream or poll turn. No overall deadline: it lasts as long
 *   as the task (one round at a time); the activity itself fails as unreachable when the agent
 *   does not answer for `unreachableTimeout`, and heartbeats so a dead worker or a cancellation
 *   is noticed within the heartbeat timeout.
 * - `resolve`: a local activity (a card GET, usually from the worker's cache), still recorded once.
 * - push mode's reads (`getTask`, which may register or delete the push config first) are tried
 *   first as a local activity (`getTaskLocally`: one attempt of at most 5 s, inside the workflow
 *   task that decided to read: one marker event instead of three activity events and another
 *   workflow task, and no round trip through the server's activity queue; a read is safe to run
 *   again, registering and deleting a config by its id are idempotent). When that attempt fails
 *   or takes longer, the read runs as an activity of the `call` profile: heartbeats, the
 *   unreachable budget, and `status` shows it while the agent does not answer.
 */
import {
  ActivityCancellationType,
  proxyActivities,
  proxyLocalActivities,
  type ActivityOptions,
  type LocalActivityOptions,
} from '@temporalio/workflow';
import type { DelegationActivities, DelegationActivityName } from '../../activities/index.js';
import type { TrackingSettings } from './tracking-settings.js';

/** Each delegation activity by its short name, called with the summary the UI shows for it. */
export type DelegationActivityCalls = {
  [N in DelegationActivityName]: (
    input: Parameters<DelegationActivities[`a2a.${N}`]>[0],
    summary: string,
  ) => ReturnType<DelegationActivities[`a2a.${N}`]>;
};

/** The delegation's activities, and push mode's first try of a read as a local activity. */
export type DelegationCalls = DelegationActivityCalls & { getTaskLocally: DelegationActivityCalls['getTask'] };

// Durations in milliseconds: the SDK parses a duration string again for every activity it schedules.
const SECOND = 1_000;
const MINUTE = 60 * SECOND;

export function delegationActivities(settings: TrackingSettings): DelegationCalls {
  const retry = { initialInterval: 500, backoffCoefficient: 2, maximumInterval: 10 * SECOND };
  const call: ActivityOptions = {
    startToCloseTimeout: 2 * MINUTE,
    heartbeatTimeout: settings.heartbeatMs,
    scheduleToCloseTimeout: settings.unreachableMs,
    retry,
  };
  const follow: ActivityOptions = {
    startToCloseTimeout: settings.roundMs + 60_000,
    heartbeatTimeout: settings.heartbeatMs,
    // Wait until the activity has really stopped (it hears the cancel on its next heartbeat).
    cancellationType: ActivityCancellationType.WAIT_CANCELLATION_COMPLETED,
    retry: { initialInterval: 250, backoffCoefficient: 2, maximumInterval: 30 * SECOND },
  };
  const send: ActivityOptions = { ...call, cancellationType: ActivityCancellationType.WAIT_CANCELLATION_COMPLETED };
  // Deleting a push config is housekeeping: a few tries, then the delegation ends anyway.
  const cleanup: ActivityOptions = { ...call, retry: { ...retry, maximumAttempts: 5 } };
  const resolve: LocalActivityOptions = {
    startToCloseTimeout: 40 * SECOND,
    scheduleToCloseTimeout: settings.unreachableMs,
    retry,
    localRetryThreshold: 10 * SECOND,
  };
  const calls = proxyActivities<DelegationActivities>(call);
  const sends = proxyActivities<DelegationActivities>(send);
  const follows = proxyActivities<DelegationActivities>(follow);
  const cleanups = proxyActivities<DelegationActivities>(cleanup);
  const local = proxyLocalActivities<DelegationActivities>(resolve);
  /** Each activity with the proxy and the options of its profile. */
  const profiles: Record<DelegationActivityName, [Record<string, Proxied>, ActivityOptions | LocalActivityOptions]> = {
    resolveAgent: [local, resolve],
    sendMessage: [sends, send],
    cancelTask: [calls, call],
    getTask: [calls, call],
    registerPushConfig: [calls, call],
    deletePushConfig: [cleanups, cleanup],
    streamMessage: [follows, follow],
    pollMessage: [follows, follow],
    trackTask: [follows, follow],
  };
  const quickRead: LocalActivityOptions = { startToCloseTimeout: 5 * SECOND, retry: { maximumAttempts: 1 } };
  const getTaskLocally = (input: unknown, summary: string) =>
    (local['a2a.getTask'] as Proxied).executeWithOptions({ ...quickRead, summary }, [input]);
  return {
    ...Object.fromEntries(
      Object.entries(profiles).map(([name, [proxy, options]]) => [
        name,
        (input: unknown, summary: string) => proxy[`a2a.${name}`]!.executeWithOptions({ ...options, summary }, [input]),
      ]),
    ),
    getTaskLocally,
  } as DelegationCalls;
}

/** A proxied activity, as the profiles table holds it (the typed view is DelegationActivityCalls). */
interface Proxied {
  executeWithOptions(options: ActivityOptions | LocalActivityOptions, args: [unknown]): Promise<unknown>;
}
