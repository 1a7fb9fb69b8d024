/**
 * Durations as users write them (`'30 seconds'`, `'2 days'`, or milliseconds), parsed the way the
 * Temporal SDK parses them (the `ms` package), but checked: a value Temporal would choke on
 * inside a workflow task (and retry forever) is refused with a sentence instead. Sandbox-safe:
 * the CLI checks flags with it before it starts anything, workflows check their input with it.
 */
import ms, { type StringValue } from 'ms';
import type { Duration } from '@temporalio/common';

/** Thrown for a setting that is not valid; the message names the setting and shows the form expected. */
export class InvalidSettingError extends RangeError {
  override readonly name: string = 'InvalidSettingError';
}

/** Thrown for a duration that is not one. */
export class InvalidDurationError extends InvalidSettingError {
  override readonly name = 'InvalidDurationError';
}

/** The longest duration accepted (about 100 years): beyond it Temporal's timers overflow. */
const MAX_MS = 100 * 365 * 24 * 3600 * 1000;

/**
 * Milliseconds of `value`, a positive duration.
 *
 * @throws InvalidDurationError naming `setting` when `value` is not a positive duration.
 */
export function durationMs(value: Duration | unknown, setting: string): number {
  const parsed =
    typeof value === 'number'
      ? value
      : typeof value === 'string' && value.trim()
        ? ms(value.trim() as StringValue)
        : NaN;
  if (typeof parsed !== 'number' || !Number.isFinite(parsed) || parsed <= 0 || parsed > MAX_MS) {
    const shown = typeof value === 'string' ? `"${value.slice(0, 40)}"` : String(value).slice(0, 40);
    throw new InvalidDurationError(
      `${setting} must be a positive duration such as "30 seconds", "10 minutes" or "2 days" (or milliseconds), got ${shown}.`,
    );
  }
  return Math.round(parsed);
}

/** {@link durationMs} for an optional setting: `undefined` stays `undefined`. */
export function optionalDurationMs(value: Duration | undefined, setting: string): number | undefined {
  return value === undefined ? undefined : durationMs(value, setting);
}
