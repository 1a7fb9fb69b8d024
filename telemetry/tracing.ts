/**
 * The OpenTelemetry Node SDK of this process, configured only by the standard `OTEL_*`
 * variables (see settings.ts): exporter and protocol, endpoint, headers, sampler, service name,
 * resource attributes, batch settings. Started once per process (worker, CLI command, sample
 * agents); off when nothing is configured.
 *
 * Two things differ from the SDK's defaults, both to keep content out of spans:
 * - the resource has no `process.command_args` (a CLI's arguments can be an answer's text), so
 *   the process detector is left out (`OTEL_NODE_RESOURCE_DETECTORS` is not read);
 * - every span passes {@link RedactingSpanProcessor} before it is exported.
 */
import { trace, type ProxyTracerProvider } from '@opentelemetry/api';
import { NodeSDK } from '@opentelemetry/sdk-node';
// The SDK's own reading of OTEL_TRACES_EXPORTER and the OTLP protocol variables (no exports map hides it).
import { getSpanProcessorsFromEnv } from '@opentelemetry/sdk-node/build/src/utils.js';
import { envDetectorSync, hostDetectorSync, osDetectorSync, type IResource } from '@opentelemetry/resources';
import type { BasicTracerProvider, SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { RedactingSpanProcessor } from './redaction.js';
import { telemetrySettings } from './settings.js';

/** Tracing as started from the `OTEL_*` variables: whether it is on, and how to flush and stop it. See [docs/observability.md](../docs/observability.md). */
export interface Tracing {
  /** Where spans made elsewhere (the worker's workflow spans, sent out of the sandbox) are handed in. */
  spanProcessor: SpanProcessor;
  /** Who makes the spans: service name, host, process. */
  resource: IResource;
  /** Exports what is buffered and stops (idempotent). */
  shutdown(): Promise<void>;
}

let active: Tracing | undefined;

/** The tracing this process started, if any. */
export function activeTracing(): Tracing | undefined {
  return active;
}

/**
 * Starts the SDK when `env` asks for traces (once per process; later calls return the same).
 * `serviceName` applies when `OTEL_SERVICE_NAME` is not set.
 * @returns undefined when tracing is off.
 */
export function startTracing(serviceName: string, env: NodeJS.ProcessEnv = process.env): Tracing | undefined {
  if (active) return active;
  if (!telemetrySettings(env).traces) return undefined;
  // The SDK reads process.env as it builds its exporters: give it `env`'s OTEL_* for that time only.
  const otel = Object.fromEntries(Object.entries(env).filter(([key]) => key.startsWith('OTEL_')));
  return withEnv({ ...otel, OTEL_METRICS_EXPORTER: 'none' }, () => start(serviceName, env));
}

function start(serviceName: string, env: NodeJS.ProcessEnv): Tracing {
  const sdk = new NodeSDK({
    ...(env.OTEL_SERVICE_NAME ? {} : { serviceName }),
    resourceDetectors: [envDetectorSync, hostDetectorSync, osDetectorSync],
    spanProcessors: [new RedactingSpanProcessor(), ...getSpanProcessorsFromEnv()],
    logRecordProcessors: [],
    instrumentations: [],
  });
  // Metrics are the Temporal runtime's (one endpoint for its metrics and ours): the SDK must not
  // open a second Prometheus listener or OTLP pipeline from the same variable (see startTracing).
  sdk.start();
  const provider = (trace.getTracerProvider() as ProxyTracerProvider).getDelegate() as BasicTracerProvider;
  let stopping: Promise<void> | undefined;
  active = {
    spanProcessor: provider.getActiveSpanProcessor(),
    resource: provider.resource,
    shutdown: () => (stopping ??= sdk.shutdown().catch(() => undefined)),
  };
  return active;
}

/** Stops the tracing this process started (exporting what is left), if any. */
export async function stopTracing(): Promise<void> {
  await active?.shutdown();
}

function withEnv<T>(values: Record<string, string | undefined>, fn: () => T): T {
  const before = Object.fromEntries(Object.keys(values).map((key) => [key, process.env[key]]));
  Object.assign(process.env, values);
  try {
    return fn();
  } finally {
    for (const [key, value] of Object.entries(before)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  }
}
