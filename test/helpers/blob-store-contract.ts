/**
 * The contract every blob store driver passes (the fs and the S3 driver run it alike): store and
 * retrieve, a missing blob as a typed failure naming the reference, idempotent and concurrent
 * writes of one blob, and append sessions that resume after their writer died.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { BlobStore } from '../../storage/blob-store.js';
import { readBlob } from '../../storage/blob-store.js';
import { listReferences, lockPath } from '../../storage/references.js';
import { waitFor } from './wait.js';
import { AppendGapError, BlobNotFoundError, BlobTooLargeError, InvalidBlobKeyError } from '../../storage/errors.js';

const MiB = 1024 * 1024;

/** Deterministic bytes (no random seed): byte i of `seed` is a function of both. */
function bytes(size: number, seed: number): Buffer {
  const out = Buffer.alloc(size);
  for (let i = 0; i < size; i++) out[i] = (i * 31 + seed * 17 + (i >> 10)) & 0xff;
  return out;
}

function sha256(data: Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

async function* chunked(data: Buffer, size: number): AsyncIterable<Uint8Array> {
  for (let i = 0; i < data.length; i += size) yield data.subarray(i, i + size);
}

async function keys(store: BlobStore): Promise<string[]> {
  const out: string[] = [];
  for await (const blob of store.list()) out.push(blob.key);
  return out.sort();
}

/** Runs the contract against the store `open()` gives (a fresh, empty one per test). */
export function blobStoreContract(name: string, open: () => Promise<BlobStore>): void {
  describe(`${name}: the blob store contract`, () => {
    it('stores a blob under its SHA-256 and gives the same bytes back, whether put whole or streamed', async () => {
      const store = await open();
      const data = bytes(6 * MiB + 123, 1); // over one S3 part: streamed as a multipart upload
      const streamed = await store.put(chunked(data, MiB));
      expect(streamed).toEqual({ key: `sha256:${sha256(data)}`, sha256: sha256(data), size: data.length });
      expect(sha256(await readBlob(store, streamed.key))).toBe(sha256(data));
      const small = await store.put(Buffer.from('hello'));
      expect((await readBlob(store, small.key)).toString()).toBe('hello');
      expect(await store.stat(small.key)).toEqual(small);
      expect(await keys(store)).toEqual([small.key, streamed.key].sort());
    });

    it('fails with a typed error naming the reference for a missing blob, and refuses what is not a key', async () => {
      const store = await open();
      const missing = `sha256:${'ab'.repeat(32)}`;
      const error = await store.get(missing).catch((err: unknown) => err);
      expect(error).toBeInstanceOf(BlobNotFoundError);
      expect((error as BlobNotFoundError).code).toBe('A2A_BLOB_NOT_FOUND');
      expect((error as Error).message).toContain(missing);
      expect(await store.stat(missing)).toBeUndefined();
      expect(await store.delete(missing)).toBe(false);
      for (const bad of [
        '../../etc/passwd',
        `sha256:${'AB'.repeat(32)}`,
        'sha256:abc',
        `sha256:${'ab'.repeat(32)}/x`,
      ]) {
        await expect(store.get(bad)).rejects.toBeInstanceOf(InvalidBlobKeyError);
      }
    });

    it('stores content written twice, or by racing writers, once', async () => {
      const store = await open();
      const data = bytes(6 * MiB, 2);
      const first = await store.put(data);
      const racing = await Promise.all(
        Array.from({ length: 6 }, (_, i) => store.put(i % 2 ? data : chunked(data, 700_000))),
      );
      for (const blob of racing) expect(blob).toEqual(first);
      const small = Buffer.from('same small blob');
      const smalls = await Promise.all(Array.from({ length: 6 }, () => store.put(small)));
      expect(new Set(smalls.map((b) => b.key)).size).toBe(1);
      expect(await keys(store)).toEqual([first.key, smalls[0]!.key].sort());
      expect(sha256(await readBlob(store, first.key))).toBe(first.sha256);
    });

    it('refuses a blob over the reader cap before reading it, and deletes', async () => {
      const store = await open();
      const blob = await store.put(bytes(4096, 3));
      await expect(store.get(blob.key, { maxBytes: 4095 })).rejects.toBeInstanceOf(BlobTooLargeError);
      expect((await readBlob(store, blob.key, { maxBytes: 4096 })).length).toBe(4096);
      expect(await store.delete(blob.key)).toBe(true);
      await expect(store.get(blob.key)).rejects.toBeInstanceOf(BlobNotFoundError);
    });

    it('appends chunks in order, resumes from what it holds after its writer died, and finalizes into one blob', async () => {
      const store = await open();
      const data = bytes(13 * MiB + 5, 4);
      const chunk = MiB;
      const writer = await store.appendSession('delegate-1/artifact-1');
      let offset = 0;
      for (; offset < 9 * chunk; offset += chunk) await writer.append(offset, data.subarray(offset, offset + chunk));
      // The writer dies here; a new one finds the session by its id and resumes.
      const resumed = await store.appendSession('delegate-1/artifact-1');
      const held = await resumed.held();
      expect(held).toBeGreaterThan(0);
      expect(held).toBeLessThanOrEqual(9 * chunk);
      // Replaying from an earlier offset skips what is held; a chunk past the end is a gap.
      await expect(resumed.append(held + 1, data.subarray(held + 1, held + 2))).rejects.toBeInstanceOf(AppendGapError);
      for (let at = 0; at < data.length; at += chunk) await resumed.append(at, data.subarray(at, at + chunk));
      const blob = await resumed.finalize();
      expect(blob).toEqual({ key: `sha256:${sha256(data)}`, sha256: sha256(data), size: data.length });
      expect(await resumed.finalize()).toEqual(blob);
      expect(await (await store.appendSession('delegate-1/artifact-1')).finalize()).toEqual(blob);
      expect(sha256(await readBlob(store, blob.key))).toBe(blob.sha256);
      expect(await keys(store)).toEqual([blob.key]);
      // The same bytes through put, or another session, are the same blob.
      expect((await store.put(data)).key).toBe(blob.key);
      const other = await store.appendSession('delegate-2/artifact-1');
      await other.append(0, data);
      expect(await other.finalize()).toEqual(blob);
      expect(await keys(store)).toEqual([blob.key]);
    });

    it('finalizes an empty session, and forgets an aborted or stale one', async () => {
      const store = await open();
      const empty = await (await store.appendSession('empty')).finalize();
      expect(empty.size).toBe(0);
      expect((await readBlob(store, empty.key)).length).toBe(0);
      const aborted = await store.appendSession('aborted');
      await aborted.append(0, bytes(1000, 5));
      await aborted.abort();
      expect(await (await store.appendSession('aborted')).held()).toBe(0);
      const stale = await store.appendSession('stale');
      await stale.append(0, bytes(6 * MiB, 6)); // one part uploaded
      expect(await stale.held()).toBeGreaterThan(0);
      expect(await store.removeStaleSessions(new Date(Date.now() + 60_000))).toBeGreaterThanOrEqual(1);
      expect(await (await store.appendSession('stale')).held()).toBe(0);
      expect(await keys(store)).toEqual([empty.key]);
    });

    it('keeps the blob of a session aborted after it was finalized, and forgets the session', async () => {
      // A round that ends while the task runs finalizes its text so far, then drops its sessions.
      const store = await open();
      const session = await store.appendSession('sealed');
      await session.append(0, bytes(3000, 7));
      const blob = await session.finalize();
      await session.abort();
      expect(await readBlob(store, blob.key)).toEqual(bytes(3000, 7));
      expect(await (await store.appendSession('sealed')).held()).toBe(0);
    });
  });
}

/** The writer's side of retention's lock protocol (storage/references.ts), for every driver. */
export function blobReferenceContract(name: string, open: () => Promise<BlobStore>): void {
  describe(`${name}: references and the removal lock`, () => {
    it('records the workflow a blob is written for, before the blob', async () => {
      const store = await open();
      const blob = await store.put(Buffer.from('payload'), { reference: { namespace: 'ns', workflowId: 'wf-1' } });
      await store.addReference(blob.key, { namespace: 'ns', workflowId: 'release-1' });
      const session = await store.appendSession('s', { reference: { namespace: 'ns', workflowId: 'wf-2' } });
      await session.append(0, Buffer.from('payload'));
      await session.finalize();
      const refs: string[] = [];
      for await (const ref of listReferences(store.meta))
        refs.push(`${ref.sha256 === blob.sha256}:${ref.reference.workflowId}`);
      expect(refs.sort()).toEqual(['true:release-1', 'true:wf-1', 'true:wf-2']);
    });

    it('makes a writer wait while retention holds the removal lock, and recreates the blob removed under it', async () => {
      const store = await open();
      const data = Buffer.from('the same bytes, written again');
      const first = await store.put(data);
      expect(await store.meta.write(lockPath(first.sha256), '{}', { exclusive: true })).toBe(true);
      expect(await store.meta.write(lockPath(first.sha256), '{}', { exclusive: true })).toBe(false);
      let written = false;
      const writer = store
        .put(data, { reference: { namespace: 'ns', workflowId: 'new' } })
        .then((b) => ((written = true), b));
      // The writer recorded its reference and now waits for the lock.
      await waitFor(
        async () => {
          for await (const ref of listReferences(store.meta, first.sha256))
            if (ref.reference.workflowId === 'new') return true;
          return undefined;
        },
        { what: 'the writer’s reference' },
      );
      expect(written).toBe(false);
      await store.delete(first.key); // retention removes the blob it judged dead…
      await store.meta.remove(lockPath(first.sha256)); // …and releases the lock
      expect(await writer).toEqual(first);
      expect((await readBlob(store, first.key)).equals(data)).toBe(true);
    });
  });
}
