/**
 * Where an agent delivers the updates of one delegation's task:
 * `<publicUrl>/a2a/push/<workflowId>/<taskId>/<configId>` (each segment URL-encoded), with
 * `?traceparent=…&tracestate=…&tracetag=…` when the registration ran in a trace. The path names
 * the workflow to signal and the config, so the receiver needs no lookup; the credential binds
 * all three ids, and the tag binds the trace context to them.
 */
import type { PushBinding, TraceCarrier } from './push-credential.js';

/** The receiver's path prefix. */
export const PUSH_PATH_PREFIX = '/a2a/push/';

/** The query parameter that carries the tag of the URL's trace context. */
const TRACE_TAG_PARAM = 'tracetag';

/** The longest trace context value read from a query (a `traceparent` is 55 characters). */
const MAX_TRACE_VALUE_LENGTH = 512;

/** The webhook URL the push config of `binding` points at; `trace` adds its context and tag to the query. */
export function pushUrl(
  publicUrl: string,
  binding: PushBinding,
  trace?: { carrier: TraceCarrier; tag: string },
): string {
  const base = publicUrl.replace(/\/+$/, '');
  const path = [binding.workflowId, binding.taskId, binding.configId].map(encodeURIComponent).join('/');
  if (!trace) return `${base}${PUSH_PATH_PREFIX}${path}`;
  const query = new URLSearchParams({ ...trace.carrier, [TRACE_TAG_PARAM]: trace.tag });
  return `${base}${PUSH_PATH_PREFIX}${path}?${query.toString()}`;
}

/** The ids in a delivery path (`/a2a/push/<workflowId>/<taskId>/<configId>`, query ignored), or undefined when it is not one. */
export function parsePushPath(path: string): PushBinding | undefined {
  const pathname = path.split('?', 1)[0] ?? '';
  if (!pathname.startsWith(PUSH_PATH_PREFIX)) return undefined;
  const segments = pathname.slice(PUSH_PATH_PREFIX.length).split('/');
  if (segments.length !== 3 || segments.some((s) => s.length === 0)) return undefined;
  try {
    const [workflowId, taskId, configId] = segments.map(decodeURIComponent) as [string, string, string];
    return { workflowId, taskId, configId };
  } catch {
    return undefined; // malformed percent-encoding
  }
}

/** The trace context and its tag as a delivery's query states them: a claim, until the tag is verified. */
export function traceQueryOf(path: string): { traceparent?: string; tracestate?: string; tag?: string } {
  const at = path.indexOf('?');
  if (at === -1) return {};
  const params = new URLSearchParams(path.slice(at + 1));
  const read = (key: string) => {
    const value = params.get(key);
    return value && value.length <= MAX_TRACE_VALUE_LENGTH ? value : undefined;
  };
  const found = { traceparent: read('traceparent'), tracestate: read('tracestate'), tag: read(TRACE_TAG_PARAM) };
  return Object.fromEntries(Object.entries(found).filter(([, v]) => v !== undefined));
}
