/**
 * Turns verified deliveries into `taskUpdated` signals, few enough that no delegation's history
 * or workflow task can be flooded: per push config (workflow, task, config), one signal in flight
 * (each first asks the delegation, whose answer then reflects the signals before it) and one per
 * `intervalMs` on average — a bucket of {@link SIGNAL_BURST} signals that refills one per
 * interval, so two deliveries in quick succession after a quiet interval go one right after
 * the other (after an answer, agents deliver the answered question's state and then the news;
 * the news must not wait a second behind it). A delivery that finds the bucket empty, a signal
 * in flight or others waiting is coalesced (answered 202): exactly one more signal follows when
 * the bucket allows ("trailing edge"), carrying what they showed (`merge`), so the last state is
 * never missed. A delegation that answers `later` (it is reading the task) is asked again soon
 * after, backing off to {@link LATER_MAX_MS}. A signal Temporal does not take is tried again, a
 * few times, an interval apart.
 * The same news twice (see `DeliveryNotice.generation`: the same status, or the same bytes) is
 * signalled once.
 *
 * Why it matters: every signal is a history event and a job of the delegation's next workflow
 * task. Unbounded, 300 deliveries a second piled up thousands of jobs into one activation, which
 * then ran past the SDK's isolate execution timeout (5 s); V8 stopped it in the middle of a
 * promise reaction, which leaves Node's async-hooks stack unbalanced, and the workflow thread
 * aborted the whole worker ("async hook stack has become corrupted"). See docs/push.md.
 */
import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { PushBinding } from '../activities/push-credential.js';
import type { NotifyOutcome } from './webhook-notifier.js';

/** What became of a delivery offered to the coalescer. */
export type CoalescedOutcome = 'signaled' | 'accepted' | 'coalesced' | 'duplicate' | 'stale' | 'gone';

/** What became of a signal sent later for coalesced deliveries. */
export type TrailingOutcome = 'signaled' | 'stale' | 'gone' | 'failed';

/** `T` is what a signal carries (the notice, and what else the caller needs to send it). */
export interface CoalescerOptions<T> {
  intervalMs: number;
  /**
   * Sends the signal: `delivered`, `stale` when the delegation said it would not act on it (no
   * signal), `gone` when the workflow no longer runs; throws when Temporal did not take it.
   */
  signal(binding: PushBinding, payload: T): Promise<NotifyOutcome>;
  /**
   * What one signal carries for two coalesced deliveries, `pending` the earlier. The default is
   * the later one; it must not lose what made either worth a signal (see the receiver's).
   */
  merge?(pending: T, next: T): T;
  /** Hears how each trailing signal ended (for counters and the log). */
  trailing(binding: PushBinding, outcome: TrailingOutcome, error?: unknown): void;
  now?: () => number;
}

interface Target<T> {
  binding: PushBinding;
  /** Signals that may be sent now (fractions refill over time), at most {@link SIGNAL_BURST}. */
  tokens: number;
  /** When `tokens` was last brought up to date (ms, `now()`'s clock). */
  refilledAt: number;
  /** Signals sent and not answered yet, at most {@link MAX_IN_FLIGHT}. */
  inFlight: number;
  /** `later` answers in a row (the delegation was reading the task each time it was asked). */
  laters: number;
  /** When the delegation may be asked again after a `later` (ms, `now()`'s clock). */
  askAfter: number;
  /** The coalesced deliveries (merged), to be signalled when the interval has passed. */
  pending?: T;
  timer?: NodeJS.Timeout;
  /** The workflow no longer runs: deliveries are answered 410 without asking Temporal again. */
  gone: boolean;
  /** Trailing signals Temporal did not take in a row. */
  failures: number;
}

/** Push configs whose state is kept (the least recently used are forgotten first). */
const MAX_TARGETS = 10_000;
/** How long a push config's state is kept after its last delivery. */
const TARGET_TTL_MS = 10 * 60_000;
/** Generations remembered for replay protection, all configs together. */
const MAX_SEEN = 65_536;
/** Signals one push config may get at once after a quiet while (one per interval on average). */
const SIGNAL_BURST = 2;
/** Signals one push config has in flight at most. */
const MAX_IN_FLIGHT = 1;
/** How soon a delegation that answered `later` is asked again; doubled each time it says so in a row. */
const LATER_FIRST_MS = 100;
/**
 * The longest wait before asking again after `later` (a send's activity may take a while: its
 * news must not wait much longer than it; a query to a cached workflow costs no history).
 */
const LATER_MAX_MS = 1000;
/** A signal Temporal did not take is tried this many times more. */
const SIGNAL_RETRIES = 3;

export class DeliveryCoalescer<T extends object> {
  private readonly targets = new LRUCache<string, Target<T>>({ max: MAX_TARGETS, ttl: TARGET_TTL_MS });
  private readonly seen = new LRUCache<string, true>({ max: MAX_SEEN, ttl: TARGET_TTL_MS });
  private readonly timers = new Set<NodeJS.Timeout>();
  /** The signals under way, which `close` waits for. */
  private readonly sending = new Set<Promise<unknown>>();
  private readonly now: () => number;
  private closed = false;

  constructor(private readonly options: CoalescerOptions<T>) {
    this.now = options.now ?? (() => performance.now());
  }

