/** The webhook receiver's counters (`GET /a2a/push/stats` on the stats listener, or `stats()` in code). */
import type { ProcessGauges } from './process-gauges.js';

/** Why a delivery was refused; each maps to one HTTP status. */
export const REJECTION_STATUS = {
  /** Over the global or the sender's request rate (answered with `Retry-After`). */
  'rate-limited': 429,
  /** No such route. */
  'not-found': 404,
  /** Not a POST. */
  'method-not-allowed': 405,
  /** Body over the size limit (declared or counted). */
  'too-large': 413,
  /** No credential (`Authorization: Bearer` or `X-A2A-Notification-Token`). */
  unauthenticated: 401,
  /** A credential that is not the one of this workflow, task and push config. */
  'bad-credential': 403,
  /** Neither `application/a2a+json` nor `application/json`. */
  'unsupported-media-type': 415,
  /** Not JSON, or not a StreamResponse / 0.3 task event. */
  malformed: 400,
  /** A task id, message id or state longer than 256 characters (in the path or the body). */
  'id-too-long': 400,
  /** The body is about another task than the path (and the credential) names. */
  'task-mismatch': 403,
} as const;

/** Why the webhook receiver refused a delivery, as counted in its stats. See [docs/push.md](../docs/push.md). */
export type RejectionReason = keyof typeof REJECTION_STATUS;

/** The webhook receiver's counters: deliveries received, signalled, coalesced and refused by reason. See [docs/push.md](../docs/push.md#counters-memory-and-event-loop-delay). */
export interface WebhookStats {
  /** Requests answered (connections closed by a cap or a timeout are under `connections`). */
  received: number;
  /** `taskUpdated` signals Temporal took, sent at once or later for coalesced deliveries. */
  signaled: number;
  /** Of `signaled`, those sent later for coalesced or accepted deliveries (the trailing edge). */
  trailing: number;
  /**
   * Verified deliveries showing a question, answered 202 at once and signalled in the background
   * (after asking the delegation whether it is stale); how each ended is counted as a trailing signal.
   */
  accepted: number;
  /** Verified deliveries answered 202 while a signal to their push config was in flight or too recent: one more signal follows. */
  coalesced: number;
  /** Verified deliveries whose news (status, or bytes) was signalled already: answered 200, no signal. */
  duplicate: number;
  /** Verified deliveries that showed only progress (working, artifact chunks): answered 200, no signal. */
  progress: number;
  /**
   * Verified deliveries (at once or coalesced) the delegation said it would not act on, e.g. the
   * question it already answered: no signal (answered 200 when the delivery was asked about at once).
   */
  stale: number;
  /** Verified deliveries for a workflow that no longer runs (answered 410). */
  gone: number;
  /** Signals Temporal did not take (answered 503, or a trailing signal that failed). */
  failed: number;
  /** Refused requests by reason; nothing reached a workflow. */
  rejected: Record<RejectionReason, number>;
  /** Connections: open now, and closed by a cap or a timeout. */
  connections: {
    /** Open now. */
    open: number;
    /** Closed on arrival: the receiver held `maxConnections` already. */
    overLimit: number;
    /** Closed on arrival: their source held `maxConnectionsPerSource` already. */
    overSourceLimit: number;
    /** Closed because the headers, the request or an idle keep-alive took too long. */
    timedOut: number;
    /** Closed for bytes that are not HTTP. */
    badRequests: number;
  };
  /** The process's memory and event-loop delay (on the stats listener only). */
  process?: ProcessGauges;
}

export function emptyStats(): WebhookStats {
  const rejected = Object.fromEntries(Object.keys(REJECTION_STATUS).map((reason) => [reason, 0])) as Record<
    RejectionReason,
    number
  >;
  return {
    received: 0,
    signaled: 0,
    trailing: 0,
    accepted: 0,
    coalesced: 0,
    duplicate: 0,
    progress: 0,
    stale: 0,
    gone: 0,
    failed: 0,
    rejected,
    connections: { open: 0, overLimit: 0, overSourceLimit: 0, timedOut: 0, badRequests: 0 },
  };
}

/** The total of refused requests. */
export function rejectedTotal(stats: WebhookStats): number {
  return Object.values(stats.rejected).reduce((sum, n) => sum + n, 0);
}
