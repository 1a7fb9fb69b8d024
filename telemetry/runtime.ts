/**
 * The Temporal runtime of a worker process, with its telemetry: the SDK's own worker metrics
 * and ours (telemetry/metrics.ts, workflows/delegate/telemetry.ts) go to one Prometheus endpoint or one
 * OTLP pipeline, as the standard variables say (settings.ts). Off when they say nothing.
 */
import type { MetricMeter } from '@temporalio/common';
import { Runtime, type Logger, type TelemetryOptions } from '@temporalio/worker';
import { A2A_METRIC } from '../contract/telemetry.js';
import { telemetrySettings, type TelemetrySettings } from './settings.js';

/** Bucket boundaries of our histograms (the SDK's defaults suit its own). */
export const HISTOGRAM_BUCKETS: Record<string, number[]> = {
  [A2A_METRIC.requestLatency]: [5, 10, 25, 50, 100, 250, 500, 1_000, 2_500, 5_000, 10_000, 30_000, 60_000],
  [A2A_METRIC.inputWait]: [1_000, 10_000, 60_000, 300_000, 900_000, 3_600_000, 14_400_000, 86_400_000, 604_800_000],
  [A2A_METRIC.delegationRounds]: [0, 1, 2, 3, 5, 10, 20, 50],
};

let meter: MetricMeter | undefined;

/** The runtime's telemetry options for `settings`, or undefined when metrics are off. */
export function runtimeTelemetryOptions(settings: TelemetrySettings): TelemetryOptions | undefined {
  const m = settings.metrics;
  if (!m) return undefined;
  const histogramBucketOverrides = HISTOGRAM_BUCKETS;
  return {
    metrics:
      m.kind === 'prometheus'
        ? { prometheus: { bindAddress: m.bindAddress, histogramBucketOverrides } }
        : {
            otel: {
              url: m.url,
              http: m.http,
              headers: m.headers,
              metricsExportInterval: m.intervalMs,
              histogramBucketOverrides,
            },
          },
  };
}

/**
 * Installs the process's Temporal runtime with `logger` and the metrics the environment asks
 * for; our worker-side metrics then use its meter (`activeMeter()`).
 * @throws Error naming the variable when one is invalid, or when the Prometheus address cannot be bound.
 */
export function installRuntime(logger: Logger, env: NodeJS.ProcessEnv = process.env): void {
  const telemetryOptions = runtimeTelemetryOptions(telemetrySettings(env));
  Runtime.install({ logger, ...(telemetryOptions ? { telemetryOptions } : {}) });
  if (telemetryOptions) meter = Runtime.instance().metricMeter;
}

/** The runtime's meter when metrics are exported, else undefined. */
export function activeMeter(): MetricMeter | undefined {
  return meter;
}
