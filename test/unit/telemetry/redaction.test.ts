import { SpanStatusCode } from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { RedactingSpanProcessor } from '../../../telemetry/redaction.js';

describe('RedactingSpanProcessor', () => {
  it('leaves exporters the error kind, never its message or stack', () => {
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({
      spanProcessors: [new RedactingSpanProcessor(), new SimpleSpanProcessor(exporter)],
    });
    const span = provider.getTracer('t').startSpan('RunActivity:x', { attributes: { 'a2a.agent': 'compat' } });
    span.recordException(new TypeError('the agent said: "my secret question"'));
    span.setStatus({ code: SpanStatusCode.ERROR, message: 'the agent said: "my secret question"' });
    span.end();
    const [exported] = exporter.getFinishedSpans();
    expect(exported!.status).toEqual({ code: SpanStatusCode.ERROR });
    expect(exported!.events.map((e) => e.attributes)).toEqual([{ 'exception.type': 'TypeError' }]);
    expect(exported!.attributes).toEqual({ 'a2a.agent': 'compat' });
  });
});
