/**
 * Turns what went wrong in an activity into what Temporal's retry policy understands:
 * retryable errors are retried with backoff (honouring `Retry-After`), everything else fails
 * fast as a non-retryable `ApplicationFailure` with a stable `type`.
 */
import { Context } from '@temporalio/activity';
import { ApplicationFailure, CancelledFailure } from '@temporalio/common';
import { A2AError } from '../a2a/index.js';
import { A2A_ERROR_TYPE_PREFIX, FailureType } from '../contract/failure-types.js';
import { agentLabel } from '../contract/telemetry.js';
import { AgentNotConfiguredError, AgentsFileError, CredentialMissingError } from './agent-registry.js';

/**
 * Maps any error thrown while talking to `agent` to the failure the activity should throw. A
 * cancellation, and a failure that ends the delegation, carry `details`: what the activity had
 * seen (the task id it created, the artifact chunks received), so nothing received is lost.
 */
export function toActivityFailure(err: unknown, agentName: string, details?: unknown): Error {
  if (err instanceof ApplicationFailure) {
    if (!err.nonRetryable || details === undefined || err.details?.length) return err;
    return ApplicationFailure.create({
      message: err.message,
      type: err.type ?? undefined,
      nonRetryable: true,
      details: [details],
      cause: err.cause,
    });
  }
  if (err instanceof CancelledFailure || isCancelled()) {
    return new CancelledFailure(
      'the activity was cancelled',
      details === undefined ? undefined : [details],
      err instanceof Error ? err : undefined,
    );
  }
  if (err instanceof A2AError) return a2aFailure(err, agentName, !err.retryable, details);
  if (err instanceof AgentNotConfiguredError || err instanceof AgentsFileError) {
    return ApplicationFailure.nonRetryable(err.message, FailureType.agentNotConfigured);
  }
  if (err instanceof CredentialMissingError) {
    return ApplicationFailure.nonRetryable(err.message, FailureType.credentialMissing);
  }
  // A bug of ours or an unexpected runtime error: let Temporal retry it and show it in the UI.
  return err instanceof Error ? err : new Error(String(err));
}

/**
 * The failure of an A2A error that is not tried again, retryable or not: e.g. the agent asked for
 * a wait (`Retry-After`) longer than the delegation gives an agent that does not answer.
 */
export function finalFailure(err: A2AError, agentName: string): ApplicationFailure {
  return a2aFailure(err, agentName, true);
}

function a2aFailure(err: A2AError, agentName: string, nonRetryable: boolean, details?: unknown): ApplicationFailure {
  // An agent named by URL is printed without user info or query string: a credential could hide there.
  return ApplicationFailure.create({
    type: A2A_ERROR_TYPE_PREFIX + err.code.replace(/^A2A_/, ''),
    message: `Agent "${agentLabel(agentName)}": ${err.message}`,
    nonRetryable,
    nextRetryDelay: err.retryAfterMs,
    cause: err,
    ...(nonRetryable && details !== undefined ? { details: [details] } : {}),
  });
}

/** Runs `fn`, mapping its errors with {@link toActivityFailure}; `seen` gives the details of a cancellation or a final failure. */
export async function asActivity<T>(agent: string, fn: () => Promise<T>, seen?: () => unknown): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw toActivityFailure(err, agent, seen?.());
  }
}

function isCancelled(): boolean {
  try {
    return Context.current().cancellationSignal.aborted;
  } catch {
    return false; // not inside an activity (unit tests of helpers)
  }
}