  /**
   * Offers a verified delivery worth a signal. `signaled`, `stale` and `gone` come from a signal sent now;
   * `accepted` (with `inBackground`), that it is being sent without waiting for it; `coalesced`,
   * that one will follow when the bucket allows (or when the delegation, which answered `later`,
   * has read the task); `duplicate`, that this news was signalled already.
   * `inBackground`: do not wait for the signal, for one that may take long (the receiver asks the
   * delegation first) while the sender waits for the answer before its next delivery.
   * @throws what `signal` threw, when a signal sent now failed (it is tried again later, and a sender's retry is taken too).
   */
  async offer(binding: PushBinding, payload: T, generation: string, inBackground = false): Promise<CoalescedOutcome> {
    const key = JSON.stringify([binding.workflowId, binding.taskId, binding.configId]);
    let target = this.targets.get(key);
    if (!target) {
      target = {
        binding,
        tokens: SIGNAL_BURST,
        refilledAt: this.now(),
        inFlight: 0,
        laters: 0,
        askAfter: 0,
        gone: false,
        failures: 0,
      };
      this.targets.set(key, target);
    }
    if (target.gone) return 'gone';
    const news = createHash('sha256').update(key).update('\n').update(generation).digest('base64url');
    if (this.seen.has(news)) return 'duplicate';
    this.seen.set(news, true);

    const now = target.inFlight < MAX_IN_FLIGHT && !target.pending && this.ready(target);
    if (now && inBackground) {
      target.pending = payload;
      this.schedule(target);
      return 'accepted';
    }
    if (now) {
      try {
        const outcome = await this.send(target, payload);
        target.failures = 0;
        if (outcome === 'later') {
          this.askLater(target, payload);
          return 'coalesced'; // one more signal follows
        }
        return outcome === 'delivered' ? 'signaled' : outcome;
      } catch (err) {
        // Senders rarely retry (the SDKs' never do): it is tried again like a trailing signal.
        // A sender that does retry is taken again too (coalesced with the retry under way).
        this.seen.delete(news);
        this.retryLater(target, payload);
        throw err;
      }
    }
    target.pending = this.merged(target.pending, payload);
    this.schedule(target);
    return 'coalesced';
  }

  /**
   * Stops the trailing signals not yet sent, and settles once those under way have: the
   * Temporal connection they use can be closed then.
   */
  async close(): Promise<void> {
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    await Promise.allSettled([...this.sending]);
  }

  /** Whether a signal may go now (the bucket holds one, and no `later` asked to wait). */
  private ready(target: Target<T>): boolean {
    this.refill(target);
    return target.tokens >= 1 && this.now() >= target.askAfter;
  }

  private refill(target: Target<T>): void {
    const now = this.now();
    const refilled = this.options.intervalMs > 0 ? (now - target.refilledAt) / this.options.intervalMs : SIGNAL_BURST;
    target.tokens = Math.min(SIGNAL_BURST, target.tokens + refilled);
    target.refilledAt = now;
  }

  private async send(target: Target<T>, payload: T): Promise<NotifyOutcome> {
    this.refill(target);
    target.tokens -= 1;
    target.inFlight += 1;
    try {
      const signal = this.options.signal(target.binding, payload);
      this.sending.add(signal);
      void signal.finally(() => this.sending.delete(signal)).catch(() => {}); // the caller handles its failure
      const outcome = await signal;
      if (outcome === 'gone') {
        target.gone = true;
        target.pending = undefined;
      }
      if (outcome !== 'later') target.laters = 0;
      return outcome;
    } finally {
      target.inFlight -= 1;
      // Deliveries that waited for a free slot go when the bucket allows.
      if (target.pending) this.schedule(target);
    }
  }

  private schedule(target: Target<T>): void {
    if (target.timer || this.closed) return;
    this.refill(target);
    const due = Math.max(0, Math.ceil((1 - target.tokens) * this.options.intervalMs), target.askAfter - this.now());
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      target.timer = undefined;
      void this.fire(target);
    }, due);
    target.timer = timer;
    this.timers.add(timer);
  }

  private async fire(target: Target<T>): Promise<void> {
    if (this.closed || target.gone || !target.pending) return;
    // The slot is taken: the signal under way schedules this again when it returns.
    if (target.inFlight >= MAX_IN_FLIGHT) return;
    if (!this.ready(target)) return this.schedule(target);
    const payload = target.pending;
    target.pending = undefined;
    try {
      const outcome = await this.send(target, payload);
      target.failures = 0;
      if (outcome === 'later') this.askLater(target, payload);
      else this.options.trailing(target.binding, outcome === 'delivered' ? 'signaled' : outcome);
    } catch (err) {
      this.retryLater(target, payload);
      this.options.trailing(target.binding, 'failed', err);
    }
    if (target.pending) this.schedule(target);
  }

  /**
   * The delegation is reading the task: the notice is offered again after a while (merged with
   * what came meanwhile), sooner than a signal interval at first, since a read takes a moment.
   */
  private askLater(target: Target<T>, payload: T): void {
    target.laters += 1;
    target.askAfter = this.now() + Math.min(LATER_FIRST_MS * 2 ** (target.laters - 1), LATER_MAX_MS);
    // The asking spent no signal: the token comes back.
    target.tokens = Math.min(SIGNAL_BURST, target.tokens + 1);
    target.pending = target.pending === undefined ? payload : this.merged(payload, target.pending);
    this.schedule(target);
  }

  /** What one signal carries for two notices: `merge`d, or without it the newer one. */
  private merged(older: T | undefined, newer: T): T {
    return older !== undefined && this.options.merge ? this.options.merge(older, newer) : newer;
  }

  /** A signal Temporal did not take goes again after the interval (a few times), unless newer news replaced it. */
  private retryLater(target: Target<T>, payload: T): void {
    target.failures += 1;
    // A full interval before the retry, whatever the bucket held.
    target.tokens = Math.min(target.tokens, 0);
    if (target.failures > SIGNAL_RETRIES) return;
    target.pending ??= payload;
    this.schedule(target);
  }
}
