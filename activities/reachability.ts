/**
 * "Unreachable" counts only the time in which the agent did not answer at all: a task that works
 * for hours while the agent answers every request is followed for hours. A tracking activity
 * retries transient failures itself (with backoff, honouring `Retry-After`) and fails with
 * `A2A_AGENT_UNREACHABLE` once the agent has not answered for `unreachableMs`. The silence is
 * counted from when the request that got no answer left (a request that hangs for its whole
 * timeout counts from its start, not its end). The first failure's time travels in the heartbeat
 * details, so a new attempt after a crash goes on counting.
 *
 * What the status shows while it is wrong: a request still unanswered after `noticeMs`
 * ({@link SILENCE_NOTICE_MS}) is reported as silence at once, before it times out, with the request named.
 */
import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { A2AError } from '../a2a/index.js';
import { StreamIdleTimeoutError } from '../a2a/errors.js';
import { FailureType } from '../contract/failure-types.js';

/**
 * How long silence lasts before it is looked into (a stream without events gets a GetTask) or
 * shown (a request without an answer), and how long such a look may take. Not derived from the
 * heartbeat timeout, which says how fast a dead worker is noticed and may be set longer (a slow
 * link to Temporal) or shorter: an agent that takes a second to answer is not silent.
 */
export const SILENCE_NOTICE_MS = 2_500;

/** True for a failure that says nothing about the task, only that the agent did not answer this time. */
export function isTransient(err: unknown): err is A2AError {
  return err instanceof A2AError && err.retryable && !(err instanceof StreamIdleTimeoutError);
}

/** What the status shows of an agent that does not answer: since when, and the last thing that went wrong. */
export interface Silence {
  /** Epoch ms. */
  since: number;
  /** One line, at most 300 characters. */
  lastError: string;
  /** Requests left unanswered since then (the one in flight, once overdue, included). */
  attempts: number;
  /** When the next request leaves (epoch ms), while waiting to ask again. */
  nextAttemptAt?: number;
  /** When the delegation gives up on the agent (epoch ms): `since` plus the unreachable timeout. */
  givesUpAt: number;
}

const MAX_ERROR_TEXT = 300;

