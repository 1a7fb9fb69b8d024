/**
 * The file bytes of one oversized stream event, spilled to a local temporary file while the
 * event is read (see streamed-event.ts): each `raw` (0.3: `file.bytes`) string is decoded from
 * base64 as it arrives, hashed and appended to the file, so memory holds one chunk of it. Once
 * the event is decoded, each file part carries its {@link SpilledBytes} (under a symbol: it never
 * reaches JSON, history or logs) and the tracker copies them to the blob store from there.
 *
 * Why a local file rather than the store at once: a file part's `filename` and `mediaType`, which
 * decide which stored file its bytes continue, may come after its bytes (protobuf JSON writes
 * `raw` first), so where the bytes belong is known only when the part has been read.
 */
import { createHash, type Hash } from 'node:crypto';
import { closeSync, createReadStream, mkdtempSync, openSync, readdirSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Part } from './schemas/part.js';

/** A file part's bytes as a spilled event holds them. */
export interface SpilledBytes {
  /** Decoded bytes. */
  readonly size: number;
  /** The first 16 hex digits of their SHA-256. */
  readonly sha: string;
  /** The bytes from byte `from` on, in pieces of at most 1 MiB. */
  read(from?: number): AsyncIterable<Buffer>;
}

/** Where a spilled string sits in the event: the artifact's index (-1: an artifact update's artifact) and the part's. */
export interface FileBytesLocation {
  artifact: number;
  part: number;
  /** A file part's bytes (base64, spilled decoded) or a text part's text (spilled as UTF-8). */
  kind: 'bytes' | 'text';
}

const SPILLED = Symbol('a2aTemporal.spilledBytes');
/** A spill's folder in the OS temp folder: `a2a-event-<pid>-<random>`, so a later process can tell whose it was. */
const SPILL_PREFIX = 'a2a-event-';
const SPILL_FOLDER = /^a2a-event-(\d+)-/;
const READ_PIECE = 1024 * 1024;
/** Base64 characters kept before they are decoded and written (one write per piece of the event, at most this much). */
const FLUSH_CHARS = 1024 * 1024;
/** Standard and URL-safe base64 (protobuf JSON accepts both), padding only at the end. */
const BASE64_CHARS = /^[A-Za-z0-9+/_-]*={0,2}$/;
const WHITESPACE = /[\t\n\r ]/g;

/**
 * Removes the spill folders (in `dir`, the OS temp folder by default) of processes that no longer
 * run: a worker killed while it read an oversized event leaves its folder behind, up to the size
 * of that event's files. The worker calls it once when its activities are created; a folder whose
 * process still runs (another worker on this host) is left alone. Returns the folders removed.
 */
export function removeAbandonedSpills(dir = tmpdir()): string[] {
  const removed: string[] = [];
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return removed;
  }
  for (const name of names) {
    const pid = SPILL_FOLDER.exec(name)?.[1];
    if (pid === undefined || processRuns(Number(pid))) continue;
    rmSync(join(dir, name), { recursive: true, force: true });
    removed.push(name);
  }
  return removed;
}

