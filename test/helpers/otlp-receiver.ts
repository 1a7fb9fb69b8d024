/**
 * A real OTLP/HTTP trace receiver for tests: `POST /v1/traces` with the protobuf body the
 * OpenTelemetry exporters send by default (decoded with the generated protobuf classes of
 * `@opentelemetry/otlp-transformer`, the same definitions the exporters encode with) or OTLP/JSON.
 * It keeps every span it receives, with its resource's attributes, and answers as a collector
 * does. Chosen over Jaeger's OTLP port so `npm test` needs no Go build: it starts in
 * milliseconds and shows exactly what went over the wire.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { waitFor } from './wait.js';

const require = createRequire(import.meta.url);
// The generated protobuf root of the OTLP definitions (CommonJS, no typings of use here).
const root = require('@opentelemetry/otlp-transformer/build/src/generated/root.js') as {
  opentelemetry: {
    proto: {
      collector: {
        trace: {
          v1: {
            ExportTraceServiceRequest: { decode(b: Uint8Array): unknown; toObject(m: unknown, o: object): unknown };
          };
        };
      };
    };
  };
};
const Request = root.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;

export type AttributeValue = string | number | boolean | AttributeValue[] | undefined;

export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  kind: number;
  attributes: Record<string, AttributeValue>;
  /** The attributes of the resource that exported it (`service.name`, …). */
  resource: Record<string, AttributeValue>;
  links: Array<{ traceId: string; spanId: string }>;
  events: Array<{ name: string; attributes: Record<string, AttributeValue> }>;
  status: { code: number; message: string };
  startMs: number;
  endMs: number;
}

export interface OtlpReceiver {
  /** `http://127.0.0.1:<port>`: the value for OTEL_EXPORTER_OTLP_ENDPOINT. */
  endpoint: string;
  spans: ReceivedSpan[];
  /** The spans of one trace. */
  trace(traceId: string): ReceivedSpan[];
  /** Waits until `probe` finds what it looks for among the spans received. */
  waitFor<T>(probe: (spans: ReceivedSpan[]) => T | undefined | false, what: string, timeoutMs?: number): Promise<T>;
  /** Every request body as received (for "no secret anywhere" checks). */
  rawBodies: Buffer[];
  close(): Promise<void>;
}

interface AnyValue {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: number | string;
  doubleValue?: number;
  arrayValue?: { values?: AnyValue[] };
}
interface KeyValue {
  key: string;
  value?: AnyValue;
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const rawBodies: Buffer[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      if (req.url !== '/v1/traces' || req.method !== 'POST') {
        res.writeHead(404).end();
        return;
      }
      rawBodies.push(body);
      const json = (req.headers['content-type'] ?? '').includes('json');
      const message = json
        ? (JSON.parse(body.toString('utf8')) as unknown)
        : Request.toObject(Request.decode(body), { longs: String, bytes: String, defaults: false });
      spans.push(...flatten(message as ExportRequest, json));
      res
        .writeHead(200, { 'content-type': json ? 'application/json' : 'application/x-protobuf' })
        .end(json ? '{}' : '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    spans,
    rawBodies,
    trace: (traceId) => spans.filter((s) => s.traceId === traceId),
    waitFor: (probe, what, timeoutMs = 30_000) => waitFor(() => probe(spans), { what, timeoutMs, intervalMs: 100 }),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

interface ExportRequest {
  resourceSpans?: Array<{
    resource?: { attributes?: KeyValue[] };
    scopeSpans?: Array<{
      spans?: Array<{
        traceId: string;
        spanId: string;
        parentSpanId?: string;
        name: string;
        kind?: number | string;
        startTimeUnixNano: string;
        endTimeUnixNano: string;
        attributes?: KeyValue[];
        links?: Array<{ traceId: string; spanId: string }>;
        events?: Array<{ name: string; attributes?: KeyValue[] }>;
        status?: { code?: number | string; message?: string };
      }>;
    }>;
  }>;
}

function flatten(request: ExportRequest, json: boolean): ReceivedSpan[] {
  // Protobuf bytes come as base64 (bytes: String); OTLP/JSON sends hex already.
  const id = (value: string | undefined) => (!value ? '' : json ? value : Buffer.from(value, 'base64').toString('hex'));
  const out: ReceivedSpan[] = [];
  for (const rs of request.resourceSpans ?? []) {
    const resource = attributes(rs.resource?.attributes);
    for (const ss of rs.scopeSpans ?? []) {
      for (const s of ss.spans ?? []) {
        out.push({
          traceId: id(s.traceId),
          spanId: id(s.spanId),
          parentSpanId: id(s.parentSpanId),
          name: s.name,
          kind: Number(s.kind ?? 0),
          attributes: attributes(s.attributes),
          resource,
          links: (s.links ?? []).map((l) => ({ traceId: id(l.traceId), spanId: id(l.spanId) })),
          events: (s.events ?? []).map((e) => ({ name: e.name, attributes: attributes(e.attributes) })),
          status: { code: Number(s.status?.code ?? 0), message: s.status?.message ?? '' },
          startMs: Number(BigInt(s.startTimeUnixNano) / 1_000_000n),
          endMs: Number(BigInt(s.endTimeUnixNano) / 1_000_000n),
        });
      }
    }
  }
  return out;
}

function attributes(list: KeyValue[] | undefined): Record<string, AttributeValue> {
  return Object.fromEntries((list ?? []).map((kv) => [kv.key, valueOf(kv.value)]));
}

function valueOf(v: AnyValue | undefined): AttributeValue {
  if (!v) return undefined;
  if (v.stringValue !== undefined) return v.stringValue;
  if (v.boolValue !== undefined) return v.boolValue;
  if (v.intValue !== undefined) return Number(v.intValue);
  if (v.doubleValue !== undefined) return v.doubleValue;
  if (v.arrayValue) return (v.arrayValue.values ?? []).map(valueOf);
  return undefined;
}
