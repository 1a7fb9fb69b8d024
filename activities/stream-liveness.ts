/**
 * A2A streams carry no keep-alives, so a stream whose connection went half-open (no byte moves,
 * nothing closes it) looks exactly like an agent at work. While a stream is silent, its task is
 * read with GetTask on another request: after half the heartbeat timeout, then at doubling
 * intervals up to the idle timeout while the task shows nothing new (a quiet task costs one read
 * per idle timeout, less than poll mode). A read that shows the task ahead of the stream ends the
 * stream (the caller reads the task and subscribes again); a read the agent does not answer within
 * half the heartbeat timeout counts as silence, which the status shows at once, and the stream is
 * kept (it may still deliver) until the agent has been silent for the whole unreachable budget.
 */
import { log } from '@temporalio/activity';
import type { A2AClient, Task } from '../a2a/index.js';
import { ResponseTooLargeError } from '../a2a/errors.js';
import { isTransient, type Reachability } from './reachability.js';
import type { TaskView } from './task-outcome.js';

export interface StreamWatch {
  /** An event arrived: the silence starts again. */
  heard(): void;
  stop(): void;
}

export interface StreamWatchOptions {
  client: A2AClient;
  view: TaskView;
  reach: Reachability;
  /** The first read after this much silence; each read may take as long. */
  probeMs: number;
  /** The longest pause between reads while nothing changes (the stream's idle timeout). */
  maxIntervalMs: number;
  /** The round's: aborts a read in flight. */
  signal: AbortSignal;
  /** End the stream: the task is ahead of what it delivered, or the agent has not answered for the whole budget. */
  endStream: () => void;
}

/** Watches a stream's silence until {@link StreamWatch.stop} (or until it calls `onBehind`, once). */
export function watchStream(options: StreamWatchOptions): StreamWatch {
  const { client, view, reach, probeMs, maxIntervalMs } = options;
  // A read in flight when the stream ends is dropped with it (made with the first read: most
  // streams end without one, and aborting a signal makes an error with a stack).
  let stopping: AbortController | undefined;
  let lastHeard = Date.now();
  let interval = probeMs;
  let stopped = false;
  let probing = false;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const schedule = () => {
    if (stopped || probing) return;
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(tick, Math.max(0, lastHeard + interval - Date.now()));
  };
  const tick = () => {
    timer = undefined;
    if (stopped) return;
    // An event came in meanwhile: wait the rest of the (restarted) silence.
    if (Date.now() - lastHeard < interval) return schedule();
    probing = true;
    void probe().finally(() => {
      probing = false;
      lastHeard = Date.now();
      schedule();
    });
  };
  const probe = async () => {
    if (!view.task.id) return;
    const askedAt = reach.asking('GetTask');
    try {
      stopping ??= new AbortController();
      const signal = AbortSignal.any([options.signal, stopping.signal]);
      const task = await client.getTask({ id: view.task.id, historyLength: 0 }, { signal, timeoutMs: probeMs });
      if (stopped) return;
      reach.answered();
      if (fingerprintOf(task) !== view.fingerprint()) {
        stopped = true;
        log.info('the task is ahead of its silent stream; subscribing again', { taskId: view.task.id });
        options.endStream();
        return;
      }
      interval = Math.min(interval * 2, maxIntervalMs);
    } catch (err) {
      if (stopped) return;
      // A task too large to read whole (its files so far) can only be followed by its stream:
      // reading it again would cost the agent the whole task each time, for nothing.
      if (err instanceof ResponseTooLargeError) {
        stopped = true;
        log.info('the task is too large to read whole; following its stream only', { taskId: view.task.id });
        return;
      }
      interval = probeMs;
      // Anything else (the task is gone, an invalid answer) is the stream's to report, not the probe's.
      if (!isTransient(err)) return;
      reach.noted(err, askedAt);
      // Silent past the budget: the caller's read fails the round as unreachable.
      if (reach.exhausted) {
        stopped = true;
        options.endStream();
      }
    }
  };
  schedule();
  return {
    heard() {
      lastHeard = Date.now();
      if (interval === probeMs) return; // the timer already checks the restarted silence
      interval = probeMs;
      schedule();
    },
    stop() {
      stopped = true;
      if (timer !== undefined) clearTimeout(timer);
      stopping?.abort();
    },
  };
}

/** What {@link TaskView.fingerprint} says of the same task read whole. */
function fingerprintOf(task: Task): string {
  const parts = (task.artifacts ?? []).map((a) => `${a.artifactId}:${a.parts.length}`).join(',');
  return `${task.status.state}|${task.status.timestamp}|${parts}`;
}
