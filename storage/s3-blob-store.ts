/**
 * The S3-compatible driver, on the official AWS SDK. Credentials come from the SDK's usual chain
 * (environment, shared config and credentials files with `AWS_PROFILE`, SSO, container and
 * instance roles); `endpoint` and `forcePathStyle` point it at S3-compatible servers.
 *
 * ```
 * <prefix>blobs/sha256/ab/ab12…     one object per blob, named by its SHA-256
 * <prefix>tmp/<uuid>                a large put in progress (copied to its hash key when complete)
 * <prefix>sessions/<name>           an append session: a multipart upload while it runs
 * <prefix>sessions/<name>.done      the blob a finalized session became
 * <prefix>meta/                     the reference index and removal locks (references.ts)
 * ```
 *
 * Small blobs (up to one part) are buffered and put straight to their hash key with
 * `If-None-Match: *` (a blob that exists already is left alone; a server without conditional
 * writes overwrites identical bytes, which is just as correct). Larger ones stream as a multipart
 * upload, a part at a time, so memory is bounded by `partSize`. Append sessions are multipart
 * uploads found again by their key after a crash: `held()` is the sum of the uploaded parts.
 * One object copy is limited to 5 GiB, so is one blob.
 */
import { createHash, randomUUID } from 'node:crypto';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CopyObjectCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  ListPartsCommand,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
  type CompletedPart,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import type {
  AppendSession,
  BlobContent,
  BlobReadOptions,
  BlobStore,
  BlobWriteOptions,
  ListedBlob,
  StoredBlob,
} from './blob-store.js';
import { protectBlob, type BlobReference, type MetaObjects } from './references.js';
import { blobKey, digestOf, sessionName } from './blob-key.js';
import { AppendGapError, BlobNotFoundError, BlobTooLargeError, unavailable } from './errors.js';

/** S3's smallest part (but the last). */
const MIN_PART_SIZE = 5 * 1024 * 1024;

/** The bucket, endpoint and credentials of the S3 blob store. See [docs/files.md](../docs/files.md#the-store). */
export interface S3BlobStoreOptions {
  /** The bucket that keeps the blobs. */
  bucket: string;
  /** Prepended to every key (`a2a/` → `a2a/blobs/…`). @default '' */
  prefix?: string;
  /** The SDK client's settings: region, endpoint, forcePathStyle, credentials (default: the SDK's chain). */
  client?: S3ClientConfig;
  /** Bytes per multipart part, at least 5 MiB: the most a writer buffers. @default 8 MiB */
  partSize?: number;
}

export class S3BlobStore implements BlobStore {
  readonly kind = 's3';
  readonly location: string;
  readonly bucket: string;
  readonly prefix: string;
  readonly partSize: number;
  readonly client: S3Client;
  readonly meta: MetaObjects;

  constructor(options: S3BlobStoreOptions) {
    this.bucket = options.bucket;
    this.prefix = options.prefix ?? '';
    this.partSize = Math.max(MIN_PART_SIZE, options.partSize ?? 8 * 1024 * 1024);
    // The SDK warns on Node 20 that versions published after January 2027 need Node 22; the
    // version we depend on is pinned below that, so the warning says nothing about this process.
    process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
    this.client = new S3Client({ ...options.client });
    this.location = `s3://${this.bucket}/${this.prefix}`;
    this.meta = new S3MetaObjects(this);
  }

