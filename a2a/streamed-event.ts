/**
 * One SSE event too large to hold, read as it arrives (issue 22). A resumed stream starts with
 * the agent's snapshot of the task, and an SDK's snapshot holds every file part so far: one event
 * of hundreds of megabytes of base64 JSON. Past `maxSseEventBytes`, a stream opened with
 * `fileBytes` (the tracking reads) tokenizes the event's data incrementally instead:
 *
 * - the string value of an artifact part's file bytes (`raw` in 1.0, `file.bytes` in 0.3, at
 *   `[task.|result.[task.]]artifacts[i].parts[j]` or `[result.][artifactUpdate.]artifact.parts[j]`)
 *   goes to a {@link FileBytesSpill} as it arrives and is assembled as `""`; so does an artifact
 *   part's `text` (as UTF-8: a long log or report is stored like a file, never held as one string);
 * - everything else is assembled as usual and stays bounded as before: at most
 *   `maxSseEventBytes` of it (whitespace and escapes included), nested no deeper than
 *   `maxJsonDepth`, and no key twice (each spilled string must be the value that is decoded);
 *   broken JSON fails when the event ends, unless it passes the cap first, as a held event does.
 *
 * The tokenizer is stream-json's (`jsonParser` with strings, keys and numbers streamed as
 * chunks): a well-kept, dependency-light SAX-style tokenizer that never holds a whole string.
 */
import { getManyValues, none } from 'stream-chain/defs.js';
import { jsonParser, type Token } from 'stream-json/core/parser.js';
import type { OversizedEventSink } from './sse.js';
import { FileBytesSpill, type FileBytesLocation, type SpillOptions } from './spilled-bytes.js';

/** A streamed event once read: its JSON, file bytes replaced by `""`, and where those bytes are. */
export interface StreamedEvent {
  json: unknown;
  spill: FileBytesSpill;
}

export interface StreamedEventOptions extends SpillOptions {
  /** Bytes of the event that are not file bytes (`maxSseEventBytes`). */
  maxRemainderBytes: number;
  /** Characters of artifact text the event may carry apart from the remainder; unset: text counts as remainder. */
  maxTextBytes?: number;
  /** The error past `maxTextBytes`. */
  tooMuchText?: () => Error;
  maxDepth: number;
  /** The error for data that is not JSON. */
  notJson: () => Error;
  /** The error past `maxRemainderBytes`. */
  tooLargeEvent: () => Error;
  /** Bytes of the event arrived (a long event is progress, not silence). */
  onData?: () => void;
}

type Container = { kind: 'object'; value: Record<string, unknown>; key: string } | { kind: 'array'; value: unknown[] };

/** Keys a file's location may sit under, at the top of an event. */
const ENVELOPE_KEYS = new Set(['task', 'result', 'artifactUpdate']);

/** Reads one event's data as it arrives: an {@link OversizedEventSink} whose end is a {@link StreamedEvent}. */
export class StreamedEventReader implements OversizedEventSink {
  private readonly tokenize = jsonParser({ packValues: false, streamValues: true });
  private readonly decoder = new TextDecoder('utf-8', { fatal: false });
  private readonly spill: FileBytesSpill;
  private readonly stack: Container[] = [];
  private root: unknown = undefined;
  private done = false;
  /** What the current chunked token is: a key, a string (kept or spilled), a number. */
  private piece: 'key' | 'string' | 'file' | 'text' | 'number' | undefined;
  private text: string[] = [];
  private fed = 0;
  private fileChars = 0;
  private textChars = 0;
  /** The JSON broke or cannot be routed: the rest of the event is only counted, and this is its failure. */
  private broken: (() => Error) | undefined;

  constructor(private readonly options: StreamedEventOptions) {
    this.spill = new FileBytesSpill(options);
  }

  push(bytes: Uint8Array): void {
    this.options.onData?.();
    this.fed += bytes.byteLength;
    if (!this.broken) {
      try {
        this.tokens(this.tokenize(this.decoder.decode(bytes, { stream: true })));
        this.spill.flush();
      } catch (error) {
        this.broken = this.deferred(error);
      }
    }
    if (this.fed - this.fileChars - this.textChars > this.options.maxRemainderBytes) throw this.options.tooLargeEvent();
  }

  end(): StreamedEvent {
    if (!this.broken) {
      try {
        this.tokens(this.tokenize(this.decoder.decode()));
        // The flush call of stream-chain's protocol: the tokenizer ends what it holds.
        this.tokens((this.tokenize as unknown as (end: typeof none) => unknown)(none));
      } catch (error) {
        this.broken = this.deferred(error);
      }
    }
    if (this.broken) throw this.broken();
    if (!this.done) throw this.options.notJson();
    return { json: this.root, spill: this.spill };
  }

  dispose(): void {
    this.spill.dispose();
  }

  private tokens(result: unknown): void {
    if (result === none) return;
    for (const token of getManyValues(result as never) as Token[]) this.token(token);
  }

