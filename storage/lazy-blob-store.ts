/**
 * A store loaded on first use: the S3 driver's SDK takes over a second to import, which every
 * CLI command and worker would pay at start even when it never touches a blob.
 */
import type {
  AppendSession,
  BlobContent,
  BlobReadOptions,
  BlobStore,
  BlobWriteOptions,
  ListedBlob,
  StoredBlob,
} from './blob-store.js';
import type { BlobReference, MetaObjects } from './references.js';

export class LazyBlobStore implements BlobStore {
  readonly meta: MetaObjects;
  private loaded: Promise<BlobStore> | undefined;

  constructor(
    readonly kind: string,
    readonly location: string,
    private readonly load: () => Promise<BlobStore>,
  ) {
    const real = () => this.real();
    this.meta = {
      write: async (path, body, options) => (await real()).meta.write(path, body, options),
      list: async function* (prefix) {
        yield* (await real()).meta.list(prefix);
      },
      read: async (path) => (await real()).meta.read(path),
      remove: async (path) => (await real()).meta.remove(path),
    };
  }

  private real(): Promise<BlobStore> {
    return (this.loaded ??= this.load());
  }

  async put(content: BlobContent, options?: BlobWriteOptions): Promise<StoredBlob> {
    return (await this.real()).put(content, options);
  }

  async get(key: string, options?: BlobReadOptions): Promise<AsyncIterable<Uint8Array>> {
    return (await this.real()).get(key, options);
  }

  async stat(key: string): Promise<StoredBlob | undefined> {
    return (await this.real()).stat(key);
  }

  async delete(key: string): Promise<boolean> {
    return (await this.real()).delete(key);
  }

  async *list(): AsyncIterable<ListedBlob> {
    yield* (await this.real()).list();
  }

  async appendSession(sessionId: string, options?: { reference?: BlobReference }): Promise<AppendSession> {
    return (await this.real()).appendSession(sessionId, options);
  }

  async addReference(key: string, reference: BlobReference): Promise<void> {
    return (await this.real()).addReference(key, reference);
  }

  async removeStaleSessions(before: Date): Promise<number> {
    return (await this.real()).removeStaleSessions(before);
  }

  async close(): Promise<void> {
    if (this.loaded) await (await this.loaded).close();
  }
}
