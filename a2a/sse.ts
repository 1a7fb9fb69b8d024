/**
 * A Server-Sent Events reader (WHATWG HTML §9.2 "event stream interpretation") over any async
 * iterable of byte or string chunks — in practice undici's response body.
 *
 * It handles lines split across chunks (even a CRLF split between two chunks), CR, LF and
 * CRLF line ends, multi-line `data:`, `:` comments, the `event:`, `id:` and `retry:` fields,
 * and — more lenient than the spec — an event that is not followed by a blank line when the
 * stream ends. It knows nothing about A2A; {@link ./event-stream.ts} turns events into
 * validated StreamResponse objects.
 *
 * Bounded and linear: lines are split on bytes (CR and LF never occur inside a UTF-8 sequence),
 * every byte is looked at once however the chunks fall, and an unfinished line is kept as the
 * chunks it arrived in, counted, never re-scanned. A line longer than `maxLineBytes` or an
 * event whose data passes `maxEventBytes` throws at the byte that crosses the cap — unless the
 * reader was given `oversized`: then the event's data goes to the sink it makes, as it arrives
 * (see streamed-event.ts), and the event carries what the sink made of it. Buffered chunks are
 * read with a turn of the event loop now and then (loop-turns.ts).
 */
import { ResponseTooLargeError } from './errors.js';
import { DEFAULT_LIMITS } from './limits.js';
import { withLoopTurns } from './loop-turns.js';

/** One dispatched event. `event` is `"message"` unless the server named it. */
export interface SseEvent {
  event: string;
  /** The `data:` lines joined with `\n`. */
  data: string;
  /** The last event id seen so far on this stream, if any. */
  id?: string;
  /** The reconnection time the server asked for, if any. */
  retry?: number;
  /** An event too large to hold: what its {@link OversizedEventSink} made of its data (`data` is then empty). */
  streamed?: unknown;
}

/** Takes the data of an event too large to hold, as it arrives (the `data:` lines joined with LF). */
export interface OversizedEventSink {
  push(bytes: Uint8Array): void;
  /** The event ended (a blank line, or the stream's end): what stands for its data. */
  end(): unknown;
  /** The event was given up (a failure, the stream closed, an `event:` other than `message`). */
  dispose(): void;
}

export interface SseReadOptions {
  /** Called for every `:` comment line (servers use them as heartbeats). */
  onComment?: (text: string) => void;
  /** Longest line, in bytes. @default 8 MiB */
  maxLineBytes?: number;
  /** Most `data:` bytes of one event. @default 8 MiB */
  maxEventBytes?: number;
  /** The error for a passed cap. @default a ResponseTooLargeError without operation or agent */
  tooLarge?: (limit: 'maxSseLineBytes' | 'maxSseEventBytes', max: number) => Error;
  /** Past a cap, a `message` event's data lines go to the sink this makes instead of failing. Default: they fail. */
  oversized?: () => OversizedEventSink;
  /** With `oversized`: an event goes to the sink from this many bytes of data on, below the caps too. @default the caps */
  oversizedFromBytes?: number;
}

/** Yields the events of an SSE stream until the stream ends. */
export async function* readSseEvents(
  chunks: AsyncIterable<Uint8Array | string>,
  options: SseReadOptions = {},
): AsyncGenerator<SseEvent, void, undefined> {
  const parser = new SseLineParser(options);
  try {
    for await (const chunk of withLoopTurns(chunks)) yield* parser.push(chunk);
    yield* parser.end();
  } finally {
    parser.dispose();
  }
}

const LF = 0x0a;
const CR = 0x0d;
const encoder = new TextEncoder();
const DATA_FIELD = encoder.encode('data:');
const SPACE = 0x20;
const NEWLINE = new Uint8Array([LF]);
// Each line is a whole UTF-8 sequence; the stream's byte-order mark is dropped by hand, once.
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

