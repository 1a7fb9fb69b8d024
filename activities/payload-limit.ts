import { ApplicationFailure } from '@temporalio/common';
import { FailureType } from '../contract/failure-types.js';
import { agentLabel } from '../contract/telemetry.js';

/**
 * What an activity may hand to its workflow when its payloads stay in history. Temporal refuses
 * payloads over 2 MB (and warns from 256 KB), so a bigger result would fail in the server with a
 * less helpful error. A worker with a blob store (External Storage) has no such limit: its large
 * payloads become claims, and its files are in the store anyway (artifact-spool.ts).
 */
export const MAX_RESULT_BYTES = 1_500_000;

/**
 * Returns `value` (`what` it is, e.g. `task T1`), or fails (not retryable) with a sentence naming
 * the limit when it is too large. `offloaded`: large payloads go to a blob store: nothing to check.
 */
export function withinPayloadLimit<T>(value: T, agent: string, what: string, offloaded = false): T {
  if (offloaded) return value;
  const bytes = Buffer.byteLength(JSON.stringify(value));
  if (bytes <= MAX_RESULT_BYTES) return value;
  throw ApplicationFailure.nonRetryable(
    `Agent "${agentLabel(agent)}" returned ${(bytes / 1e6).toFixed(1)} MB for ${what}, more than the ${MAX_RESULT_BYTES / 1e6} MB a Temporal payload may carry here (Temporal's hard limit is 2 MB). Ask the agent for a smaller result, or for links instead of inline files, or give the worker a blob store (docs/files.md).`,
    FailureType.resultTooLarge,
  );
}