  async put(content: BlobContent, options: BlobWriteOptions = {}): Promise<StoredBlob> {
    const hash = createHash('sha256');
    let size = 0;
    let upload: MultipartWriter | undefined;
    let buffer: Uint8Array[] = [];
    let buffered = 0;
    try {
      for await (const chunk of content instanceof Uint8Array ? [content] : content) {
        hash.update(chunk);
        size += chunk.byteLength;
        buffer.push(chunk);
        buffered += chunk.byteLength;
        if (buffered >= this.partSize) {
          upload ??= await MultipartWriter.create(this, this.key(`tmp/${randomUUID()}`), options.signal);
          await upload.uploadPart(Buffer.concat(buffer), options.signal);
          buffer = [];
          buffered = 0;
        }
      }
      const sha256 = hash.digest('hex');
      const blob: StoredBlob = { key: blobKey(sha256), sha256, size };
      if (!upload) {
        await protectBlob(this.meta, sha256, options.reference, options.signal);
        await this.putIfAbsent(this.blobKeyOf(sha256), Buffer.concat(buffer), options.signal);
        return blob;
      }
      if (buffered > 0) await upload.uploadPart(Buffer.concat(buffer), options.signal);
      await upload.complete(options.signal);
      await protectBlob(this.meta, sha256, options.reference, options.signal);
      await this.copyIfAbsent(upload.key, sha256, options.signal);
      await this.deleteObject(upload.key);
      return blob;
    } catch (err) {
      await upload?.abort().catch(() => undefined);
      throw unavailable(`store a blob in ${this.location}`, err);
    }
  }

  async get(key: string, options: BlobReadOptions = {}): Promise<AsyncIterable<Uint8Array>> {
    const object = this.blobKeyOf(digestOf(key));
    try {
      const res = await this.client.send(
        new GetObjectCommand({ Bucket: this.bucket, Key: object }),
        signalOption(options.signal),
      );
      const body = res.Body as (AsyncIterable<Uint8Array> & { destroy?: () => void }) | undefined;
      const size = res.ContentLength ?? 0;
      if (options.maxBytes !== undefined && size > options.maxBytes) {
        body?.destroy?.();
        throw new BlobTooLargeError(key, size, options.maxBytes);
      }
      return body ?? emptyStream();
    } catch (err) {
      if (isNotFound(err)) throw new BlobNotFoundError(key, this.location, { cause: err });
      throw unavailable(`read blob ${key}`, err);
    }
  }

  async stat(key: string): Promise<StoredBlob | undefined> {
    const sha256 = digestOf(key);
    const size = await this.headSize(this.blobKeyOf(sha256));
    return size === undefined ? undefined : { key, sha256, size };
  }

  async delete(key: string): Promise<boolean> {
    const object = this.blobKeyOf(digestOf(key));
    if ((await this.headSize(object)) === undefined) return false;
    await this.deleteObject(object);
    return true;
  }

  async *list(): AsyncIterable<ListedBlob> {
    for await (const object of this.listObjects('blobs/sha256/')) {
      const digest = /([0-9a-f]{64})$/.exec(object.key)?.[1];
      if (digest) yield { key: blobKey(digest), size: object.size, modifiedAt: object.modifiedAt };
    }
  }

  async appendSession(sessionId: string, options: { reference?: BlobReference } = {}): Promise<AppendSession> {
    return new S3AppendSession(this, sessionId, this.key(`sessions/${sessionName(sessionId)}`), options.reference);
  }

  async addReference(key: string, reference: BlobReference): Promise<void> {
    await protectBlob(this.meta, digestOf(key), reference);
  }

