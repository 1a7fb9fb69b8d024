/**
 * Temporal's External Storage (`@temporalio/common` 1.24, experimental) on our blob store: a
 * payload of at least the threshold (Temporal's default, 256 KiB) is written to the store by
 * the SDK and history keeps a claim (`{ key: 'sha256:…' }`); every worker and client with the
 * same store reads it back transparently. The SDK applies the payload codecs first (an
 * encryption codec's ciphertext is what is stored) and never deletes a blob: retention does
 * (storage/retention.ts).
 */
import { createHash } from 'node:crypto';
import {
  ExternalStorage,
  StorageDriverClaim,
  type DataConverter,
  type Payload,
  type StorageDriver,
  type StorageDriverRetrieveContext,
  type StorageDriverStoreContext,
} from '@temporalio/common';
import { SimplePlugin } from '@temporalio/plugin';
import proto from '@temporalio/proto';
import type { BlobStore } from './blob-store.js';
import type { BlobSettings } from './config.js';
import type { BlobReference } from './references.js';
import { digestOf } from './blob-key.js';
import { BlobErrorCode, BlobStoreError } from './errors.js';

const PayloadProto = proto.temporal.api.common.v1.Payload;

/**
 * The driver's name, written into every claim (Temporal routes a claim to the driver of that
 * name): it must never change, or stored payloads become unreadable. The same for both stores,
 * so blobs copied from one store to the other stay readable.
 */
export const BLOB_DRIVER_NAME = 'a2a-temporal-blobs';

/** Temporal's default threshold (256 KiB): payloads of at least this many bytes go to the store. */
export const DEFAULT_THRESHOLD_BYTES = 256 * 1024;

/** How Temporal's External Storage uses the blob store: the store, the threshold and the largest payload. See [docs/files.md](../docs/files.md). */
export interface BlobStorageOptions {
  /** Where payloads go. */
  store: BlobStore;
  /** @default 262144 (Temporal's 256 KiB); 0 sends every payload to the store */
  thresholdBytes?: number;
  /** A claim naming a bigger blob fails instead of loading it into memory. @default 64 MiB */
  maxPayloadBytes?: number;
}

/** A Temporal `StorageDriver` over the blob store: a payload becomes one content-addressed blob. See [docs/files.md](../docs/files.md). */
export class BlobStorageDriver implements StorageDriver {
  /** The driver's name in a claim: the reader's driver of the same name reads it back. */
  readonly name = BLOB_DRIVER_NAME;
  /** The kind of driver, for Temporal's metadata. */
  readonly type = 'a2a-temporal.blob-store';

  constructor(
    private readonly blobs: BlobStore,
    private readonly maxPayloadBytes = 64 * 1024 * 1024,
  ) {}

  /** Writes each payload as one blob and returns the claims that history keeps. */
  async store(context: StorageDriverStoreContext, payloads: Payload[]): Promise<StorageDriverClaim[]> {
    const claims: StorageDriverClaim[] = [];
    // The workflow whose history will hold the claim (an activity's result: its workflow), for retention.
    const target = context.target;
    const reference: BlobReference = {
      namespace: target?.namespace ?? '',
      ...(target?.kind === 'workflow' && target.id ? { workflowId: target.id } : {}),
    };
    for (const payload of payloads) {
      const blob = await this.blobs.put(PayloadProto.encode(payload).finish(), { ...signalOf(context), reference });
      claims.push(new StorageDriverClaim({ key: blob.key }));
    }
    return claims;
  }

  /** Reads the payloads that claims name back from the store. */
  async retrieve(context: StorageDriverRetrieveContext, claims: StorageDriverClaim[]): Promise<Payload[]> {
    return Promise.all(
      claims.map(async (claim) => {
        const key = claim.claimData.key ?? '';
        const bytes = await readVerified(this.blobs, key, this.maxPayloadBytes, context.abortSignal);
        return PayloadProto.decode(bytes) as Payload;
      }),
    );
  }
}

/** The `ExternalStorage` of a data converter, with our driver alone. */
export function blobExternalStorage(options: BlobStorageOptions): ExternalStorage {
  return new ExternalStorage({
    drivers: [new BlobStorageDriver(options.store, options.maxPayloadBytes)],
    payloadSizeThreshold: options.thresholdBytes ?? DEFAULT_THRESHOLD_BYTES,
  });
}

/**
 * The data converter with External Storage on our store, unless it already has an External
 * Storage of its own (then it is left alone: ours would replace the user's drivers).
 */
export function withBlobStorage(converter: DataConverter | undefined, options: BlobStorageOptions): DataConverter {
  if (converter?.externalStorage) return converter;
  return { ...converter, externalStorage: blobExternalStorage(options) };
}

/**
 * A Temporal plugin that sets External Storage on our store, for a `Client` (every client that
 * reads results must resolve the claims a worker wrote) or a `Worker`:
 * `new Client({ connection, plugins: [blobStoragePlugin({ store })] })`.
 * `a2aTemporalPlugin({ blobs })` does the same for a worker.
 */
export function blobStoragePlugin(options: BlobStorageOptions): SimplePlugin {
  return new SimplePlugin({
    name: 'a2a-temporal-blobs',
    dataConverter: (converter) => withBlobStorage(converter, options),
  });
}

/**
 * The plugins a client needs for `settings` (the environment's, see config.ts): ours with the
 * store, or none when External Storage is switched off.
 */
export function blobPlugins(settings: BlobSettings, store: BlobStore): SimplePlugin[] {
  return settings.externalStorage ? [blobStoragePlugin(blobStorageOptions(settings, store))] : [];
}

/** The plugin options of `settings` over an open store. */
export function blobStorageOptions(settings: BlobSettings, store: BlobStore): BlobStorageOptions {
  return { store, thresholdBytes: settings.thresholdBytes, maxPayloadBytes: settings.maxPayloadBytes };
}

/**
 * A whole blob, at most `maxBytes`, checked against its key: bytes that do not hash to their key
 * (a corrupted or tampered store) are refused rather than decoded.
 */
export async function readVerified(
  store: BlobStore,
  key: string,
  maxBytes: number,
  signal?: AbortSignal,
): Promise<Buffer> {
  const expected = digestOf(key);
  const hash = createHash('sha256');
  const chunks: Uint8Array[] = [];
  for await (const chunk of await store.get(key, { maxBytes, ...(signal ? { signal } : {}) })) {
    hash.update(chunk);
    chunks.push(chunk);
  }
  if (hash.digest('hex') !== expected) {
    throw new BlobStoreError(
      BlobErrorCode.unavailable,
      `Blob ${key} in ${store.location} does not match its SHA-256: the store holds corrupted bytes.`,
    );
  }
  return Buffer.concat(chunks);
}

function signalOf(context: { abortSignal?: AbortSignal }): { signal?: AbortSignal } {
  return context.abortSignal ? { signal: context.abortSignal } : {};
}
