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
 * event whose data passes `maxEventBytes` throws at the byte that crosses the cap.
 */
import { ResponseTooLargeError } from './errors.js';
import { DEFAULT_LIMITS } from './limits.js';

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
  /** Longest line, in bytes. @default 8 MiB */
  maxLineBytes?: number;
  /** Most `data:` bytes of one event. @default 8 MiB */
  maxEventBytes?: number;
  /** The error for a passed cap. @default a ResponseTooLargeError without operation or agent */
  tooLarge?: (limit: 'maxSseLineBytes' | 'maxSseEventBytes', max: number) => Error;
}

/** Yields the events of an SSE stream until the stream ends. */
export async function* readSseEvents(
  chunks: AsyncIterable<Uint8Array | string>,
  options: SseReadOptions = {},
): AsyncGenerator<SseEvent, void, undefined> {
  const parser = new SseLineParser(options);
  for await (const chunk of chunks) yield* parser.push(chunk);
  yield* parser.end();
}

const LF = 0x0a;
const CR = 0x0d;
const encoder = new TextEncoder();
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
      this.checkLine(this.pendingBytes + end - start);
      const event = this.line(this.takeLine(bytes.subarray(start, end)));
      if (event) events.push(event);
      start = bytes[end] === CR && bytes[end + 1] === LF ? end + 2 : end + 1;
      if (bytes[end] === CR && end + 1 === bytes.length) this.afterCR = true;
    }
    if (start < bytes.length) {
      this.checkLine(this.pendingBytes + bytes.length - start);
      this.pending.push(bytes.subarray(start));
      this.pendingBytes += bytes.length - start;
    }
    return events;
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
