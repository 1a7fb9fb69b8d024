/**
 * The blob store's failures: one class per case, each with a stable `code` and a sentence that
 * names the reference. A missing or unreadable blob is a typed failure, never a crash.
 */

/** Stable codes of blob store failures (activities map them to `ApplicationFailure` types). See [docs/files.md](../docs/files.md#the-store). */
export const BlobErrorCode = {
  /** No blob under that key (removed by retention, or never stored in this store). */
  notFound: 'A2A_BLOB_NOT_FOUND',
  /** A key that is not `sha256:<64 hex>` (keys come from history and HTTP requests: never trusted as paths). */
  invalidKey: 'A2A_BLOB_KEY_INVALID',
  /** A blob larger than the reader's cap. */
  tooLarge: 'A2A_BLOB_TOO_LARGE',
  /** An append session was asked to write past the bytes it holds (a chunk is missing). */
  appendGap: 'A2A_BLOB_APPEND_GAP',
  /** The store did not answer as a store should (I/O error, S3 error): usually worth a retry. */
  unavailable: 'A2A_BLOB_STORE_UNAVAILABLE',
} as const;

export type BlobErrorCode = (typeof BlobErrorCode)[keyof typeof BlobErrorCode];

/** A failure of the blob store; `code` says which. See [docs/files.md](../docs/files.md#the-store). */
export class BlobStoreError extends Error {
  /** The class's name, for logs. */
  override readonly name: string = 'BlobStoreError';
  constructor(
    /** Which failure this is: a stable code. */
    readonly code: BlobErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** No blob under `key`. See [docs/files.md](../docs/files.md#the-store). */
export class BlobNotFoundError extends BlobStoreError {
  /** The class's name, for logs. */
  override readonly name = 'BlobNotFoundError';
  constructor(
    /** The key that names no blob. */
    readonly key: string,
    where: string,
    options?: { cause?: unknown },
  ) {
    super(
      BlobErrorCode.notFound,
      `Blob ${key} is not in ${where}: it was removed by retention, or stored in another store; check A2A_BLOB_STORE and its settings.`,
      options,
    );
  }
}

/** `key` is not a blob key of ours. See [docs/files.md](../docs/files.md#the-store). */
export class InvalidBlobKeyError extends BlobStoreError {
  /** The class's name, for logs. */
  override readonly name = 'InvalidBlobKeyError';
  constructor(key: string) {
    const shown = key.length > 80 ? `${key.slice(0, 80)}…` : key;
    super(BlobErrorCode.invalidKey, `"${shown}" is not a blob key (expected sha256: and 64 hex digits).`);
  }
}

/** The blob is larger than the reader accepts. See [docs/files.md](../docs/files.md#the-store). */
export class BlobTooLargeError extends BlobStoreError {
  /** The class's name, for logs. */
  override readonly name = 'BlobTooLargeError';
  constructor(key: string, size: number, max: number) {
    super(BlobErrorCode.tooLarge, `Blob ${key} has ${size} bytes, more than the ${max} this reader accepts.`);
  }
}

/** An append at `offset` when the session holds only `held` bytes. See [docs/files.md](../docs/files.md#the-store). */
export class AppendGapError extends BlobStoreError {
  /** The class's name, for logs. */
  override readonly name = 'AppendGapError';
  constructor(session: string, offset: number, held: number) {
    super(
      BlobErrorCode.appendGap,
      `Append session ${session} holds ${held} bytes, so a chunk at offset ${offset} would leave a gap; append from offset ${held}.`,
    );
  }
}

/** Wraps an error of the store's backend (file system, S3) with a sentence naming what was attempted. */
export function unavailable(what: string, cause: unknown): BlobStoreError {
  if (cause instanceof BlobStoreError) return cause;
  const detail = cause instanceof Error ? cause.message : String(cause);
  return new BlobStoreError(BlobErrorCode.unavailable, `The blob store failed to ${what}: ${detail}`, { cause });
}
