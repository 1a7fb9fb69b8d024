/**
 * Push deliveries in traces and metrics. A delivery is the agent calling us, at a time of its
 * choosing: its span (`a2a push delivery`, SERVER) starts a trace of its own (the signal to the
 * delegation and the workflow's handling of it sit under it), linked to the delegation's trace
 * through the trace context the push config's URL carries (`?traceparent=…`, written when the
 * config was registered in a traced run). The link is added only once the delivery's
 * credential is verified; a context in an agent's own headers is not trusted.
 */
import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { DeliveryObserver } from '../worker/webhook-receiver.js';
import { A2A_ATTR } from '../contract/telemetry.js';
import type { A2AMetrics } from './metrics.js';

/** The query parameters that carry the delegation's trace context on a push URL. */
export function traceQuery(): Record<string, string> {
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return Object.fromEntries(Object.entries(carrier).filter(([key]) => key === 'traceparent' || key === 'tracestate'));
}

export function deliveryObserver(options: { tracing: boolean; metrics?: A2AMetrics | undefined }): DeliveryObserver {
  const tracer = trace.getTracer('a2a-temporal');
  return {
    delivery(url) {
      const span = options.tracing
        ? tracer.startSpan('a2a push delivery', {
            kind: SpanKind.SERVER,
            root: true,
            attributes: { 'http.request.method': 'POST' },
          })
        : undefined;
      return {
        run: (handle) => (span ? context.with(trace.setSpan(ROOT_CONTEXT, span), handle) : handle()),
        verified(ids) {
          if (!span) return;
          span.setAttributes({ temporalWorkflowId: ids.workflowId, [A2A_ATTR.taskId]: ids.taskId });
          const linked = trace.getSpanContext(propagation.extract(ROOT_CONTEXT, queryOf(url)));
          if (linked) span.addLink({ context: linked });
        },
        end(outcome) {
          options.metrics?.delivery(outcome);
          if (!span) return;
          span.setAttribute(A2A_ATTR.pushOutcome, outcome);
          const ok = outcome === 'signaled' || outcome === 'progress' || outcome === 'gone';
          span.setStatus({ code: ok ? SpanStatusCode.OK : SpanStatusCode.ERROR });
          span.end();
        },
      };
    },
  };
}

function queryOf(url: string): Record<string, string> {
  const at = url.indexOf('?');
  if (at === -1) return {};
  const params = new URLSearchParams(url.slice(at + 1));
  const carrier: Record<string, string> = {};
  for (const key of ['traceparent', 'tracestate']) {
    const value = params.get(key);
    if (value && value.length <= 512) carrier[key] = value;
  }
  return carrier;
}
