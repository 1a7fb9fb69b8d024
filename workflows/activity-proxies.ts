/**
 * The delegation's activities, one proxy per timeout profile: short RPCs (resolve, send,
 * cancel, push mode's reads and config calls) that give up when the agent stays unreachable,
 * and the long calls (tracking rounds, stream turns) that heartbeat, so a dead worker or a
 * cancellation is noticed within seconds.
 */
import type { Duration } from '@temporalio/common';
import { msToNumber } from '@temporalio/common/lib/time.js';
import {
  ActivityCancellationType,
  proxyActivities,
  proxyLocalActivities,
  type ActivityOptions,
  type LocalActivityOptions,
} from '@temporalio/workflow';
import type {
  CancelTaskInput,
  DelegationActivities,
  GetTaskInput,
  PushConfigInput,
  ResolveAgentInput,
  SendMessageInput,
  StreamMessageInput,
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
  // Resolving runs as a local activity: a card GET (usually from the worker's card cache) is too
  // small for a round trip through the server; its result is still recorded in history once.
  const local: LocalActivityOptions = {
    startToCloseTimeout: short.startToCloseTimeout,
    scheduleToCloseTimeout: o.unreachableTimeout,
    retry: short.retry,
    localRetryThreshold: '10 seconds',
  };
  const acts = proxyActivities<DelegationActivities>(short);
  const localActs = proxyLocalActivities<DelegationActivities>(local);
  return {
    resolveAgent: (input: ResolveAgentInput, summary: string) =>
      localActs.resolveAgent.executeWithOptions({ ...local, summary }, [input]),
    sendMessage: (input: SendMessageInput, summary: string) =>
      acts.sendMessage.executeWithOptions({ ...short, summary }, [input]),
    cancelTask: (input: CancelTaskInput, summary: string) =>
      acts.cancelTask.executeWithOptions({ ...short, summary }, [input]),
    streamMessage: (input: StreamMessageInput, summary: string) =>
      acts.streamMessage.executeWithOptions({ ...long, summary }, [input]),
    trackTask: (input: TrackTaskInput, summary: string) =>
      acts.trackTask.executeWithOptions({ ...long, summary }, [input]),
    // Push mode: short calls only; nothing runs while the delegation waits for a notification.
    getTask: (input: GetTaskInput, summary: string) => acts.getTask.executeWithOptions({ ...short, summary }, [input]),
    registerPushConfig: (input: PushConfigInput, summary: string) =>
      acts.registerPushConfig.executeWithOptions({ ...short, summary }, [input]),
    deletePushConfig: (input: PushConfigInput, summary: string) =>
      acts.deletePushConfig.executeWithOptions({ ...cleanup, summary }, [input]),
  };
}

export type DelegationActivityCalls = ReturnType<typeof delegationActivities>;

function addMinute(duration: Duration): number {
  return msToNumber(duration) + 60_000;
}
