import { ApplicationFailure } from '@temporalio/common';
import { FailureType } from '../contract/failure-types.js';
import { agentLabel } from '../contract/telemetry.js';

/**
 * What an activity may hand to its workflow. Temporal refuses payloads over 2 MB (and warns from
 * 256 KB); artifacts travel inline in history, so a bigger result would fail in the server with
 * a less helpful error.
 */
export const MAX_RESULT_BYTES = 1_500_000;

/** Returns `value` (`what` it is, e.g. `task T1`), or fails (not retryable) with a sentence naming the limit when it is too large. */
export function withinPayloadLimit<T>(value: T, agent: string, what: string): T {
  const bytes = Buffer.byteLength(JSON.stringify(value));
  if (bytes <= MAX_RESULT_BYTES) return value;
  throw ApplicationFailure.nonRetryable(
    `Agent "${agentLabel(agent)}" returned ${(bytes / 1e6).toFixed(1)} MB for ${what}, more than the ${MAX_RESULT_BYTES / 1e6} MB a Temporal payload may carry here (Temporal's hard limit is 2 MB). Ask the agent for a smaller result, or for links instead of inline files; a claim-check store is not built yet.`,
    FailureType.resultTooLarge,
  );
}