/** The incremental state machine behind {@link readSseEvents}. Cost: O(bytes fed). */
export class SseLineParser {
  /** The unfinished line, as the chunks it arrived in. */
  private pending: Uint8Array[] = [];
  private pendingBytes = 0;
  /** The last chunk ended with CR: an LF that starts the next one belongs to it. */
  private afterCR = false;
  private firstLine = true;
  private data: string[] = [];
  private dataBytes = 0;
  private hasData = false;
  private eventType = '';
  private lastEventId: string | undefined;
  private retry: number | undefined;
  /** The current event is too large to hold: its data goes here. */
  private sink: OversizedEventSink | undefined;
  private sinkHasData = false;
  /** The current line is a `data:` line going to the sink as it arrives. */
  private streamingLine = false;
  private readonly maxLineBytes: number;
  private readonly maxEventBytes: number;

  constructor(private readonly options: SseReadOptions = {}) {
    this.maxLineBytes = options.maxLineBytes ?? DEFAULT_LIMITS.maxSseLineBytes;
    this.maxEventBytes = options.maxEventBytes ?? DEFAULT_LIMITS.maxSseEventBytes;
  }

  /** Feeds a chunk; returns the events completed by it. */
  push(chunk: Uint8Array | string): SseEvent[] {
    const bytes = typeof chunk === 'string' ? encoder.encode(chunk) : chunk;
    if (bytes.length === 0) return [];
    const events: SseEvent[] = [];
    let start = this.afterCR && bytes[0] === LF ? 1 : 0;
    this.afterCR = false;
    // The next CR and LF at or after `start`, each searched again only once passed: linear.
    let nextCR = -1;
    let nextLF = -1;
    for (;;) {
      if (nextCR < start) nextCR = indexOrEnd(bytes, CR, start);
      if (nextLF < start) nextLF = indexOrEnd(bytes, LF, start);
      const end = Math.min(nextCR, nextLF);
      if (end === bytes.length) break;
      const segment = bytes.subarray(start, end);
      if (this.streamingLine) {
        this.sink!.push(segment);
        this.streamingLine = false;
      } else if (!this.streamsLine(segment, true)) {
        this.checkLine(this.pendingBytes + end - start);
        const event = this.line(this.takeLine(segment));
        if (event) events.push(event);
      }
      start = bytes[end] === CR && bytes[end + 1] === LF ? end + 2 : end + 1;
      if (bytes[end] === CR && end + 1 === bytes.length) this.afterCR = true;
    }
    if (start < bytes.length) {
      const rest = bytes.subarray(start);
      if (this.streamingLine) this.sink!.push(rest);
      else if (!this.streamsLine(rest, false)) {
        this.checkLine(this.pendingBytes + rest.length);
        this.pending.push(rest);
        this.pendingBytes += rest.length;
      }
    }
    return events;
  }

  /** Gives up an event being streamed (the reading ended). */
  dispose(): void {
    this.sink?.dispose();
    this.sink = undefined;
  }

  /**
   * The pending line plus `tail` goes to the sink when it is a `data:` line and the event is
   * streamed already, or the line or the event's data would pass its cap (and there may be a
   * sink). `complete`: the line ends after `tail`; otherwise its next bytes go to the sink too.
   */
  private streamsLine(tail: Uint8Array, complete: boolean): boolean {
    if (!this.options.oversized) return false;
    const bytes = this.pendingBytes + tail.length;
    const from = this.options.oversizedFromBytes ?? Infinity;
    const lineCap = Math.min(this.maxLineBytes, from);
    if (!this.sink && bytes <= lineCap && this.dataBytes + bytes + 1 <= Math.min(this.maxEventBytes, from))
      return false;
    const whole = this.pending.length > 0 ? Buffer.concat([...this.pending, tail]) : tail;
    if (whole.length < DATA_FIELD.length || DATA_FIELD.some((byte, i) => whole[i] !== byte)) return false;
    this.pending = [];
    this.pendingBytes = 0;
    this.firstLine = false;
    const value = whole.subarray(whole[DATA_FIELD.length] === SPACE ? DATA_FIELD.length + 1 : DATA_FIELD.length);
    this.sinkData(value);
    this.streamingLine = !complete;
    return true;
  }

