/**
 * The names a2a-temporal's telemetry uses, shared by the workflows (input waits, delegation
 * metrics) and the worker (A2A requests, push deliveries). Span attributes follow
 * OpenTelemetry's HTTP semantic conventions plus this small `a2a.*` set; nothing here ever
 * carries a credential, message text or artifact content: only names, ids, states and counts.
 */

/** The `a2a.*` span attributes (docs/observability.md). */
export const A2A_ATTR = {
  /** The agent as the caller named it (a name from the agents file, or its URL without user info or query). */
  agent: 'a2a.agent',
  /** The A2A operation: `SendMessage`, `SendStreamingMessage`, `GetTask`, `GetAgentCard`, … */
  operation: 'a2a.operation',
  /** `JSONRPC` or `HTTP+JSON`. */
  binding: 'a2a.binding',
  /** `1.0` or `0.3`. */
  protocolVersion: 'a2a.protocol_version',
  taskId: 'a2a.task_id',
  contextId: 'a2a.context_id',
  /** `TASK_STATE_*` as last seen. */
  taskState: 'a2a.task_state',
  /** The input round: 1 for the first question of a delegation. */
  round: 'a2a.round',
  /** On a failed request: whether retrying can help. */
  retryable: 'a2a.retryable',
  /** Events received on a stream. */
  streamEvents: 'a2a.stream.events',
  /** Who answered a question (the answer's `by`, else `unknown`). */
  answeredBy: 'a2a.answer.by',
  /** How an input wait ended: `answered`, `resumed-by-agent`, `timeout`, `canceled`, `continued-as-new` (it goes on in the next run), `failed`. */
  inputOutcome: 'a2a.input.outcome',
  /** A push delivery: `accepted`, or the reason it was refused. */
  pushOutcome: 'a2a.push.outcome',
} as const;

/** Our metrics (docs/observability.md): name, unit. Emitted through the Temporal runtime's meter. */
export const A2A_METRIC = {
  delegationsStarted: 'a2a_delegations_started',
  delegationsCompleted: 'a2a_delegations_completed',
  delegationsFailed: 'a2a_delegations_failed',
  delegationRounds: 'a2a_delegation_rounds',
  inputWait: 'a2a_input_wait_duration',
  requestLatency: 'a2a_request_duration',
  activityRetries: 'a2a_activity_retries',
  pushDeliveries: 'a2a_push_deliveries',
  streamReconnects: 'a2a_stream_reconnects',
} as const;

/** Longest label value we record (agent names, `by`). */
const MAX_LABEL = 120;

/**
 * The agent as a label: a name stays as it is; a URL loses user info, query and fragment (a
 * credential could hide there). String operations only: this runs in workflows too.
 */
export function agentLabel(nameOrUrl: string): string {
  const scheme = nameOrUrl.indexOf('://');
  let label = nameOrUrl;
  if (scheme > 0) {
    const rest = nameOrUrl.slice(scheme + 3);
    let end = rest.length;
    for (const mark of ['?', '#']) {
      const at = rest.indexOf(mark);
      if (at !== -1 && at < end) end = at;
    }
    const hostAndPath = rest.slice(0, end);
    const slash = hostAndPath.indexOf('/');
    const authority = slash === -1 ? hostAndPath : hostAndPath.slice(0, slash);
    const at = authority.lastIndexOf('@');
    label = `${nameOrUrl.slice(0, scheme + 3)}${at === -1 ? hostAndPath : hostAndPath.slice(at + 1)}`;
  }
  return boundedLabel(label);
}

/** A label value cut to a bounded length. */
export function boundedLabel(value: string): string {
  return value.length > MAX_LABEL ? value.slice(0, MAX_LABEL) : value;
}