  async removeStaleSessions(before: Date): Promise<number> {
    let removed = 0;
    for (const folder of ['sessions/', 'tmp/']) {
      let keyMarker: string | undefined;
      let uploadIdMarker: string | undefined;
      do {
        const page = await this.client.send(
          new ListMultipartUploadsCommand({
            Bucket: this.bucket,
            Prefix: this.key(folder),
            KeyMarker: keyMarker,
            UploadIdMarker: uploadIdMarker,
          }),
        );
        for (const upload of page.Uploads ?? []) {
          if (upload.Initiated && upload.Initiated < before && upload.Key && upload.UploadId) {
            await this.client.send(
              new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: upload.Key, UploadId: upload.UploadId }),
            );
            if (folder === 'sessions/') removed += 1;
          }
        }
        keyMarker = page.IsTruncated ? page.NextKeyMarker : undefined;
        uploadIdMarker = page.IsTruncated ? page.NextUploadIdMarker : undefined;
      } while (keyMarker);
      for await (const object of this.listObjects(folder)) {
        if (object.modifiedAt < before) await this.deleteObject(object.key);
      }
    }
    return removed;
  }

  async close(): Promise<void> {
    this.client.destroy();
  }

  key(path: string): string {
    return `${this.prefix}${path}`;
  }

  blobKeyOf(sha256: string): string {
    return this.key(`blobs/sha256/${sha256.slice(0, 2)}/${sha256}`);
  }

  /** Size of an object, or undefined when there is none. */
  async headSize(object: string): Promise<number | undefined> {
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: object }));
      return head.ContentLength ?? 0;
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw unavailable(`read ${object}`, err);
    }
  }

  async deleteObject(object: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: object }));
  }

  /** Puts `body` at `object` unless something is there already (If-None-Match; plain put where the server has no conditional writes). */
  async putIfAbsent(object: string, body: Uint8Array, signal?: AbortSignal): Promise<void> {
    try {
      await this.client.send(
        new PutObjectCommand({ Bucket: this.bucket, Key: object, Body: body, IfNoneMatch: '*' }),
        signalOption(signal),
      );
    } catch (err) {
      const status = httpStatus(err);
      if (status === 412) return; // it exists: content-addressed, so it is these bytes
      if (status !== 409 && status !== 501 && status !== 400) throw err;
      // 409: a concurrent conditional write of the same key; 501/400: no conditional writes here.
      await this.client.send(
        new PutObjectCommand({ Bucket: this.bucket, Key: object, Body: body }),
        signalOption(signal),
      );
    }
  }

  /** Copies a complete object to the blob key of `sha256` unless that blob exists. */
  async copyIfAbsent(source: string, sha256: string, signal?: AbortSignal): Promise<void> {
    const target = this.blobKeyOf(sha256);
    if ((await this.headSize(target)) !== undefined) return;
    await this.client.send(
      new CopyObjectCommand({
        Bucket: this.bucket,
        Key: target,
        CopySource: `${this.bucket}/${source.split('/').map(encodeURIComponent).join('/')}`,
      }),
      signalOption(signal),
    );
  }

  async *listObjects(folder: string): AsyncIterable<{ key: string; size: number; modifiedAt: Date }> {
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.bucket, Prefix: this.key(folder), ContinuationToken: token }),
      );
      for (const object of page.Contents ?? []) {
        if (object.Key)
          yield { key: object.Key, size: object.Size ?? 0, modifiedAt: object.LastModified ?? new Date(0) };
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }
}

/** One multipart upload: parts in order, then complete or abort. */
class MultipartWriter {
  private constructor(
    private readonly store: S3BlobStore,
    readonly key: string,
    readonly uploadId: string,
    readonly parts: Array<CompletedPart & { Size: number }>,
  ) {}

  static async create(store: S3BlobStore, key: string, signal?: AbortSignal): Promise<MultipartWriter> {
    const res = await store.client.send(
      new CreateMultipartUploadCommand({ Bucket: store.bucket, Key: key }),
      signalOption(signal),
    );
    return new MultipartWriter(store, key, res.UploadId!, []);
  }

  /** The upload under `key` still in progress (after a crash), with the parts it holds. */
  static async find(store: S3BlobStore, key: string): Promise<MultipartWriter | undefined> {
    const res = await store.client.send(new ListMultipartUploadsCommand({ Bucket: store.bucket, Prefix: key }));
    const upload = (res.Uploads ?? []).find((u) => u.Key === key && u.UploadId);
    if (!upload) return undefined;
    const parts: Array<CompletedPart & { Size: number }> = [];
    let marker: string | undefined;
    do {
      const page = await store.client.send(
        new ListPartsCommand({ Bucket: store.bucket, Key: key, UploadId: upload.UploadId, PartNumberMarker: marker }),
      );
      for (const p of page.Parts ?? []) parts.push({ PartNumber: p.PartNumber, ETag: p.ETag, Size: p.Size ?? 0 });
      marker = page.IsTruncated ? page.NextPartNumberMarker : undefined;
    } while (marker);
    parts.sort((a, b) => a.PartNumber! - b.PartNumber!);
    // Only the parts numbered 1..n without a hole count (a part whose upload died is absent or redone).
    const contiguous = parts.filter(
      (p, i) => p.PartNumber === i + 1 && parts.slice(0, i).every((q, j) => q.PartNumber === j + 1),
    );
    return new MultipartWriter(store, key, upload.UploadId!, contiguous);
  }

