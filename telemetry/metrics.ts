/**
 * The worker side of our metrics, on the Temporal runtime's meter (so they are exported with the
 * SDK's own worker metrics, by the same Prometheus endpoint or OTLP pipeline). The delegation
 * metrics (started, completed, failed, rounds, input waits) are the workflows' own, emitted
 * from workflows/delegate/telemetry.ts. Labels are agent names (URLs without user info or query),
 * operations, codes and reasons: a small, bounded set.
 */
import type { MetricCounter, MetricHistogram, MetricMeter } from '@temporalio/common';
import { A2A_METRIC, agentLabel } from '../contract/telemetry.js';

export class A2AMetrics {
  private readonly latency: MetricHistogram;
  private readonly retries: MetricCounter;
  private readonly reconnects: MetricCounter;
  private readonly deliveries: MetricCounter;

  constructor(meter: MetricMeter) {
    this.latency = meter.createHistogram(
      A2A_METRIC.requestLatency,
      'float',
      'ms',
      'A2A request latency (streams: until the first event), by agent, operation and outcome',
    );
    this.retries = meter.createCounter(
      A2A_METRIC.activityRetries,
      '{attempt}',
      'Attempts of delegation activities after the first, by agent and activity',
    );
    this.reconnects = meter.createCounter(
      A2A_METRIC.streamReconnects,
      '{stream}',
      'Streams opened again to a task already followed, by agent',
    );
    this.deliveries = meter.createCounter(
      A2A_METRIC.pushDeliveries,
      '{delivery}',
      'Push deliveries to the webhook receiver, by outcome (accepted, or the reason of the refusal)',
    );
  }

  /** One A2A request ended: `outcome` is `ok` or the error code. */
  request(agent: string, operation: string, ms: number, outcome: string): void {
    this.latency.record(ms, { agent: agentLabel(agent), operation, outcome });
  }

  retry(agent: string, activity: string): void {
    this.retries.add(1, { agent: agentLabel(agent), activity });
  }

  reconnect(agent: string): void {
    this.reconnects.add(1, { agent: agentLabel(agent) });
  }

  delivery(outcome: string): void {
    this.deliveries.add(1, { outcome });
  }
}
