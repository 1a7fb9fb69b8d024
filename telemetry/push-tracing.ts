/**
 * Push deliveries in traces and metrics. A signal to a delegation is the agent calling us, at a
 * time of its choosing: its span (`a2a push delivery`, SERVER) starts a trace of its own (the
 * signal and the workflow's handling of it sit under it), linked to the delegation's trace
 * through the trace context the receiver issued with the push config's URL (`?traceparent=…`
 * with a tag only the receiver can make, written when the config was registered in a traced
 * run). A context a sender wrote into the query, or into its headers, is never trusted.
 *
 * Spans are made per ask of the delegation (its `taskUpdateWanted` query, then at most one
 * signal), not per request: a flood of refused or coalesced requests shows up in the delivery
 * counter (`a2a.push.deliveries` by outcome), not as thousands of spans. A span's outcome says
 * what the ask came to: `signaled`, `stale` (the delegation said no), `later` (it was reading the
 * task; asked again soon), `gone` or `unavailable`.
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
    outcome: (outcome) => options.metrics?.delivery(outcome),
    async signal(binding, link, send) {
      if (!options.tracing) return send();
      const linked = link && trace.getSpanContext(propagation.extract(ROOT_CONTEXT, { ...link }));
      const span = tracer.startSpan('a2a push delivery', {
        kind: SpanKind.SERVER,
        root: true,
        attributes: {
          'http.request.method': 'POST',
          temporalWorkflowId: binding.workflowId,
          [A2A_ATTR.taskId]: binding.taskId,
        },
        ...(linked ? { links: [{ context: linked }] } : {}),
      });
      let outcome = 'unavailable';
      try {
        const result = await context.with(trace.setSpan(ROOT_CONTEXT, span), send);
        outcome = result === 'delivered' ? 'signaled' : result;
        return result;
      } finally {
        span.setAttribute(A2A_ATTR.pushOutcome, outcome);
        span.setStatus({ code: outcome === 'unavailable' ? SpanStatusCode.ERROR : SpanStatusCode.OK });
        span.end();
      }
    },
  };
}