  /**
   * JSON that is broken or cannot be routed is only reported when the event ends, as a held event
   * would be: an event that passes the cap meanwhile fails with the cap, as it always did.
   * Failures of the file bytes (not base64, past the stored-bytes budget) are thrown at once.
   */
  private deferred(error: unknown): () => Error {
    if (error instanceof Unroutable) return () => this.options.invalid(error.problem);
    if (error instanceof Error && error.message.startsWith('Parser')) return () => this.options.notJson();
    throw error;
  }

  private token(token: Token): void {
    if (this.done) throw this.options.notJson();
    switch (token.name) {
      case 'startObject':
      case 'startArray': {
        if (this.stack.length >= this.options.maxDepth)
          throw new Unroutable(`JSON nested deeper than ${this.options.maxDepth} levels`);
        const container: Container =
          token.name === 'startObject' ? { kind: 'object', value: {}, key: '' } : { kind: 'array', value: [] };
        this.value(container.value);
        this.stack.push(container);
        return;
      }
      case 'endObject':
      case 'endArray': {
        this.stack.pop();
        if (this.stack.length === 0) this.done = true;
        return;
      }
      case 'startKey':
        this.piece = 'key';
        return;
      case 'endKey': {
        const top = this.stack.at(-1) as Extract<Container, { kind: 'object' }>;
        const key = this.text.join('');
        this.text = [];
        // A key twice would let a spilled string be replaced by another value: refused.
        if (Object.hasOwn(top.value, key)) throw new Unroutable('the same key twice in an object');
        top.key = key;
        this.piece = undefined;
        return;
      }
      case 'startString': {
        const at = this.fileBytesLocation();
        this.piece = at ? (at.kind === 'text' ? 'text' : 'file') : 'string';
        if (at) this.spill.begin(at);
        return;
      }
      case 'stringChunk':
      case 'numberChunk':
        if (this.piece === 'file') {
          this.fileChars += token.value.length;
          this.spill.write(token.value);
        } else if (this.piece === 'text') {
          this.textChars += token.value.length;
          if (this.textChars > this.options.maxTextBytes!)
            throw (this.options.tooMuchText ?? this.options.tooLargeEvent)();
          this.spill.write(token.value);
        } else this.text.push(token.value);
        return;
      case 'endString':
        if (this.piece === 'file' || this.piece === 'text') {
          this.spill.end();
          this.value('');
        } else this.value(this.take());
        return;
      case 'startNumber':
        this.piece = 'number';
        return;
      case 'endNumber':
        this.value(Number(this.take()));
        return;
      case 'nullValue':
      case 'trueValue':
      case 'falseValue':
        this.value(token.value);
        return;
      default:
        // Packed tokens (keyValue, stringValue, numberValue) do not occur with streamValues and no packing; whitespace is not emitted.
        return;
    }
  }

  private take(): string {
    const text = this.text.join('');
    this.text = [];
    this.piece = undefined;
    return text;
  }

  private value(value: unknown): void {
    const top = this.stack.at(-1);
    if (!top) {
      this.root = value;
      if (typeof value !== 'object' || value === null) this.done = true;
    } else if (top.kind === 'array') top.value.push(value);
    // As JSON.parse does: "__proto__" is an own property, never the prototype.
    else Object.defineProperty(top.value, top.key, { value, enumerable: true, writable: true, configurable: true });
  }

  /** Where the string starting now is a file part's bytes, if it is one (see the module's comment). */
  private fileBytesLocation(): FileBytesLocation | undefined {
    // An array below the top holds the open container as its last element; the top one gets the string next.
    const last = this.stack.length - 1;
    const path = this.stack.map((c, i) => (c.kind === 'array' ? c.value.length - (i === last ? 0 : 1) : c.key));
    let end = path.length;
    let kind: FileBytesLocation['kind'] = 'bytes';
    if (path[end - 1] === 'raw') end -= 1;
    else if (path[end - 1] === 'bytes' && path[end - 2] === 'file') end -= 2;
    else if (path[end - 1] === 'text' && this.options.maxTextBytes !== undefined) {
      end -= 1;
      kind = 'text';
    } else return undefined;
    const part = path[end - 1];
    if (typeof part !== 'number' || path[end - 2] !== 'parts') return undefined;
    let artifact: number;
    if (typeof path[end - 3] === 'number' && path[end - 4] === 'artifacts') {
      artifact = path[end - 3] as number;
      end -= 4;
    } else if (path[end - 3] === 'artifact') {
      artifact = -1;
      end -= 3;
    } else return undefined;
    if (end > 2 || !path.slice(0, end).every((key) => typeof key === 'string' && ENVELOPE_KEYS.has(key)))
      return undefined;
    return { artifact, part, kind };
  }
}

/** A shape this reader refuses (deep nesting, a key twice). */
class Unroutable extends Error {
  constructor(readonly problem: string) {
    super(problem);
  }
}
