/**
 * The blob store: content-addressed bytes (key = SHA-256), written and read as streams so that
 * memory is bounded by a chunk, never by a blob. Two drivers implement it: the filesystem
 * (`FsBlobStore`, the embedded default under `.data/blobs/`) and S3-compatible object storage
 * (`S3BlobStore`). Both pass the same contract test (test/unit/storage/blob-store-contract.ts).
 *
 * Writing the same content twice stores it once (a retried activity costs nothing), and writers
 * of one blob may race: the key names the content, so whichever lands, it is the same bytes.
 */

import type { BlobReference, MetaObjects } from './references.js';

/** What the store says about one blob. See [docs/files.md](../docs/files.md#the-store). */
export interface StoredBlob {
  /** `sha256:<hex>`: what a reference keeps. */
  key: string;
  /** The content's SHA-256, hex. */
  sha256: string;
  /** Bytes. */
  size: number;
}

/** One blob in a listing (for retention). See [docs/files.md](../docs/files.md#the-store). */
export interface ListedBlob {
  /** The blob's key (its SHA-256, hex). */
  key: string;
  /** Its size in bytes. */
  size: number;
  /** When it was (last) written. */
  modifiedAt: Date;
}

/** Bytes to store: one buffer, or a stream of chunks (a Node `Readable` is one). See [docs/files.md](../docs/files.md#the-store). */
export type BlobContent = Uint8Array | AsyncIterable<Uint8Array>;

/** How a blob is written: cancellation and the workflow it is kept for. See [docs/files.md](../docs/files.md#the-store). */
export interface BlobWriteOptions {
  /** Aborts the write (nothing half-written becomes a blob). */
  signal?: AbortSignal;
  /** The workflow that will hold the blob (recorded before the blob is written). */
  reference?: BlobReference;
}

/** How a blob is read: cancellation and the largest size accepted. See [docs/files.md](../docs/files.md#the-store). */
export interface BlobReadOptions {
  /** Aborts the read. */
  signal?: AbortSignal;
  /** Refuse a blob larger than this many bytes (checked before anything is read). */
  maxBytes?: number;
}

/** The content-addressed store of files and large payloads, on a filesystem or S3. See [docs/files.md](../docs/files.md#the-store). */
export interface BlobStore {
  /** `fs` or `s3`. */
  readonly kind: string;
  /** Where it stores, for messages (a folder, `s3://bucket/prefix`); no credentials. */
  readonly location: string;
  /**
   * Stores `content` under its SHA-256 and says where; storing the same bytes again stores
   * nothing new. `reference` names the workflow that will hold it (what retention keeps it for).
   */
  put(content: BlobContent, options?: BlobWriteOptions): Promise<StoredBlob>;
  /**
   * The blob's bytes as a stream of chunks.
   * @throws BlobNotFoundError naming the key when there is none; InvalidBlobKeyError for a malformed key.
   */
  get(key: string, options?: BlobReadOptions): Promise<AsyncIterable<Uint8Array>>;
  /** Size of the blob, or undefined when there is none. @throws InvalidBlobKeyError */
  stat(key: string): Promise<StoredBlob | undefined>;
  /** Removes the blob; false when there was none. @throws InvalidBlobKeyError */
  delete(key: string): Promise<boolean>;
  /** Every blob (content-addressed ones only; sessions and temporary files are not blobs). */
  list(): AsyncIterable<ListedBlob>;
  /**
   * The append session of `sessionId` (any string: a workflow and artifact id, say): created on
   * first use, found again by the same id after a crash.
   */
  appendSession(sessionId: string, options?: { reference?: BlobReference }): Promise<AppendSession>;
  /**
   * Records that `reference` holds the blob too: for a result that carries a reference into
   * another workflow (a release's report linking a delegation's file), so retention keeps the
   * blob as long as that workflow too.
   */
  addReference(key: string, reference: BlobReference): Promise<void>;
  /** The reference index and removal locks (storage/references.ts), beside the blobs. */
  readonly meta: MetaObjects;
  /** Append sessions untouched since `before` are abandoned (their writer died for good): removes them, says how many. */
  removeStaleSessions(before: Date): Promise<number>;
  /** Releases connections (S3); the store is unusable afterwards. */
  close(): Promise<void>;
}

/**
 * An artifact that arrives in chunks, written as it arrives: chunks go in order under the
 * session, and `finalize` turns them into one content-addressed blob.
 *
 * Idempotent by offset, so a resumed writer simply replays what it has: `append(offset, chunk)`
 * skips the bytes the session already holds and writes only the rest. `held()` says how many
 * bytes are stored (after a worker was killed: what survived), so a writer can also skip ahead.
 * `finalize` twice returns the same blob.
 * See [docs/files.md](../docs/files.md#the-store).
 */
export interface AppendSession {
  /** The id the session was opened with. */
  readonly sessionId: string;
  /** Bytes the session holds durably (S3: in uploaded parts; the rest of a part still buffered is not counted). */
  held(): Promise<number>;
  /**
   * Writes `chunk`, which starts at byte `offset` of the artifact. Bytes below `held()` are
   * skipped (already stored); an offset above `held()` is a gap.
   * @returns the bytes held afterwards
   * @throws AppendGapError when `offset > held()`
   */
  append(offset: number, chunk: Uint8Array, options?: { signal?: AbortSignal }): Promise<number>;
  /** Ends the session: the bytes become a content-addressed blob (the session is removed). Idempotent. */
  finalize(options?: { signal?: AbortSignal }): Promise<StoredBlob>;
  /** Drops what the session holds. */
  abort(): Promise<void>;
}

/** Reads a whole (small) blob into memory, refusing more than `maxBytes`. */
export async function readBlob(store: BlobStore, key: string, options: BlobReadOptions = {}): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of await store.get(key, options)) chunks.push(chunk);
  return Buffer.concat(chunks);
}