function processRuns(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The spilled bytes of a part decoded from an oversized event, if it is one. */
export function spilledBytesOf(part: Part): SpilledBytes | undefined {
  return (part as { [SPILLED]?: SpilledBytes })[SPILLED];
}

interface Segment extends FileBytesLocation {
  offset: number;
  size: number;
  hash: Hash;
  /** Base64 characters not decoded yet (fewer than 4); text: a high surrogate waiting for its pair. */
  rest: string;
  padded: boolean;
  sha?: string;
}

/** What a spill may hold and how it refuses. */
export interface SpillOptions {
  /** The most decoded bytes one event may spill (the delegation's stored-bytes budget). */
  maxBytes: number;
  /** The error past `maxBytes`. */
  tooLarge: () => Error;
  /** The error for a string that is not base64. */
  invalid: (problem: string) => Error;
}

export class FileBytesSpill {
  private dir: string | undefined;
  private fd: number | undefined;
  private readonly segments: Segment[] = [];
  private current: Segment | undefined;
  private written = 0;
  private pending: string[] = [];
  private pendingChars = 0;

  constructor(private readonly options: SpillOptions) {}

  /** A file-bytes (or text) string starts. */
  begin(at: FileBytesLocation): void {
    this.current = { ...at, offset: this.written, size: 0, hash: createHash('sha256'), rest: '', padded: false };
    this.segments.push(this.current);
  }

  /** More of the string (its unescaped characters): kept until {@link flush} (the tokenizer cuts strings small). */
  write(text: string): void {
    this.pending.push(text);
    this.pendingChars += text.length;
    if (this.pendingChars >= FLUSH_CHARS) this.flush();
  }

  /** Decodes and writes what {@link write} kept (the reader calls it after each piece of the event). */
  flush(): void {
    const segment = this.current;
    if (!segment || this.pending.length === 0) return;
    if (segment.kind === 'text') return this.flushText(segment);
    let chars = this.pending.join('').replace(WHITESPACE, '');
    this.pending = [];
    this.pendingChars = 0;
    if (chars === '') return;
    if (segment.padded && !/^=*$/.test(chars))
      throw this.options.invalid('file bytes with characters after the padding');
    if (!BASE64_CHARS.test(chars)) throw this.options.invalid('file bytes that are not base64');
    if (chars.includes('=')) segment.padded = true;
    chars = segment.rest + chars;
    const whole = chars.length - (chars.length % 4);
    segment.rest = chars.slice(whole);
    if (whole > 0) this.append(segment, Buffer.from(chars.slice(0, whole), 'base64'));
  }

  /** The string ended. */
  end(): void {
    this.flush();
    const segment = this.current!;
    if (segment.kind === 'text') {
      // A high surrogate without its pair: as JSON.parse and UTF-8 encoding would have it.
      if (segment.rest) this.append(segment, Buffer.from(segment.rest, 'utf8'));
      return this.ended(segment);
    }
    const rest = segment.rest.replace(/=+$/, '');
    if (rest.length === 1) throw this.options.invalid('file bytes that are not base64 (a lone trailing character)');
    if (rest) this.append(segment, Buffer.from(rest, 'base64'));
    this.ended(segment);
  }

  private ended(segment: Segment): void {
    segment.sha = segment.hash.digest('hex').slice(0, 16);
    this.current = undefined;
  }

  /** Text as UTF-8; a high surrogate at the end waits for the low one the next piece starts with. */
  private flushText(segment: Segment): void {
    let chars = segment.rest + this.pending.join('');
    this.pending = [];
    this.pendingChars = 0;
    const last = chars.charCodeAt(chars.length - 1);
    segment.rest = last >= 0xd800 && last <= 0xdbff ? chars.slice(-1) : '';
    if (segment.rest) chars = chars.slice(0, -1);
    if (chars) this.append(segment, Buffer.from(chars, 'utf8'));
  }

  /** Attaches each spilled string to its part of `artifacts` (the decoded event's). */
  attach(
    task: { artifacts?: readonly { parts: readonly Part[] }[] } | undefined,
    update?: { parts: readonly Part[] },
  ): void {
    for (const segment of this.segments) {
      const artifact = segment.artifact === -1 ? update : task?.artifacts?.[segment.artifact];
      const part = artifact?.parts[segment.part];
      const empty =
        segment.kind === 'bytes'
          ? part && 'raw' in part && part.raw === ''
          : part && 'text' in part && part.text === '';
      if (!part || !empty || spilledBytesOf(part))
        throw this.options.invalid(
          `${segment.kind === 'bytes' ? 'file bytes' : 'text'} where the decoded event has no such part`,
        );
      (part as { [SPILLED]?: SpilledBytes })[SPILLED] = this.spilled(segment);
    }
  }

  /** Removes the temporary file. */
  dispose(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
    if (this.dir) rmSync(this.dir, { recursive: true, force: true });
    this.dir = undefined;
  }

  private append(segment: Segment, bytes: Buffer): void {
    if (bytes.byteLength === 0) return;
    if (this.written + bytes.byteLength > this.options.maxBytes) throw this.options.tooLarge();
    if (this.fd === undefined) {
      this.dir = mkdtempSync(join(tmpdir(), `${SPILL_PREFIX}${process.pid}-`));
      this.fd = openSync(join(this.dir, 'bytes'), 'w+', 0o600);
    }
    // Synchronous: the event is read one body chunk at a time, so the next chunk waits for this one.
    writeSync(this.fd, bytes, 0, bytes.byteLength, this.written);
    segment.hash.update(bytes);
    segment.size += bytes.byteLength;
    this.written += bytes.byteLength;
  }

  private spilled(segment: Segment): SpilledBytes {
    const { offset, size, sha } = segment;
    const path = this.dir && join(this.dir, 'bytes');
    return {
      size,
      sha: sha!,
      async *read(from = 0) {
        if (from >= size || !path) return;
        yield* createReadStream(path, {
          start: offset + from,
          end: offset + size - 1,
          highWaterMark: READ_PIECE,
        }) as AsyncIterable<Buffer>;
      },
    };
  }
}
