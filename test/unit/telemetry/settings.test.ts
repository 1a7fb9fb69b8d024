import { describe, expect, it } from 'vitest';
import { telemetrySettings } from '../../../telemetry/settings.js';

describe('telemetrySettings', () => {
  it('switches nothing on when no OTEL_* variable is set', () => {
    expect(telemetrySettings({})).toEqual({ traces: false });
  });

  it('traces when an OTLP endpoint or a traces exporter is set, and not when the SDK is disabled', () => {
    expect(telemetrySettings({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://c:4318/v1/traces' }).traces).toBe(true);
    expect(telemetrySettings({ OTEL_TRACES_EXPORTER: 'console' }).traces).toBe(true);
    expect(
      telemetrySettings({ OTEL_TRACES_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' }).traces,
    ).toBe(false);
    expect(telemetrySettings({ OTEL_SDK_DISABLED: 'true', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' })).toEqual({
      traces: false,
    });
  });

  it('serves Prometheus on 127.0.0.1:9464 unless told otherwise', () => {
    expect(telemetrySettings({ OTEL_METRICS_EXPORTER: 'prometheus' }).metrics).toEqual({
      kind: 'prometheus',
      bindAddress: '127.0.0.1:9464',
    });
    expect(
      telemetrySettings({
        OTEL_METRICS_EXPORTER: 'prometheus',
        OTEL_EXPORTER_PROMETHEUS_HOST: '0.0.0.0',
        OTEL_EXPORTER_PROMETHEUS_PORT: '9000',
      }).metrics,
    ).toEqual({ kind: 'prometheus', bindAddress: '0.0.0.0:9000' });
  });

  it('exports metrics over OTLP to the endpoint, protocol, headers and interval the variables name', () => {
    expect(
      telemetrySettings({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/',
        OTEL_EXPORTER_OTLP_HEADERS: 'api-key=a%20b,x=1',
        OTEL_METRIC_EXPORT_INTERVAL: '10000',
      }).metrics,
    ).toEqual({
      kind: 'otlp',
      url: 'http://collector:4318/v1/metrics',
      http: true,
      headers: { 'api-key': 'a b', x: '1' },
      intervalMs: 10_000,
    });
    expect(
      telemetrySettings({ OTEL_METRICS_EXPORTER: 'otlp', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' }).metrics,
    ).toMatchObject({
      url: 'http://localhost:4317',
      http: false,
    });
    expect(
      telemetrySettings({ OTEL_METRICS_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' }).metrics,
    ).toBeUndefined();
  });

  it('names the variable that is invalid', () => {
    expect(() =>
      telemetrySettings({ OTEL_METRICS_EXPORTER: 'prometheus', OTEL_EXPORTER_PROMETHEUS_PORT: 'x' }),
    ).toThrow(/OTEL_EXPORTER_PROMETHEUS_PORT is invalid/);
  });
});
