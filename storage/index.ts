/**
 * `a2a-temporal/storage`: the blob store under files and large payloads, for code OUTSIDE
 * workflows. The store (filesystem or S3-compatible, from the A2A_BLOB_* / A2A_S3_* settings),
 * Temporal's External Storage on it for your own clients and workers, and typed failures.
 *
 * @module a2a-temporal/storage
 */
export type {
  AppendSession,
  BlobContent,
  BlobReadOptions,
  BlobStore,
  BlobWriteOptions,
  ListedBlob,
  StoredBlob,
} from './blob-store.js';
export type { BlobReference, MetaObjects } from './references.js';
export {
  collectGarbage,
  temporalLiveness,
  type RetentionOptions,
  type RetentionReport,
  type WorkflowLiveness,
} from './retention.js';
export { FsBlobStore, type FsBlobStoreOptions } from './fs-blob-store.js';
export type { S3BlobStoreOptions } from './s3-blob-store.js';
export {
  loadBlobSettings,
  loadCodecServerSettings,
  openBlobStore,
  type BlobSettings,
  type BlobStoreConfig,
  type CodecServerSettings,
} from './config.js';
export {
  BLOB_DRIVER_NAME,
  blobExternalStorage,
  BlobStorageDriver,
  blobStoragePlugin,
  DEFAULT_THRESHOLD_BYTES,
  type BlobStorageOptions,
} from './temporal-storage.js';
export {
  AppendGapError,
  BlobErrorCode,
  BlobNotFoundError,
  BlobStoreError,
  BlobTooLargeError,
  InvalidBlobKeyError,
} from './errors.js';
export { readArtifact, type ReadArtifactOptions } from './read-artifact.js';
export type { ArtifactRef } from '../contract/artifact-ref.js';
export {
  codecHandler,
  signedBlobPath,
  startCodecServer,
  type CodecServerListenOptions,
  type CodecServerOptions,
  type RunningCodecServer,
} from './codec-server.js';
