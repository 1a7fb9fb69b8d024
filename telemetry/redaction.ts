/**
 * Keeps content out of exported spans. Error messages can quote what an agent said (a failed
 * task's status text, a question that timed out, a body that did not parse), and the Temporal
 * interceptors put an error's message into the span's status and an `exception` event. This
 * processor runs before the exporting ones and leaves only the kind of error: the status code,
 * and `exception.type` of each exception event. The messages stay in logs and in history, where
 * they are scrubbed of credentials.
 */
import type { Context } from '@opentelemetry/api';
import type { ReadableSpan, Span, SpanProcessor } from '@opentelemetry/sdk-trace-base';

/** The attributes of an `exception` event that are kept. */
const KEPT_EXCEPTION_ATTRIBUTES = ['exception.type'];

export class RedactingSpanProcessor implements SpanProcessor {
  onStart(_span: Span, _parentContext: Context): void {}

  onEnd(span: ReadableSpan): void {
    redact(span);
  }

  forceFlush(): Promise<void> {
    return Promise.resolve();
  }

  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}

/** Removes error messages from `span` in place (the exporters that follow see the result). */
export function redact(span: ReadableSpan): void {
  const writable = span as { -readonly [K in keyof ReadableSpan]: ReadableSpan[K] };
  if (span.status.message !== undefined) writable.status = { code: span.status.code };
  for (const event of span.events) {
    if (event.name !== 'exception' || !event.attributes) continue;
    const kept = Object.fromEntries(
      Object.entries(event.attributes).filter(([key]) => KEPT_EXCEPTION_ATTRIBUTES.includes(key)),
    );
    (event as { attributes?: typeof kept }).attributes = kept;
  }
}
