/**
 * The agent's side of a traced call: a SERVER span per request that continues the caller's trace
 * (W3C `traceparent`/`tracestate`), so the coordinator's request span and the agent's handling
 * of it are one trace. The SDK's handlers run inside the span's context. Installed only when the
 * agents' process traces (OTEL_* variables); a request without a trace context starts none.
 * Attributes are the method, route, path and status.
 */
import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { RequestHandler } from 'express';
import { A2A_ATTR } from '../../contract/telemetry.js';

export function requestTracing(agentName: string, routes: readonly string[]): RequestHandler {
  const tracer = trace.getTracer('a2a-temporal-agents');
  return (req, res, next) => {
    const parent = propagation.extract(ROOT_CONTEXT, req.headers);
    if (!trace.getSpanContext(parent)) return next();
    const route = routes.find((r) => req.path === r || req.path.startsWith(`${r}/`)) ?? req.path;
    const span = tracer.startSpan(
      `${req.method} ${route}`,
      {
        kind: SpanKind.SERVER,
        attributes: {
          'http.request.method': req.method,
          'http.route': route,
          'url.path': req.path,
          [A2A_ATTR.agent]: agentName,
        },
      },
      parent,
    );
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      span.setAttribute('http.response.status_code', res.statusCode);
      if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    };
    res.once('finish', end);
    res.once('close', end);
    context.with(trace.setSpan(parent, span), next);
  };
}
