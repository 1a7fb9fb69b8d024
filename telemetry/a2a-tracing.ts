/**
 * One CLIENT span per outbound A2A request, child of the activity that makes it, and the W3C
 * trace context (`traceparent`, `tracestate`) on the request, so an agent that reads it puts its
 * side of the call into the same trace.
 *
 * The span is made here, around each operation of the client (it knows the operation, the
 * binding and the agent, and it sees the final verdict: the A2A error code and whether a retry
 * can help); the HTTP details (method, URL, status code) come from the HTTP client's observer
 * hook, which also writes the context into the request's headers. A stream's span lasts until
 * the stream ends. Attributes are ids, names, states and counts: never message text, artifact
 * content, headers or credentials.
 */
import {
  context,
  createContextKey,
  propagation,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Span,
} from '@opentelemetry/api';
import { A2AError, type A2AClient, type HttpObserver, type StreamResponse, type Task } from '../a2a/index.js';
import { A2A_ATTR, agentLabel } from '../contract/telemetry.js';
import type { A2AMetrics } from './metrics.js';

const tracer = () => trace.getTracer('a2a-temporal');

/** Marks a context whose active span is an A2A operation's span (made by {@link tracedClient}). */
const OPERATION_SPAN = createContextKey('a2a-temporal operation span');

/**
 * Adds the trace context to every request, and the HTTP attributes to the operation's span. A
 * request made outside {@link tracedClient} (the agent card's GET) gets a span of its own.
 */
export const traceContextObserver: HttpObserver = {
  request({ method, url, operation }) {
    const own = context.active().getValue(OPERATION_SPAN) !== true;
    const span = own
      ? tracer().startSpan(`A2A ${operation ?? method}`, {
          kind: SpanKind.CLIENT,
          attributes: operation ? { [A2A_ATTR.operation]: operation } : {},
        })
      : trace.getActiveSpan();
    const headers: Record<string, string> = {};
    propagation.inject(span ? trace.setSpan(context.active(), span) : context.active(), headers);
    if (span?.isRecording()) span.setAttributes({ 'http.request.method': method, 'url.full': url, ...server(url) });
    return {
      headers,
      end: ({ status, error }) => {
        if (status !== undefined) span?.setAttribute('http.response.status_code', status);
        if (!own || !span) return;
        if (error !== undefined || (status !== undefined && status >= 400)) {
          span.setAttribute('error.type', error !== undefined ? codeOf(error) : String(status));
          span.setStatus({ code: SpanStatusCode.ERROR });
        }
        span.end();
      },
    };
  },
};

function server(url: string): Attributes {
  try {
    const u = new URL(url);
    const port = u.port ? Number(u.port) : u.protocol === 'https:' ? 443 : 80;
    return { 'server.address': u.hostname, 'server.port': port };
  } catch {
    return {};
  }
}

const UNARY = {
  sendMessage: 'SendMessage',
  getTask: 'GetTask',
  listTasks: 'ListTasks',
  cancelTask: 'CancelTask',
  createPushConfig: 'CreateTaskPushNotificationConfig',
  getPushConfig: 'GetTaskPushNotificationConfig',
  listPushConfigs: 'ListTaskPushNotificationConfigs',
  deletePushConfig: 'DeleteTaskPushNotificationConfig',
} as const;

const STREAMING = { sendStreamingMessage: 'SendStreamingMessage', subscribeToTask: 'SubscribeToTask' } as const;

/** `client`, with a span (and a latency sample) per operation. */
export function tracedClient(client: A2AClient, agent: string, metrics?: A2AMetrics): A2AClient {
  const base: Attributes = {
    [A2A_ATTR.agent]: agentLabel(agent),
    [A2A_ATTR.binding]: client.endpoint.binding,
    [A2A_ATTR.protocolVersion]: client.endpoint.protocolVersion,
  };
  const traced = Object.create(client) as Record<string, unknown>;
  for (const [method, operation] of Object.entries(UNARY)) {
    const call = (client[method as keyof typeof UNARY] as (...a: unknown[]) => Promise<unknown>).bind(client);
    traced[method] = (req: unknown, options: unknown) =>
      tracer().startActiveSpan(
        `A2A ${operation}`,
        { kind: SpanKind.CLIENT, attributes: { ...base, [A2A_ATTR.operation]: operation, ...idsOf(req) } },
        context.active().setValue(OPERATION_SPAN, true),
        async (span) => {
          const started = performance.now();
          try {
            const result = await call(req, options);
            span.setAttributes(taskAttributes(result));
            span.setStatus({ code: SpanStatusCode.OK });
            metrics?.request(agent, operation, performance.now() - started, 'ok');
            return result;
          } catch (error) {
            failed(span, error);
            metrics?.request(agent, operation, performance.now() - started, codeOf(error));
            throw error;
          } finally {
            span.end();
          }
        },
      );
  }
  for (const [method, operation] of Object.entries(STREAMING)) {
    const open = (client[method as keyof typeof STREAMING] as (...a: unknown[]) => AsyncGenerator<StreamResponse>).bind(
      client,
    );
    traced[method] = (req: unknown, options: unknown) => {
      if (method === 'subscribeToTask') metrics?.reconnect(agent);
      return tracedStream(
        operation,
        { ...base, [A2A_ATTR.operation]: operation, ...idsOf(req) },
        () => open(req, options),
        {
          agent,
          metrics,
        },
      );
    };
  }
  return traced as unknown as A2AClient;
}

