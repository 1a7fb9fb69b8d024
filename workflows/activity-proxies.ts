/**
 * The delegation's activities, one proxy per timeout profile: short RPCs (resolve, send,
 * cancel, push mode's reads and config calls) that give up when the agent stays unreachable, and the long tracking call that
 * heartbeats so a dead worker or a cancellation is noticed within seconds.
 */
import type { Duration } from '@temporalio/common';
import { msToNumber } from '@temporalio/common/lib/time.js';
import { ActivityCancellationType, proxyActivities, type ActivityOptions } from '@temporalio/workflow';
import type {
  CancelTaskInput,
  DelegationActivities,
  GetTaskInput,
  PushConfigInput,
  ResolveAgentInput,
  SendMessageInput,
  TrackTaskInput,
} from '../activities/index.js';
import type { TrackingOptions } from './delegation-types.js';

export const TRACKING_DEFAULTS = {
  heartbeatTimeout: '5 seconds',
  roundTimeout: '10 minutes',
  pollInitialInterval: '200 milliseconds',
  pollMaxInterval: '5 seconds',
  unreachableTimeout: '2 minutes',
  pushSafetyNetInterval: '5 minutes',
} as const satisfies Required<TrackingOptions>;

export function delegationActivities(options: TrackingOptions = {}) {
  const o = { ...TRACKING_DEFAULTS, ...options };
  const short: ActivityOptions = {
    startToCloseTimeout: '40 seconds',
    scheduleToCloseTimeout: o.unreachableTimeout,
    retry: { initialInterval: '500 milliseconds', backoffCoefficient: 2, maximumInterval: '10 seconds' },
  };
  const long: ActivityOptions = {
    startToCloseTimeout: addMinute(o.roundTimeout),
    heartbeatTimeout: o.heartbeatTimeout,
    // Wait until the activity has really stopped (it hears the cancel on its next heartbeat).
    cancellationType: ActivityCancellationType.WAIT_CANCELLATION_COMPLETED,
    retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds' },
  };
  // Deleting a push config is housekeeping: a few tries, then the delegation ends anyway.
  const cleanup: ActivityOptions = { ...short, retry: { ...short.retry, maximumAttempts: 5 } };
  const acts = proxyActivities<DelegationActivities>(short);
  return {
    resolveAgent: (input: ResolveAgentInput, summary: string) => acts.resolveAgent.executeWithOptions({ ...short, summary }, [input]),
    sendMessage: (input: SendMessageInput, summary: string) => acts.sendMessage.executeWithOptions({ ...short, summary }, [input]),
    cancelTask: (input: CancelTaskInput, summary: string) => acts.cancelTask.executeWithOptions({ ...short, summary }, [input]),
    trackTask: (input: TrackTaskInput, summary: string) => acts.trackTask.executeWithOptions({ ...long, summary }, [input]),
    // Push mode: short calls only; nothing runs while the delegation waits for a notification.
    getTask: (input: GetTaskInput, summary: string) => acts.getTask.executeWithOptions({ ...short, summary }, [input]),
    registerPushConfig: (input: PushConfigInput, summary: string) => acts.registerPushConfig.executeWithOptions({ ...short, summary }, [input]),
    deletePushConfig: (input: PushConfigInput, summary: string) => acts.deletePushConfig.executeWithOptions({ ...cleanup, summary }, [input]),
  };
}

export type DelegationActivityCalls = ReturnType<typeof delegationActivities>;

function addMinute(duration: Duration): number {
  return msToNumber(duration) + 60_000;
}