export class Reachability {
  private delayMs = 1_000;
  private lastError = '';
  /** Requests unanswered since {@link since}. */
  private unanswered = 0;
  /** While waiting before the next request: when it leaves (epoch ms). */
  private nextAt: number | undefined;
  /** The request in flight: what it is and when it left. */
  private asked: { what: string; at: number } | undefined;
  /** Whether the agent was silent when {@link onSilenceChange}'s listener last heard (or at the start). */
  private shownSilent: boolean;
  private listener: ((silent: boolean) => void) | undefined;
  /** Fires when the request in flight becomes overdue (silence that no failure has said yet). */
  private overdueTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly agent: string,
    private readonly limitMs: number,
    /** When the agent stopped answering (epoch ms), as a previous attempt saw it. */
    public since?: number,
    /** A request unanswered for this long shows as silence. */
    private readonly noticeMs = SILENCE_NOTICE_MS,
  ) {
    this.shownSilent = since !== undefined;
  }

  /**
   * Calls `listener` whenever the silence {@link silence} shows starts (a failure, or a request
   * overdue) or ends (the agent answered). Once per change, never for the state at the start.
   */
  onSilenceChange(listener: (silent: boolean) => void): void {
    this.listener = listener;
  }

  /** Whether {@link silence} shows the agent silent now. */
  get silent(): boolean {
    return this.silence() !== undefined;
  }

  private changed(): void {
    const silent = this.silent;
    if (silent === this.shownSilent) return;
    this.shownSilent = silent;
    this.listener?.(silent);
  }

  private watchOverdue(): void {
    clearTimeout(this.overdueTimer);
    this.overdueTimer = this.asked ? setTimeout(() => this.changed(), this.noticeMs).unref() : undefined;
  }

  /** A request (`what`, e.g. `GetTask`) leaves now; returns when it left, for {@link failed}. */
  asking(what: string): number {
    const at = Date.now();
    this.asked = { what, at };
    this.nextAt = undefined;
    this.watchOverdue();
    return at;
  }

  /** The agent answered: the count starts again. */
  answered(): void {
    this.since = undefined;
    this.asked = undefined;
    this.unanswered = 0;
    this.nextAt = undefined;
    this.delayMs = 1_000;
    this.watchOverdue();
    this.changed();
  }

  /**
   * A request that left at `askedAt` got no answer (`err` is transient): counts the silence from
   * then, without waiting (a probe that failed beside a stream that may still be fine).
   */
  noted(err: Pick<A2AError, 'message'>, askedAt = Date.now()): number {
    this.since = Math.min(this.since ?? askedAt, askedAt);
    this.asked = undefined;
    this.unanswered += 1;
    this.lastError = err.message.split('\n', 1)[0]!.slice(0, MAX_ERROR_TEXT);
    this.watchOverdue();
    this.changed();
    return Date.now() - this.since;
  }

  /**
   * The agent did not answer (`err` is transient) a request that left at `askedAt`: waits before
   * the next try, or fails for good once the agent has not answered for the limit.
   *
   * @throws ApplicationFailure `A2A_AGENT_UNREACHABLE` (non-retryable) past the limit.
   */
  async failed(err: Pick<A2AError, 'message' | 'retryAfterMs'>, askedAt = Date.now()): Promise<void> {
    const silentMs = this.noted(err, askedAt);
    if (silentMs >= this.limitMs) {
      throw ApplicationFailure.create({
        type: FailureType.agentUnreachable,
        nonRetryable: true,
        message: `Agent "${this.agent}" did not answer for ${Math.round(silentMs / 1000)} s (last error: ${this.lastError}). Start the agent or fix its URL in the agents file, then start the delegation again.`,
      });
    }
    const wait = Math.min(err.retryAfterMs ?? this.delayMs, this.limitMs - silentMs, 30_000);
    this.delayMs = Math.min(this.delayMs * 2, 30_000);
    this.nextAt = Date.now() + Math.max(wait, 0);
    await Context.current().sleep(Math.max(wait, 0));
  }

  /**
   * How long the next request may wait for its answer: what is left of the unreachable budget
   * (at least 1 s, so an agent that answers at once is heard), never more than `ms`. A request
   * hanging on a half-open connection thus fails within the budget, not after its own timeout.
   */
  timeoutFor(ms: number, now = Date.now()): number {
    return Math.min(ms, Math.max(1_000, this.limitMs - (now - (this.since ?? now))));
  }

  /** What is left of the budget (ms): how much longer the agent may stay silent before the delegation gives up. */
  leftMs(now = Date.now()): number {
    return this.limitMs - (now - (this.since ?? now));
  }

  /** True once the agent has not answered for the whole budget. */
  get exhausted(): boolean {
    return this.since !== undefined && Date.now() - this.since >= this.limitMs;
  }

  /** The silence to show now: since the first unanswered request, or the one in flight once it is overdue. */
  silence(now = Date.now()): Silence | undefined {
    const overdue = this.asked && now - this.asked.at >= this.noticeMs ? this.asked : undefined;
    if (this.since === undefined && !overdue) return undefined;
    const since = Math.min(this.since ?? Infinity, overdue?.at ?? Infinity);
    const lastError = overdue
      ? `${overdue.what}: no answer for ${Math.round((now - overdue.at) / 1000)} s`
      : this.lastError || 'no answer';
    return {
      since,
      lastError,
      attempts: this.unanswered + (overdue ? 1 : 0),
      ...(this.nextAt !== undefined && !this.asked ? { nextAttemptAt: this.nextAt } : {}),
      givesUpAt: since + this.limitMs,
    };
  }
}
