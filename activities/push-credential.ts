/**
 * The per-delegation push credential, bound to the workflow, the task and the push config:
 * `base64url(HMAC-SHA256(secret, "a2a-push/credential\n" + workflowId + "\n" + taskId + "\n" + configId))`.
 * The config id is the workflow's own (a `uuid4()` of the run, carried across continue-as-new),
 * so the credential of one config is worthless for another: not for another task, not for
 * another run that reuses the workflow id, not for another registration. The activity that
 * registers a push config and the webhook receiver derive it from the receiver secret, so it
 * never travels through workflow inputs, results or history.
 *
 * The trace context a config's URL carries is tagged the same way ({@link pushTraceTag}): the
 * receiver links a delivery's span only to a context it issued itself for that config, never to
 * one a sender wrote into the query.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** What a push config is for: the workflow to signal, the task it follows, and the config's own id. */
export interface PushBinding {
  workflowId: string;
  taskId: string;
  configId: string;
}

/** The W3C trace context a push URL carries (`tracestate` only with `traceparent`). */
export interface TraceCarrier {
  traceparent: string;
  tracestate?: string;
}

/** Thrown for ids that cannot be bound: the line feed separates them in the MAC. */
export class UnbindableIdsError extends Error {
  override readonly name = 'UnbindableIdsError';
}

const hasLineFeed = ({ workflowId, taskId, configId }: PushBinding) =>
  workflowId.includes('\n') || taskId.includes('\n') || configId.includes('\n');

function mac(secret: string, purpose: string, binding: PushBinding, extra: readonly string[] = []): string {
  const { workflowId, taskId, configId } = binding;
  return createHmac('sha256', secret)
    .update([`a2a-push/${purpose}`, workflowId, taskId, configId, ...extra].join('\n'))
    .digest('base64url');
}

/** True when `given` is `expected` under one of `secrets`, compared in constant time and without an early exit. */
function matchesAny(given: string, secrets: readonly string[], expected: (secret: string) => string): boolean {
  const presented = Buffer.from(given, 'utf8');
  let valid = false;
  for (const secret of secrets) {
    const want = Buffer.from(expected(secret), 'utf8');
    // Every secret is checked (no early exit), so the time does not tell which one matched.
    if (presented.length === want.length && timingSafeEqual(presented, want)) valid = true;
  }
  return valid;
}

/**
 * The credential an agent must present when it delivers the updates of `binding`'s task.
 * @throws UnbindableIdsError when an id contains a line feed (two bindings would share a credential).
 */
export function pushCredential(secret: string, binding: PushBinding): string {
  if (hasLineFeed(binding)) {
    throw new UnbindableIdsError(
      'A workflow id, task id or push config id with a line feed cannot be given a push credential; use ids without line breaks.',
    );
  }
  return mac(secret, 'credential', binding);
}

/**
 * True when `given` is the credential of `binding` under one of `secrets` (the current one first,
 * then those being rotated out). Compared in constant time.
 */
export function isPushCredential(given: string, secrets: readonly string[], binding: PushBinding): boolean {
  if (hasLineFeed(binding)) return false;
  return matchesAny(given, secrets, (secret) => mac(secret, 'credential', binding));
}

/** The tag of the trace context a config's URL carries (see {@link verifiedTraceContext}). */
export function pushTraceTag(secret: string, binding: PushBinding, carrier: TraceCarrier): string {
  return mac(secret, 'trace', binding, [carrier.traceparent, carrier.tracestate ?? '']);
}

/**
 * The trace context of a delivery's query, when it is the one issued for `binding` (its tag
 * verifies under one of `secrets`); undefined otherwise, whatever the query says.
 */
export function verifiedTraceContext(
  query: { traceparent?: string; tracestate?: string; tag?: string },
  secrets: readonly string[],
  binding: PushBinding,
): TraceCarrier | undefined {
  const { traceparent, tracestate, tag } = query;
  if (!traceparent || !tag || hasLineFeed(binding)) return undefined;
  const carrier: TraceCarrier = { traceparent, ...(tracestate ? { tracestate } : {}) };
  return matchesAny(tag, secrets, (secret) => pushTraceTag(secret, binding, carrier)) ? carrier : undefined;
}
