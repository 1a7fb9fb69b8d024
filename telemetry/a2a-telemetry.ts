/**
 * What the delegation activities get from telemetry: an observer that puts the trace context on
 * every request, a wrapper that gives each A2A operation its span and latency sample, and the
 * worker's metrics. Absent when neither tracing nor metrics is on, so the activities then run
 * exactly as without telemetry.
 */
import type { MetricMeter } from '@temporalio/common';
import type { A2AClient, HttpObserver } from '../a2a/index.js';
import { traceContextObserver, tracedClient } from './a2a-tracing.js';
import { A2AMetrics } from './metrics.js';
import { traceQuery } from './push-tracing.js';

export interface A2ATelemetry {
  /** For the A2A client's HTTP requests (trace context and HTTP attributes), when tracing. */
  observer?: HttpObserver;
  /** The client, with a span and a latency sample per operation. */
  wrap(client: A2AClient, agent: string): A2AClient;
  metrics?: A2AMetrics;
  /** The trace context to put on a push config's URL (its deliveries link back to the trace), when tracing. */
  traceQuery?: () => Record<string, string>;
}

export function a2aTelemetry(options: { tracing: boolean; meter?: MetricMeter }): A2ATelemetry | undefined {
  if (!options.tracing && !options.meter) return undefined;
  const metrics = options.meter ? new A2AMetrics(options.meter) : undefined;
  return {
    ...(options.tracing ? { observer: traceContextObserver, traceQuery } : {}),
    wrap: (client, agent) => tracedClient(client, agent, metrics),
    ...(metrics ? { metrics } : {}),
  };
}
