/**
 * The filesystem driver, the embedded default (`.data/blobs/`):
 *
 * ```
 * sha256/ab/ab12…   one file per blob, named by its SHA-256
 * tmp/              writes in progress (renamed into sha256/ when complete)
 * sessions/<name>   append sessions: `.part` (the bytes so far), `.done` (the blob it became)
 * meta/              the reference index and removal locks (references.ts)
 * ```
 *
 * A blob appears by an atomic rename of a complete file, so a reader never sees half a blob and
 * racing writers of one blob simply replace identical bytes.
 */
import { createHash, randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
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

/** Where the filesystem blob store keeps its files. See [docs/files.md](../docs/files.md#the-store). */
export interface FsBlobStoreOptions {
  /** The folder; created when missing. */
  dir: string;
}

/** The blob store on a filesystem folder. See [docs/files.md](../docs/files.md#the-store). */
export class FsBlobStore implements BlobStore {
  readonly kind = 'fs';
  readonly location: string;
  readonly meta: MetaObjects;
  private readonly dir: string;

  constructor(options: FsBlobStoreOptions) {
    this.dir = options.dir;
    this.location = options.dir;
    this.meta = new FsMetaObjects(join(options.dir, 'meta'));
  }

  async put(content: BlobContent, options: BlobWriteOptions = {}): Promise<StoredBlob> {
    const tmpDir = join(this.dir, 'tmp');
    const tmp = join(tmpDir, randomUUID());
    try {
      await mkdir(tmpDir, { recursive: true });
      const hash = createHash('sha256');
      let size = 0;
      const file = await open(tmp, 'wx');
      try {
        for await (const chunk of chunksOf(content)) {
          options.signal?.throwIfAborted();
          hash.update(chunk);
          size += chunk.byteLength;
          await file.write(chunk);
        }
        await file.sync();
      } finally {
        await file.close();
      }
      const sha256 = hash.digest('hex');
      await protectBlob(this.meta, sha256, options.reference, options.signal);
      await this.place(tmp, sha256);
      return { key: blobKey(sha256), sha256, size };
    } catch (err) {
      await rm(tmp, { force: true });
      throw unavailable(`store a blob in ${this.location}`, err);
    }
  }

  async get(key: string, options: BlobReadOptions = {}): Promise<AsyncIterable<Uint8Array>> {
    const path = this.blobPath(digestOf(key));
    let file;
    try {
      file = await open(path, 'r');
    } catch (err) {
      if (isMissing(err)) throw new BlobNotFoundError(key, this.location, { cause: err });
      throw unavailable(`read blob ${key}`, err);
    }
    const { size } = await file.stat();
    if (options.maxBytes !== undefined && size > options.maxBytes) {
      await file.close();
      throw new BlobTooLargeError(key, size, options.maxBytes);
    }
    return file.createReadStream({ highWaterMark: 256 * 1024, ...(options.signal ? { signal: options.signal } : {}) });
  }

  async stat(key: string): Promise<StoredBlob | undefined> {
    const sha256 = digestOf(key);
    try {
      const info = await stat(this.blobPath(sha256));
      return { key, sha256, size: info.size };
    } catch (err) {
      if (isMissing(err)) return undefined;
      throw unavailable(`read blob ${key}`, err);
    }
  }

  async delete(key: string): Promise<boolean> {
    const path = this.blobPath(digestOf(key));
    try {
      await rm(path);
      return true;
    } catch (err) {
      if (isMissing(err)) return false;
      throw unavailable(`remove blob ${key}`, err);
    }
  }

  async *list(): AsyncIterable<ListedBlob> {
    const root = join(this.dir, 'sha256');
    for (const fan of await entries(root)) {
      for (const name of await entries(join(root, fan))) {
        if (!/^[0-9a-f]{64}$/.test(name)) continue;
        const info = await stat(join(root, fan, name)).catch(() => undefined);
        if (info) yield { key: blobKey(name), size: info.size, modifiedAt: info.mtime };
      }
    }
  }

  async appendSession(sessionId: string, options: { reference?: BlobReference } = {}): Promise<AppendSession> {
    const dir = join(this.dir, 'sessions');
    await mkdir(dir, { recursive: true });
    return new FsAppendSession(this, sessionId, join(dir, sessionName(sessionId)), options.reference);
  }

  async addReference(key: string, reference: BlobReference): Promise<void> {
    await protectBlob(this.meta, digestOf(key), reference);
  }

  async removeStaleSessions(before: Date): Promise<number> {
    let removed = 0;
    for (const folder of ['sessions', 'tmp']) {
      const dir = join(this.dir, folder);
      for (const name of await entries(dir)) {
        const info = await stat(join(dir, name)).catch(() => undefined);
        if (info && info.mtime < before) {
          await rm(join(dir, name), { force: true, recursive: true });
          if (folder === 'sessions' && name.endsWith('.part')) removed += 1;
        }
      }
    }
    return removed;
  }

  async close(): Promise<void> {}

  /** Moves a complete file to the blob path of `sha256` (atomically; an existing blob of it stays). */
  async place(file: string, sha256: string): Promise<void> {
    const target = this.blobPath(sha256);
    await mkdir(join(this.dir, 'sha256', sha256.slice(0, 2)), { recursive: true });
    await rename(file, target);
  }

  /** The file that holds the blob with this SHA-256. */
  blobPath(sha256: string): string {
    return join(this.dir, 'sha256', sha256.slice(0, 2), sha256);
  }
}

/**
 * An append file (`<name>.part`) and, once finalized, a record (`<name>.done`) of the blob it
 * became. The record is written before the file is moved, so a crash in between is finished by
 * the next `finalize`. One writer per session (the activity that owns the artifact).
 */
class FsAppendSession implements AppendSession {
  private readonly part: string;
  private readonly done: string;

  constructor(
    private readonly store: FsBlobStore,
    readonly sessionId: string,
    base: string,
    private readonly reference: BlobReference | undefined,
  ) {
    this.part = `${base}.part`;
    this.done = `${base}.done`;
  }

  async held(): Promise<number> {
    const finished = await this.record();
    if (finished) return finished.size;
    return (await stat(this.part).catch(() => undefined))?.size ?? 0;
  }

  async append(offset: number, chunk: Uint8Array, options: { signal?: AbortSignal } = {}): Promise<number> {
    options.signal?.throwIfAborted();
    const held = await this.held();
    if (offset > held) throw new AppendGapError(this.sessionId, offset, held);
    const skip = held - offset;
    if (skip >= chunk.byteLength) return held;
    if (await this.record()) return held; // finalized: nothing more is written
    try {
      const file = await open(this.part, 'a');
      try {
        await file.write(chunk.subarray(skip));
      } finally {
        await file.close();
      }
    } catch (err) {
      throw unavailable(`append to session ${this.sessionId}`, err);
    }
    return offset + chunk.byteLength;
  }

  async finalize(): Promise<StoredBlob> {
    const finished = await this.record();
    if (finished) {
      // A crash between the record and the move: finish the move.
      if (await exists(this.part)) {
        await protectBlob(this.store.meta, finished.sha256, this.reference);
        await this.store.place(this.part, finished.sha256);
      }
      return finished;
    }
    try {
      const hash = createHash('sha256');
      let size = 0;
      if (await exists(this.part)) {
        for await (const chunk of createReadStream(this.part, { highWaterMark: 256 * 1024 })) {
          hash.update(chunk as Buffer);
          size += (chunk as Buffer).byteLength;
        }
      } else {
        await writeFile(this.part, new Uint8Array());
      }
      const sha256 = hash.digest('hex');
      const blob: StoredBlob = { key: blobKey(sha256), sha256, size };
      const tmp = `${this.done}.${randomUUID()}`;
      await writeFile(tmp, JSON.stringify(blob));
      await rename(tmp, this.done);
      await protectBlob(this.store.meta, sha256, this.reference);
      await this.store.place(this.part, sha256);
      return blob;
    } catch (err) {
      throw unavailable(`finalize session ${this.sessionId}`, err);
    }
  }

  async abort(): Promise<void> {
    await rm(this.part, { force: true });
    await rm(this.done, { force: true });
  }

  private async record(): Promise<StoredBlob | undefined> {
    const text = await readFile(this.done, 'utf8').catch(() => undefined);
    return text === undefined ? undefined : (JSON.parse(text) as StoredBlob);
  }
}

/** Meta objects as files under `root` (written whole by rename, so a reader never sees half of one). */
class FsMetaObjects implements MetaObjects {
  constructor(private readonly root: string) {}

  async write(path: string, body: string, options: { exclusive?: boolean } = {}): Promise<boolean> {
    const target = join(this.root, path);
    await mkdir(dirname(target), { recursive: true });
    if (options.exclusive) {
      try {
        await writeFile(target, body, { flag: 'wx' });
        return true;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
        throw err;
      }
    }
    const tmp = `${target}.${randomUUID()}.tmp`;
    await writeFile(tmp, body);
    await rename(tmp, target);
    return true;
  }

  async *list(prefix: string): AsyncIterable<{ path: string; modifiedAt: Date }> {
    const walk = async function* (dir: string, rel: string): AsyncIterable<{ path: string; modifiedAt: Date }> {
      for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
        const path = rel ? `${rel}/${entry.name}` : entry.name;
        if (entry.isDirectory()) yield* walk(join(dir, entry.name), path);
        else if (!entry.name.endsWith('.tmp')) {
          const info = await stat(join(dir, entry.name)).catch(() => undefined);
          if (info) yield { path, modifiedAt: info.mtime };
        }
      }
    };
    const folder = prefix.endsWith('/') ? prefix.slice(0, -1) : dirname(prefix);
    for await (const entry of walk(join(this.root, folder), folder === '.' ? '' : folder)) {
      if (entry.path.startsWith(prefix)) yield entry;
    }
  }

  async read(path: string): Promise<{ body: string; modifiedAt: Date } | undefined> {
    const target = join(this.root, path);
    try {
      const [body, info] = await Promise.all([readFile(target, 'utf8'), stat(target)]);
      return { body, modifiedAt: info.mtime };
    } catch (err) {
      if (isMissing(err)) return undefined;
      throw err;
    }
  }

  async remove(path: string): Promise<void> {
    await rm(join(this.root, path), { force: true });
  }
}

async function* chunksOf(content: BlobContent): AsyncIterable<Uint8Array> {
  if (content instanceof Uint8Array) yield content;
  else yield* content;
}

async function entries(dir: string): Promise<string[]> {
  return readdir(dir).catch((err: unknown) => {
    if (isMissing(err)) return [];
    throw err;
  });
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

function isMissing(err: unknown): boolean {
  return (err as NodeJS.ErrnoException).code === 'ENOENT';
}