  /** One more data line of the streamed event (the data so far goes first, when it starts). */
  private sinkData(value: Uint8Array): void {
    if (!this.sink) {
      this.sink = this.options.oversized!();
      if (this.hasData) {
        this.sink.push(encoder.encode(this.data.join('\n')));
        this.sinkHasData = true;
      }
      this.data = [];
      this.dataBytes = 0;
    }
    if (this.sinkHasData) this.sink.push(NEWLINE);
    this.sinkHasData = true;
    this.sink.push(value);
  }

  /** The stream ended: a last line without a line end, and an event without a blank line, still count. */
  end(): SseEvent[] {
    const events: SseEvent[] = [];
    if (this.pendingBytes > 0) {
      const event = this.line(this.takeLine(new Uint8Array(0)));
      if (event) events.push(event);
    }
    const last = this.dispatch();
    if (last) events.push(last);
    return events;
  }

  private checkLine(bytes: number): void {
    if (bytes > this.maxLineBytes) throw this.tooLarge('maxSseLineBytes', this.maxLineBytes);
  }

  private tooLarge(limit: 'maxSseLineBytes' | 'maxSseEventBytes', max: number): Error {
    return this.options.tooLarge?.(limit, max) ?? new ResponseTooLargeError({ limit, max });
  }

  /** The pending bytes plus `tail`, decoded; the pending line is cleared. */
  private takeLine(tail: Uint8Array): { text: string; bytes: number } {
    let whole = tail;
    const bytes = this.pendingBytes + tail.length;
    if (this.pending.length > 0) {
      whole = new Uint8Array(bytes);
      let at = 0;
      for (const part of [...this.pending, tail]) {
        whole.set(part, at);
        at += part.length;
      }
      this.pending = [];
      this.pendingBytes = 0;
    }
    let text = decoder.decode(whole);
    if (this.firstLine) {
      this.firstLine = false;
      if (text.startsWith('\uFEFF')) text = text.slice(1);
    }
    return { text, bytes };
  }

  private line({ text: line, bytes }: { text: string; bytes: number }): SseEvent | undefined {
    if (line === '') return this.dispatch();
    if (line.startsWith(':')) {
      this.options.onComment?.(line.startsWith(': ') ? line.slice(2) : line.slice(1));
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
        if (this.sink) {
          this.sinkData(encoder.encode(value));
          break;
        }
        this.dataBytes += bytes + 1;
        if (this.dataBytes > this.maxEventBytes) throw this.tooLarge('maxSseEventBytes', this.maxEventBytes);
        this.data.push(value);
        this.hasData = true;
        break;
      case 'id':
        if (!value.includes('\0')) this.lastEventId = value;
        break;
      case 'retry':
        if (isDigits(value)) this.retry = Number(value);
        break;
      default:
        // Unknown fields are ignored.
        break;
    }
    return undefined;
  }

  private dispatch(): SseEvent | undefined {
    if (this.sink) return this.dispatchStreamed();
    const hasData = this.hasData;
    const event: SseEvent = { event: this.eventType || 'message', data: this.data.join('\n') };
    if (this.lastEventId !== undefined) event.id = this.lastEventId;
    if (this.retry !== undefined) event.retry = this.retry;
    this.data = [];
    this.dataBytes = 0;
    this.hasData = false;
    this.eventType = '';
    return hasData ? event : undefined;
  }

  private dispatchStreamed(): SseEvent {
    const sink = this.sink!;
    this.sink = undefined;
    this.sinkHasData = false;
    const type = this.eventType || 'message';
    this.eventType = '';
    this.hasData = false;
    try {
      // Only a message's data is routed; anything else that large fails as it always did.
      if (type !== 'message') throw this.tooLarge('maxSseEventBytes', this.maxEventBytes);
      const event: SseEvent = { event: type, data: '', streamed: sink.end() };
      if (this.lastEventId !== undefined) event.id = this.lastEventId;
      if (this.retry !== undefined) event.retry = this.retry;
      return event;
    } catch (error) {
      sink.dispose();
      throw error;
    }
  }
}

function isDigits(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x30 || c > 0x39) return false;
  }
  return text !== '';
}

/** The index of `byte` in `bytes` at or after `from`, or `bytes.length`. */
function indexOrEnd(bytes: Uint8Array, byte: number, from: number): number {
  const at = bytes.indexOf(byte, from);
  return at === -1 ? bytes.length : at;
}
