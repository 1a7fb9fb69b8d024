/**
 * How a delegation follows its task, as checked numbers: the caller's {@link TrackingOptions}
 * over the defaults. A bad value fails the delegation at once with `A2A_INVALID_INPUT` instead of
 * failing its workflow task forever.
 */
import { ApplicationFailure } from '@temporalio/workflow';
import type { DelegateInput, TrackingOptions } from '../../contract/delegation-types.js';
import { durationMs, InvalidSettingError, optionalDurationMs } from '../../contract/durations.js';
import { FailureType } from '../../contract/failure-types.js';

export const TRACKING_DEFAULTS = {
  heartbeatTimeout: '2.5 seconds',
  roundTimeout: '10 minutes',
  pollInitialInterval: '200 milliseconds',
  pollMaxInterval: '5 seconds',
  unreachableTimeout: '2 minutes',
  pushSafetyNetInterval: '5 minutes',
  pushWakeUpsPerMinute: 30,
} as const satisfies Required<TrackingOptions>;

export interface TrackingSettings {
  heartbeatMs: number;
  roundMs: number;
  pollInitialMs: number;
  pollMaxMs: number;
  unreachableMs: number;
  pushSafetyNetMs: number;
  pushWakeUpsPerMinute: number;
  /** The user's deadline for an answer, if any. */
  inputTimeoutMs?: number;
  /** The user's deadline for the whole delegation, if any. */
  deadlineMs?: number;
}

/**
 * The delegation's settings in milliseconds.
 *
 * @throws ApplicationFailure `A2A_INVALID_INPUT` (non-retryable) naming the setting that is wrong.
 */
export function trackingSettings(
  input: Pick<DelegateInput, 'tracking' | 'inputTimeout' | 'deadline'>,
): TrackingSettings {
  const o = { ...TRACKING_DEFAULTS, ...input.tracking };
  try {
    const settings: TrackingSettings = {
      heartbeatMs: durationMs(o.heartbeatTimeout, 'tracking.heartbeatTimeout'),
      roundMs: durationMs(o.roundTimeout, 'tracking.roundTimeout'),
      pollInitialMs: durationMs(o.pollInitialInterval, 'tracking.pollInitialInterval'),
      pollMaxMs: durationMs(o.pollMaxInterval, 'tracking.pollMaxInterval'),
      unreachableMs: durationMs(o.unreachableTimeout, 'tracking.unreachableTimeout'),
      pushSafetyNetMs: durationMs(o.pushSafetyNetInterval, 'tracking.pushSafetyNetInterval'),
      pushWakeUpsPerMinute: positiveCount(o.pushWakeUpsPerMinute, 'tracking.pushWakeUpsPerMinute'),
    };
    const inputTimeoutMs = optionalDurationMs(input.inputTimeout, 'inputTimeout');
    const deadlineMs = optionalDurationMs(input.deadline, 'deadline');
    return {
      ...settings,
      ...(inputTimeoutMs === undefined ? {} : { inputTimeoutMs }),
      ...(deadlineMs === undefined ? {} : { deadlineMs }),
    };
  } catch (err) {
    if (!(err instanceof InvalidSettingError)) throw err;
    throw ApplicationFailure.nonRetryable(
      `${err.message} Nothing was sent; start the delegation again with a valid value.`,
      FailureType.invalidInput,
    );
  }
}

function positiveCount(value: unknown, setting: string): number {
  if (typeof value === 'number' && Number.isInteger(value) && value > 0) return value;
  throw new InvalidSettingError(`${setting} must be a positive whole number, got ${String(value).slice(0, 40)}.`);
}
