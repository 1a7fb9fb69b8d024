/**
 * A Server-Sent Events reader (WHATWG HTML §9.2 "event stream interpretation") over any async
 * iterable of byte or string chunks — in practice undici's response body.
 *
 * It handles lines split across chunks (even a CRLF split between two chunks), CR, LF and
 * CRLF line ends, multi-line `data:`, `:` comments, the `event:`, `id:` and `retry:` fields,
 * and — more lenient than the spec — an event that is not followed by a blank line when the
 * stream ends. It knows nothing about A2A; {@link ./event-stream.ts} turns events into
 * validated StreamResponse objects.
 */

/** One dispatched event. `event` is `"message"` unless the server named it. */
export interface SseEvent {
  event: string;
  /** The `data:` lines joined with `\n`. */
  data: string;
  /** The last event id seen so far on this stream, if any. */
  id?: string;
  /** The reconnection time the server asked for, if any. */
  retry?: number;
}

export interface SseReadOptions {
  /** Called for every `:` comment line (servers use them as heartbeats). */
  onComment?: (text: string) => void;
}

/** Yields the events of an SSE stream until the stream ends. */
export async function* readSseEvents(
  chunks: AsyncIterable<Uint8Array | string>,
  options: SseReadOptions = {},
): AsyncGenerator<SseEvent, void, undefined> {
  const decoder = new TextDecoder('utf-8');
  const parser = new SseLineParser(options);
  for await (const chunk of chunks) {
    const text = typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    yield* parser.push(text);
  }
  yield* parser.push(decoder.decode());
  yield* parser.end();
}

/** The incremental state machine behind {@link readSseEvents}. */
export class SseLineParser {
  private buffer = '';
  private data: string[] = [];
  private hasData = false;
  private eventType = '';
  private lastEventId: string | undefined;
  private retry: number | undefined;

  constructor(private readonly options: SseReadOptions = {}) {}

  /** Feeds text; returns the events completed by it. */
  push(text: string): SseEvent[] {
    this.buffer += text;
    const events: SseEvent[] = [];
    let start = 0;
    for (;;) {
      const cr = this.buffer.indexOf('\r', start);
      const lf = this.buffer.indexOf('\n', start);
      if (cr === -1 && lf === -1) break;
      let end: number;
      let next: number;
      if (cr !== -1 && (lf === -1 || cr < lf)) {
        // A CR at the very end may be the first half of a CRLF: wait for the next chunk.
        if (cr === this.buffer.length - 1) break;
        end = cr;
        next = this.buffer[cr + 1] === '\n' ? cr + 2 : cr + 1;
      } else {
        end = lf;
        next = lf + 1;
      }
      const event = this.line(this.buffer.slice(start, end));
      if (event) events.push(event);
      start = next;
    }
    this.buffer = this.buffer.slice(start);
    return events;
  }

  /** The stream ended: a last line without a line end, and an event without a blank line, still count. */
  end(): SseEvent[] {
    const events: SseEvent[] = [];
    let rest = this.buffer;
    this.buffer = '';
    if (rest.endsWith('\r')) rest = rest.slice(0, -1);
    if (rest !== '') {
      const event = this.line(rest);
      if (event) events.push(event);
    }
    const last = this.dispatch();
    if (last) events.push(last);
    return events;
  }

  private line(line: string): SseEvent | undefined {
    if (line === '') return this.dispatch();
    if (line.startsWith(':')) {
      this.options.onComment?.(line.slice(1).replace(/^ /, ''));
      return undefined;
    }
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    switch (field) {
      case 'event':
        this.eventType = value;
        break;
      case 'data':
        this.data.push(value);
        this.hasData = true;
        break;
      case 'id':
        if (!value.includes('\0')) this.lastEventId = value;
        break;
      case 'retry':
        if (/^\d+$/.test(value)) this.retry = Number(value);
        break;
      default:
        // Unknown fields are ignored.
        break;
    }
    return undefined;
  }

  private dispatch(): SseEvent | undefined {
    const hasData = this.hasData;
    const event: SseEvent = { event: this.eventType || 'message', data: this.data.join('\n') };
    if (this.lastEventId !== undefined) event.id = this.lastEventId;
    if (this.retry !== undefined) event.retry = this.retry;
    this.data = [];
    this.hasData = false;
    this.eventType = '';
    return hasData ? event : undefined;
  }
}
