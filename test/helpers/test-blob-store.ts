/**
 * The blob store a test file works with, as the run configures it: in `npm test` a filesystem
 * store in a folder of the test's own; in `npm run test:cluster`, whose harness starts versitygw
 * and sets the S3 environment (A2A_BLOB_STORE=s3, A2A_S3_*, AWS_*) for the whole suite, the S3
 * store on that server, under a prefix of the test's own (so a listing, as retention makes one,
 * sees only this test's blobs). `env` makes a worker process or a CLI process use the same store.
 */
import { randomBytes } from 'node:crypto';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { BlobStore } from '../../storage/blob-store.js';
import { loadBlobSettings, openBlobStore } from '../../storage/config.js';
import { FsBlobStore } from '../../storage/fs-blob-store.js';

export interface TestBlobStore {
  store: BlobStore;
  /** The environment of a worker or CLI process that uses this store. */
  env: Record<string, string>;
  /** Bytes held by unfinished append sessions (filesystem only: S3 buffers a part before it uploads it). */
  sessionBytes?: () => number;
}

/** True when the run's blob store is S3 (`npm run test:cluster`). */
export const s3Configured = process.env.A2A_BLOB_STORE === 's3';

/** A store of this test's own: `dir` on the filesystem, or a fresh prefix in the run's S3 bucket. */
export function testBlobStore(dir: string): TestBlobStore {
  if (s3Configured) {
    const env = {
      A2A_BLOB_STORE: 's3',
      A2A_S3_PREFIX: `${process.env.A2A_S3_PREFIX ?? 'a2a-temporal/'}test-${randomBytes(6).toString('hex')}/`,
    };
    return { store: openBlobStore(loadBlobSettings({ ...process.env, ...env }).store), env };
  }
  return {
    store: new FsBlobStore({ dir }),
    env: { A2A_BLOB_STORE: 'fs', A2A_BLOB_DIR: dir },
    sessionBytes: () => {
      const sessions = join(dir, 'sessions');
      let total = 0;
      for (const entry of readdirSync(sessions, { withFileTypes: true })) {
        if (entry.isFile() && entry.name.endsWith('.part')) total += statSync(join(sessions, entry.name)).size;
      }
      return total;
    },
  };
}