  get size(): number {
    return this.parts.reduce((sum, p) => sum + p.Size, 0);
  }

  async uploadPart(body: Uint8Array, signal?: AbortSignal): Promise<void> {
    const PartNumber = this.parts.length + 1;
    const res = await this.store.client.send(
      new UploadPartCommand({
        Bucket: this.store.bucket,
        Key: this.key,
        UploadId: this.uploadId,
        PartNumber,
        Body: body,
      }),
      signalOption(signal),
    );
    this.parts.push({ PartNumber, ETag: res.ETag, Size: body.byteLength });
  }

  async complete(signal?: AbortSignal): Promise<void> {
    await this.store.client.send(
      new CompleteMultipartUploadCommand({
        Bucket: this.store.bucket,
        Key: this.key,
        UploadId: this.uploadId,
        MultipartUpload: { Parts: this.parts.map(({ PartNumber, ETag }) => ({ PartNumber, ETag })) },
      }),
      signalOption(signal),
    );
  }

  async abort(): Promise<void> {
    await this.store.client.send(
      new AbortMultipartUploadCommand({ Bucket: this.store.bucket, Key: this.key, UploadId: this.uploadId }),
    );
  }
}

/**
 * A session is a multipart upload at `<prefix>sessions/<name>`. Bytes are buffered until a part
 * is full (`partSize`), so `held()` (the uploaded parts) can trail what was appended by up to a
 * part: after a crash the writer resumes from `held()`. `finalize` completes the upload, reads
 * the object back once to learn its SHA-256 (S3 keeps no whole-object SHA-256 of a multipart
 * object), records the result, copies it to its hash key and removes the staging object.
 */
class S3AppendSession implements AppendSession {
  private writer: MultipartWriter | undefined;
  private loaded = false;
  /** Bytes of a completed staging object (see load). */
  private sealed = 0;
  private pending: Uint8Array[] = [];
  private pendingBytes = 0;

  constructor(
    private readonly store: S3BlobStore,
    readonly sessionId: string,
    private readonly object: string,
    private readonly reference: BlobReference | undefined,
  ) {}

  async held(): Promise<number> {
    try {
      const finished = await this.record();
      if (finished) return finished.size;
      await this.load();
      return this.writer?.size ?? this.sealed;
    } catch (err) {
      throw unavailable(`read session ${this.sessionId}`, err);
    }
  }

  async append(offset: number, chunk: Uint8Array, options: { signal?: AbortSignal } = {}): Promise<number> {
    try {
      await this.load();
      const position = (this.writer?.size ?? this.sealed) + this.pendingBytes;
      if (offset > position) throw new AppendGapError(this.sessionId, offset, position);
      const skip = position - offset;
      if (skip >= chunk.byteLength || this.sealed > 0) return position; // a sealed session (finalize under way) takes nothing more
      this.pending.push(chunk.subarray(skip));
      this.pendingBytes += chunk.byteLength - skip;
      if (this.pendingBytes >= this.store.partSize) await this.flush(options.signal);
      return offset + chunk.byteLength;
    } catch (err) {
      throw unavailable(`append to session ${this.sessionId}`, err);
    }
  }

  async finalize(options: { signal?: AbortSignal } = {}): Promise<StoredBlob> {
    try {
      const finished = await this.record();
      if (finished) return await this.cleanUp(finished, options.signal);
      await this.load();
      if (this.writer) {
        if (this.pendingBytes > 0 || this.writer.parts.length === 0) await this.flush(options.signal);
        await this.writer.complete(options.signal);
        this.writer = undefined;
      } else if ((await this.store.headSize(this.object)) === undefined) {
        await this.store.putIfAbsent(this.object, Buffer.concat(this.pending), options.signal);
      }
      this.pending = [];
      this.pendingBytes = 0;
      const hash = createHash('sha256');
      let size = 0;
      const res = await this.store.client.send(
        new GetObjectCommand({ Bucket: this.store.bucket, Key: this.object }),
        signalOption(options.signal),
      );
      for await (const chunk of res.Body as AsyncIterable<Uint8Array>) {
        hash.update(chunk);
        size += chunk.byteLength;
      }
      const sha256 = hash.digest('hex');
      const blob: StoredBlob = { key: blobKey(sha256), sha256, size };
      await this.store.client.send(
        new PutObjectCommand({ Bucket: this.store.bucket, Key: `${this.object}.done`, Body: JSON.stringify(blob) }),
      );
      return await this.cleanUp(blob, options.signal);
    } catch (err) {
      throw unavailable(`finalize session ${this.sessionId}`, err);
    }
  }

