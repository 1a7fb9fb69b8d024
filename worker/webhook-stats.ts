/** The webhook receiver's counters (`GET /a2a/push/stats` on the stats listener, or `stats()` in code). */

/** Why a delivery was refused; each maps to one HTTP status. */
export const REJECTION_STATUS = {
  /** No such route. */
  'not-found': 404,
  /** Not a POST. */
  'method-not-allowed': 405,
  /** Body over the size limit (declared or counted). */
  'too-large': 413,
  /** No credential (`Authorization: Bearer` or `X-A2A-Notification-Token`). */
  unauthenticated: 401,
  /** A credential that is not the one of this workflow and task. */
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

export type RejectionReason = keyof typeof REJECTION_STATUS;

export interface WebhookStats {
  /** Requests to a delivery path. */
  received: number;
  /** Verified deliveries signalled to their workflow. */
  signaled: number;
  /** Verified deliveries that showed only progress (working, artifact chunks): answered 200, no signal. */
  progress: number;
  /** Verified deliveries for a workflow that no longer runs (answered 410). */
  gone: number;
  /** Verified deliveries Temporal could not take (answered 503). */
  failed: number;
  /** Refused requests by reason; nothing reached a workflow. */
  rejected: Record<RejectionReason, number>;
}

export function emptyStats(): WebhookStats {
  const rejected = Object.fromEntries(Object.keys(REJECTION_STATUS).map((reason) => [reason, 0])) as Record<
    RejectionReason,
    number
  >;
  return { received: 0, signaled: 0, progress: 0, gone: 0, failed: 0, rejected };
}

/** The total of refused requests. */
export function rejectedTotal(stats: WebhookStats): number {
  return Object.values(stats.rejected).reduce((sum, n) => sum + n, 0);
}
