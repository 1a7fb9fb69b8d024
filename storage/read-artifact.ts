/**
 * `readArtifact(ref)`: a stored file as a stream, for your own code (a CI step that publishes an
 * SBOM, a bot that attaches a change log). The bytes are counted and hashed as they pass: a
 * blob that is not the one the reference names (other size, other SHA-256) ends the stream with
 * an error instead of handing over wrong bytes.
 */
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { ArtifactRef } from '../contract/artifact-ref.js';
import type { BlobStore } from './blob-store.js';
import { loadBlobSettings, openBlobStore } from './config.js';
import { BlobErrorCode, BlobStoreError } from './errors.js';

/** How `readArtifact` reads an artifact: the store and the caps. See [docs/files.md](../docs/files.md#getting-the-files). */
export interface ReadArtifactOptions {
  /** The store to read from. @default the store of the environment's settings (A2A_BLOB_*, A2A_S3_*) */
  store?: BlobStore;
  /** Aborts the read. */
  signal?: AbortSignal;
}

/**
 * The bytes of a stored artifact, checked against its reference while they stream.
 * @throws BlobNotFoundError naming the key when the store has no such blob (retention removed it).
 */
export async function readArtifact(ref: ArtifactRef, options: ReadArtifactOptions = {}): Promise<Readable> {
  const ownStore = options.store === undefined;
  const store = options.store ?? openBlobStore(loadBlobSettings().store);
  let source: AsyncIterable<Uint8Array>;
  try {
    source = await store.get(ref.key, options.signal ? { signal: options.signal } : {});
  } catch (err) {
    if (ownStore) await store.close();
    throw err;
  }
  return Readable.from(
    (async function* () {
      const hash = createHash('sha256');
      let size = 0;
      try {
        for await (const chunk of source) {
          hash.update(chunk);
          size += chunk.byteLength;
          if (size > ref.size) break;
          yield chunk;
        }
        const digest = hash.digest('hex');
        if (size !== ref.size || digest !== ref.sha256) {
          throw new BlobStoreError(
            BlobErrorCode.unavailable,
            `Blob ${ref.key} is not the file "${ref.name}" (${ref.size} bytes, SHA-256 ${ref.sha256.slice(0, 12)}…): the store holds other bytes.`,
          );
        }
      } finally {
        if (ownStore) await store.close();
      }
    })(),
    { objectMode: false },
  );
}