  async abort(): Promise<void> {
    await this.load();
    await this.writer?.abort();
    this.writer = undefined;
    this.pending = [];
    this.pendingBytes = 0;
    await this.store.deleteObject(this.object);
    await this.store.deleteObject(`${this.object}.done`);
  }

  private async cleanUp(blob: StoredBlob, signal?: AbortSignal): Promise<StoredBlob> {
    if ((await this.store.headSize(this.object)) !== undefined) {
      await protectBlob(this.store.meta, blob.sha256, this.reference, signal);
      await this.store.copyIfAbsent(this.object, blob.sha256, signal);
      await this.store.deleteObject(this.object);
    }
    return blob;
  }

  /** Uploads what is buffered as the next part (creating the upload on the first one). */
  private async flush(signal?: AbortSignal): Promise<void> {
    this.writer ??= await MultipartWriter.create(this.store, this.object, signal);
    await this.writer.uploadPart(Buffer.concat(this.pending), signal);
    this.pending = [];
    this.pendingBytes = 0;
  }

  private async load(): Promise<void> {
    if (this.loaded) return;
    this.writer = await MultipartWriter.find(this.store, this.object);
    // A completed staging object without an upload: a finalize that crashed after completing it.
    this.sealed = this.writer ? 0 : ((await this.store.headSize(this.object)) ?? 0);
    this.loaded = true;
  }

  private async record(): Promise<StoredBlob | undefined> {
    try {
      const res = await this.store.client.send(
        new GetObjectCommand({ Bucket: this.store.bucket, Key: `${this.object}.done` }),
      );
      return JSON.parse(await res.Body!.transformToString()) as StoredBlob;
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }
}

/** Meta objects as small objects under `<prefix>meta/`; an exclusive write is a conditional put. */
class S3MetaObjects implements MetaObjects {
  constructor(private readonly store: S3BlobStore) {}

  async write(path: string, body: string, options: { exclusive?: boolean } = {}): Promise<boolean> {
    const Key = this.store.key(`meta/${path}`);
    try {
      await this.store.client.send(
        new PutObjectCommand({
          Bucket: this.store.bucket,
          Key,
          Body: body,
          ...(options.exclusive ? { IfNoneMatch: '*' } : {}),
        }),
      );
      return true;
    } catch (err) {
      if (options.exclusive && (httpStatus(err) === 412 || httpStatus(err) === 409)) return false;
      throw err;
    }
  }

  async *list(prefix: string): AsyncIterable<{ path: string; modifiedAt: Date }> {
    const base = this.store.key('meta/');
    for await (const object of this.store.listObjects(`meta/${prefix}`)) {
      yield { path: object.key.slice(base.length), modifiedAt: object.modifiedAt };
    }
  }

  async read(path: string): Promise<{ body: string; modifiedAt: Date } | undefined> {
    try {
      const res = await this.store.client.send(
        new GetObjectCommand({ Bucket: this.store.bucket, Key: this.store.key(`meta/${path}`) }),
      );
      return { body: await res.Body!.transformToString(), modifiedAt: res.LastModified ?? new Date(0) };
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }

  async remove(path: string): Promise<void> {
    await this.store.deleteObject(this.store.key(`meta/${path}`));
  }
}

function signalOption(signal: AbortSignal | undefined): { abortSignal?: AbortSignal } {
  return signal ? { abortSignal: signal } : {};
}

function httpStatus(err: unknown): number | undefined {
  return (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
}

function isNotFound(err: unknown): boolean {
  const name = (err as { name?: string }).name;
  return name === 'NoSuchKey' || name === 'NotFound' || httpStatus(err) === 404;
}

async function* emptyStream(): AsyncIterable<Uint8Array> {}
