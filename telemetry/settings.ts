/**
 * What the standard OpenTelemetry environment variables switch on. Nothing configured means
 * nothing on: no exporter, no interceptor, no request wrapper (the bench measures that cost).
 *
 * - Traces: `OTEL_TRACES_EXPORTER` (not `none`), or an OTLP endpoint (`OTEL_EXPORTER_OTLP_ENDPOINT`,
 *   `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`). The Node SDK itself reads the rest (protocol,
 *   headers, sampler, service name, resource attributes, batch settings).
 * - Metrics: `OTEL_METRICS_EXPORTER=prometheus` (`OTEL_EXPORTER_PROMETHEUS_HOST`/`_PORT`,
 *   default 127.0.0.1:9464) or `otlp` (also implied by an OTLP endpoint), exported by the
 *   Temporal runtime together with the SDK's own worker metrics.
 * - `OTEL_SDK_DISABLED=true` switches everything off.
 */
import { z } from 'zod';

export type MetricsExport =
  | { kind: 'prometheus'; bindAddress: string }
  | { kind: 'otlp'; url: string; http: boolean; headers: Record<string, string>; intervalMs: number };

export interface TelemetrySettings {
  traces: boolean;
  metrics?: MetricsExport;
}

const port = z.coerce.number().int().min(0).max(65535);
const interval = z.coerce.number().int().positive();

/** @throws Error naming the variable when one is invalid. */
export function telemetrySettings(env: NodeJS.ProcessEnv = process.env): TelemetrySettings {
  const value = (name: string) => env[name]?.trim() || undefined;
  if (value('OTEL_SDK_DISABLED')?.toLowerCase() === 'true') return { traces: false };
  const endpoint = value('OTEL_EXPORTER_OTLP_ENDPOINT');
  const tracesExporter = value('OTEL_TRACES_EXPORTER');
  const traces = tracesExporter
    ? !exporters(tracesExporter).includes('none')
    : endpoint !== undefined || value('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT') !== undefined;

  const metricsEndpoint = value('OTEL_EXPORTER_OTLP_METRICS_ENDPOINT');
  const metricsExporter = value('OTEL_METRICS_EXPORTER');
  const kinds = metricsExporter ? exporters(metricsExporter) : endpoint || metricsEndpoint ? ['otlp'] : [];
  if (kinds.includes('none')) return { traces };
  if (kinds.includes('prometheus')) {
    const host = value('OTEL_EXPORTER_PROMETHEUS_HOST') ?? '127.0.0.1';
    const p = parse(port, value('OTEL_EXPORTER_PROMETHEUS_PORT') ?? '9464', 'OTEL_EXPORTER_PROMETHEUS_PORT');
    return { traces, metrics: { kind: 'prometheus', bindAddress: `${host.includes(':') ? `[${host}]` : host}:${p}` } };
  }
  if (kinds.includes('otlp')) {
    const protocol =
      value('OTEL_EXPORTER_OTLP_METRICS_PROTOCOL') ?? value('OTEL_EXPORTER_OTLP_PROTOCOL') ?? 'http/protobuf';
    const http = protocol !== 'grpc';
    const base = (endpoint ?? (http ? 'http://localhost:4318' : 'http://localhost:4317')).replace(/\/+$/, '');
    const url = metricsEndpoint ?? (http ? `${base}/v1/metrics` : base);
    const headers = otlpHeaders(value('OTEL_EXPORTER_OTLP_METRICS_HEADERS') ?? value('OTEL_EXPORTER_OTLP_HEADERS'));
    const intervalMs = parse(interval, value('OTEL_METRIC_EXPORT_INTERVAL') ?? '60000', 'OTEL_METRIC_EXPORT_INTERVAL');
    return { traces, metrics: { kind: 'otlp', url, http, headers, intervalMs } };
  }
  return { traces };
}

function exporters(list: string): string[] {
  return list.split(',').map((s) => s.trim().toLowerCase());
}

function parse<T>(schema: z.ZodType<T>, text: string, name: string): T {
  const parsed = schema.safeParse(text);
  if (!parsed.success) throw new Error(`Environment variable ${name} is invalid: ${parsed.error.issues[0]!.message}.`);
  return parsed.data;
}

/** `key1=value1,key2=value2` (values percent-encoded), as the OTLP exporter specification writes headers. */
function otlpHeaders(text: string | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const pair of (text ?? '').split(',')) {
    const eq = pair.indexOf('=');
    if (eq <= 0) continue;
    try {
      headers[decodeURIComponent(pair.slice(0, eq).trim())] = decodeURIComponent(pair.slice(eq + 1).trim());
    } catch {
      // Not percent-encoding after all: skip the pair rather than fail the worker.
    }
  }
  return headers;
}