/** A stream whose span covers it from the request to its end (or the consumer's leaving). */
async function* tracedStream(
  operation: string,
  attributes: Attributes,
  open: () => AsyncGenerator<StreamResponse>,
  { agent, metrics }: { agent: string; metrics: A2AMetrics | undefined },
): AsyncGenerator<StreamResponse, void, undefined> {
  const span = tracer().startSpan(`A2A ${operation}`, { kind: SpanKind.CLIENT, attributes });
  const ctx: Context = trace.setSpan(context.active().setValue(OPERATION_SPAN, true), span);
  // The generator's body runs inside next(): each step runs in the span's context, so the
  // request it opens carries this span's trace context.
  const inner = context.with(ctx, open);
  const started = performance.now();
  let events = 0;
  let done = false;
  try {
    for (;;) {
      const step = await context.with(ctx, () => inner.next());
      if (step.done) {
        done = true;
        break;
      }
      // The latency of a stream is the wait for its first event; its duration is the task's.
      if (events++ === 0) metrics?.request(agent, operation, performance.now() - started, 'ok');
      span.setAttributes(eventAttributes(step.value));
      yield step.value;
    }
    span.setStatus({ code: SpanStatusCode.OK });
  } catch (error) {
    done = true;
    failed(span, error);
    if (events === 0) metrics?.request(agent, operation, performance.now() - started, codeOf(error));
    throw error;
  } finally {
    span.setAttribute(A2A_ATTR.streamEvents, events);
    if (!done) await inner.return(undefined).catch(() => undefined);
    span.end();
  }
}

function failed(span: Span, error: unknown): void {
  const code = codeOf(error);
  span.setAttribute('error.type', code);
  if (error instanceof A2AError) span.setAttribute(A2A_ATTR.retryable, error.retryable);
  span.setStatus({ code: SpanStatusCode.ERROR });
}

/** An A2A error's stable code; otherwise the error's class (never its message: it can quote the agent). */
export function codeOf(error: unknown): string {
  if (error instanceof A2AError) return error.code;
  if (error instanceof Error) return error.name;
  return 'unknown';
}

/** The task and context ids a request names (params of GetTask, CancelTask, a message's ids, …). */
function idsOf(req: unknown): Attributes {
  if (typeof req !== 'object' || req === null) return {};
  const r = req as { id?: unknown; taskId?: unknown; message?: { taskId?: unknown; contextId?: unknown } };
  const taskId = r.message?.taskId ?? r.taskId ?? r.id;
  const contextId = r.message?.contextId ?? (r as { contextId?: unknown }).contextId;
  return {
    ...(typeof taskId === 'string' ? { [A2A_ATTR.taskId]: taskId } : {}),
    ...(typeof contextId === 'string' ? { [A2A_ATTR.contextId]: contextId } : {}),
  };
}

function taskAttributes(result: unknown): Attributes {
  if (typeof result !== 'object' || result === null) return {};
  const task = ('task' in result ? (result as { task: Task }).task : result) as Partial<Task>;
  if (typeof task.id !== 'string' || !task.status) return {};
  return {
    [A2A_ATTR.taskId]: task.id,
    ...(typeof task.contextId === 'string' ? { [A2A_ATTR.contextId]: task.contextId } : {}),
    [A2A_ATTR.taskState]: task.status.state,
  };
}

function eventAttributes(event: StreamResponse): Attributes {
  if ('task' in event) return taskAttributes(event);
  if ('statusUpdate' in event) {
    const u = event.statusUpdate;
    return {
      [A2A_ATTR.taskId]: u.taskId,
      ...(u.contextId ? { [A2A_ATTR.contextId]: u.contextId } : {}),
      [A2A_ATTR.taskState]: u.status.state,
    };
  }
  return {};
}
