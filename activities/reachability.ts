/**
 * "Unreachable" counts only the time in which the agent did not answer at all: a task that works
 * for hours while the agent answers every request is followed for hours. A tracking activity
 * retries transient failures itself (with backoff, honouring `Retry-After`) and fails with
 * `A2A_AGENT_UNREACHABLE` once the agent has not answered for `unreachableMs`. The first failure's
 * time travels in the heartbeat details, so a new attempt after a crash goes on counting.
 */
import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { A2AError } from '../a2a/index.js';
import { StreamIdleTimeoutError } from '../a2a/errors.js';
import { FailureType } from '../contract/failure-types.js';

/** True for a failure that says nothing about the task, only that the agent did not answer this time. */
export function isTransient(err: unknown): err is A2AError {
  return err instanceof A2AError && err.retryable && !(err instanceof StreamIdleTimeoutError);
}

export class Reachability {
  private delayMs = 1_000;
  private lastError = '';

  constructor(
    private readonly agent: string,
    private readonly limitMs: number,
    /** When the agent stopped answering (epoch ms), as a previous attempt saw it. */
    public since?: number,
  ) {}

  /** The agent answered: the count starts again. */
  answered(): void {
    this.since = undefined;
    this.delayMs = 1_000;
  }

  /**
   * The agent did not answer (`err` is transient): waits before the next try, or fails for good
   * once the agent has not answered for the limit.
   *
   * @throws ApplicationFailure `A2A_AGENT_UNREACHABLE` (non-retryable) past the limit.
   */
  async failed(err: Pick<A2AError, 'message' | 'retryAfterMs'>): Promise<void> {
    const now = Date.now();
    this.since ??= now;
    this.lastError = err.message;
    const silentMs = now - this.since;
    if (silentMs >= this.limitMs) {
      throw ApplicationFailure.create({
        type: FailureType.agentUnreachable,
        nonRetryable: true,
        message: `Agent "${this.agent}" did not answer for ${Math.round(silentMs / 1000)} s (last error: ${this.lastError}). Start the agent or fix its URL in the agents file, then start the delegation again.`,
      });
    }
    const wait = Math.min(err.retryAfterMs ?? this.delayMs, this.limitMs - silentMs, 30_000);
    this.delayMs = Math.min(this.delayMs * 2, 30_000);
    await Context.current().sleep(Math.max(wait, 0));
  }
}
