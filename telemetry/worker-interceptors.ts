/**
 * The worker-side interceptors and sink of tracing and metrics, for the a2a-temporal plugin:
 * Temporal's official OpenTelemetry activity interceptors (a span per activity attempt, child of
 * the workflow's StartActivity span; trace ids in activity logs), the exporter sink of the
 * workflow spans, and the count of retried activity attempts.
 */
import type { Context as ActivityContext } from '@temporalio/activity';
import { defaultPayloadConverter, type Headers, type MetricMeter } from '@temporalio/common';
import {
  makeWorkflowExporter,
  OpenTelemetryActivityInboundInterceptor,
  OpenTelemetryActivityOutboundInterceptor,
  type OpenTelemetrySinks,
} from '@temporalio/interceptors-opentelemetry';
import type { ActivityInterceptors, InjectedSinks } from '@temporalio/worker';
import { A2AMetrics } from './metrics.js';
import type { Tracing } from './tracing.js';

/** What a worker needs for tracing: the interceptors and sinks that the plugin adds. See [docs/observability.md](../docs/observability.md). */
export interface WorkerTelemetry {
  /** Where spans go; none: no tracing. */
  tracing?: Tracing | undefined;
  /** Where metrics go (the worker's runtime meter); none: no metrics. */
  meter?: MetricMeter | undefined;
}

export function activityInterceptors(
  telemetry: WorkerTelemetry,
): Array<(ctx: ActivityContext) => ActivityInterceptors> {
  const factories: Array<(ctx: ActivityContext) => ActivityInterceptors> = [];
  if (telemetry.tracing) {
    factories.push((ctx) => ({
      inbound: new OpenTelemetryActivityInboundInterceptor(ctx),
      outbound: new OpenTelemetryActivityOutboundInterceptor(ctx),
    }));
    // The SDK logs an attempt's end ("Activity failed", …) after its span has ended: those lines
    // get the trace id from the activity's headers instead.
    factories.push(() => {
      let traceId: string | undefined;
      return {
        inbound: {
          execute(input, next) {
            traceId = traceIdOf(input.headers);
            return next(input);
          },
        },
        outbound: {
          getLogAttributes: (input, next) =>
            next(traceId && !('trace_id' in input) ? { trace_id: traceId, ...input } : input),
        },
      };
    });
  }
  if (telemetry.meter) {
    const metrics = new A2AMetrics(telemetry.meter);
    factories.push((ctx) => ({
      inbound: {
        execute(input, next) {
          if (ctx.info.attempt > 1) metrics.retry(agentOf(input.args[0]), ctx.info.activityType);
          return next(input);
        },
      },
    }));
  }
  return factories;
}

/** The trace id in the interceptors' `_tracer-data` header (a W3C `traceparent`), if any. */
function traceIdOf(headers: Headers): string | undefined {
  const payload = headers['_tracer-data'];
  if (!payload) return undefined;
  try {
    const { traceparent } = defaultPayloadConverter.fromPayload<{ traceparent?: string }>(payload);
    const id = traceparent?.split('-')[1];
    return id && /^[0-9a-f]{32}$/.test(id) ? id : undefined;
  } catch {
    return undefined;
  }
}

/** The agent an activity's input names (`{ agent: 'name' }` or `{ agent: { name } }`). */
function agentOf(input: unknown): string {
  const agent = (input as { agent?: unknown } | undefined)?.agent;
  if (typeof agent === 'string') return agent;
  const name = (agent as { name?: unknown } | undefined)?.name;
  return typeof name === 'string' ? name : 'unknown';
}

/**
 * The sink the workflow interceptors export their spans through. Without tracing it drops them:
 * a traced workflow (its start carried a trace context) may run on a worker that does not trace.
 */
export function workflowSpanSinks(telemetry: WorkerTelemetry): InjectedSinks<OpenTelemetrySinks> {
  if (telemetry.tracing)
    return { exporter: makeWorkflowExporter(telemetry.tracing.spanProcessor, telemetry.tracing.resource) };
  return { exporter: { export: { fn: () => undefined } } };
}
