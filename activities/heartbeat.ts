/**
 * Heartbeats: how Temporal learns within seconds that a worker died (the attempt is retried
 * elsewhere) and how an activity hears that it was cancelled. Every activity of a delegation
 * heartbeats from the moment its request leaves, so a slow agent is never mistaken for a dead
 * worker (which would send the same message again).
 */
import { Context } from '@temporalio/activity';
import { SILENCE_NOTICE_MS } from './reachability.js';

/** Nothing in the first QUIET_MS: a call that ends that fast needs no heartbeat (a retry finds its work by message id). */
const QUIET_MS = 250;
const BEAT_MS = 200;

export interface Heartbeats {
  /** Heartbeats now (the SDK throttles it), e.g. on every event of a stream. */
  beat(): void;
  stop(): void;
}

/** Heartbeats `details()` on a timer well inside the heartbeat timeout, and on every {@link Heartbeats.beat}. */
export function heartbeating(details: () => unknown = () => undefined): Heartbeats {
  const context = Context.current();
  // A local activity has no heartbeat (push mode's reads): its workflow task stands for it.
  if (context.info.isLocal) return { beat() {}, stop() {} };
  let next = Date.now() + QUIET_MS;
  // Details are built at most every BEAT_MS (the SDK throttles what it sends anyway): a stream of
  // many small events must not rebuild them for each one.
  const beat = () => {
    const now = Date.now();
    if (now < next) return;
    next = now + BEAT_MS;
    context.heartbeat(details());
  };
  const timer = setInterval(beat, Math.max(200, Math.min(1_000, (context.info.heartbeatTimeoutMs ?? 3_000) / 3)));
  return { beat, stop: () => clearInterval(timer) };
}

/**
 * Runs one call (a request or two) with heartbeats while it is in flight. Once the call has
 * waited {@link SILENCE_NOTICE_MS}, the details say so (`unreachableSince`, `lastError`, as a
 * tracker's do), so `status` shows an agent that does not answer before the request times out.
 */
export async function whileHeartbeating<T>(fn: () => Promise<T>, details?: () => unknown): Promise<T> {
  const started = Date.now();
  const heartbeats = heartbeating(() => {
    const known = details?.();
    const waited = Date.now() - started;
    if (waited < SILENCE_NOTICE_MS) return known;
    return {
      ...(known && typeof known === 'object' ? known : {}),
      unreachableSince: started,
      lastError: `no answer for ${Math.round(waited / 1000)} s`,
    };
  });
  try {
    return await fn();
  } finally {
    heartbeats.stop();
  }
}
