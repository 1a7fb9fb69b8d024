/**
 * Temporal's External Storage on our blob store, composed with a user's encryption codec, on
 * the real dev server: payloads above the threshold go to the store as ciphertext, history holds
 * small claims, and a client with the same store and codec reads the values back.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import proto from '@temporalio/proto';
import { readBlob } from '../../../storage/blob-store.js';
import { testBlobStore } from '../../helpers/test-blob-store.js';
import { BLOB_DRIVER_NAME } from '../../../storage/temporal-storage.js';
import { AesGcmCodec, encryptedStack } from '../../helpers/encryption-codec.js';
import { uniqueTaskQueue, useTemporal } from '../../helpers/temporal.js';

const temporalTest = useTemporal();
const root = mkdtempSync(join(tmpdir(), 'a2a-extstore-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const PayloadProto = proto.temporal.api.common.v1.Payload;
const REFERENCE_TYPE = 'temporal.api.sdk.v1.ExternalStorageReference';

function metadata(payload: { metadata?: Record<string, Uint8Array> | null } | null | undefined, key: string): string {
  return Buffer.from(payload?.metadata?.[key] ?? []).toString();
}

describe('External Storage on the blob store', () => {
  it('keeps claims in history and encrypted payloads in the store, and round-trips through a client with both', async () => {
    const { store } = testBlobStore(join(root, 'blobs'));
    const codec = new AesGcmCodec('the user’s passphrase');
    const taskQueue = uniqueTaskQueue('extstore');
    const { base, client, worker } = await encryptedStack(temporalTest, store, codec, taskQueue);
    const text = `plaintext-marker ${'artifact bytes '.repeat(30_000)}`; // 450 KB: above 256 KiB
    const handle = await worker.runUntil(async () => {
      const started = await client.workflow.start('largeRoundTrip', { taskQueue, workflowId: taskQueue, args: [text] });
      expect(await started.result()).toEqual({ length: text.length, text: text.toUpperCase() });
      return started;
    });

    // History (read without codec or store) holds claims: small reference payloads naming our driver.
    const history = await base.workflow.getHandle(handle.workflowId).fetchHistory();
    const payloads = (history.events ?? []).flatMap((event) => [
      ...(event.workflowExecutionStartedEventAttributes?.input?.payloads ?? []),
      ...(event.activityTaskScheduledEventAttributes?.input?.payloads ?? []),
      ...(event.activityTaskCompletedEventAttributes?.result?.payloads ?? []),
      ...(event.workflowExecutionCompletedEventAttributes?.result?.payloads ?? []),
    ]);
    expect(payloads).toHaveLength(4);
    for (const payload of payloads) {
      expect(metadata(payload, 'messageType')).toBe(REFERENCE_TYPE);
      expect(Buffer.from(payload.data ?? []).toString()).toContain(BLOB_DRIVER_NAME);
      expect(PayloadProto.encode(payload).finish().length).toBeLessThan(1024);
    }
    expect(JSON.stringify(history)).not.toContain('plaintext-marker');

    // The store holds what the codec made of them: ciphertext only.
    const keys: string[] = [];
    for await (const blob of store.list()) keys.push(blob.key);
    expect(keys.length).toBeGreaterThanOrEqual(2);
    for (const key of keys) {
      const stored = PayloadProto.decode(await readBlob(store, key));
      expect(metadata(stored, 'encoding')).toBe('binary/encrypted');
      expect(Buffer.from(stored.data ?? []).toString('latin1')).not.toContain('plaintext-marker');
    }

    // A client without the store cannot resolve the claims: it says so instead of showing a claim as the value.
    await expect(base.workflow.getHandle(handle.workflowId).result()).rejects.toThrow(/storage|External/i);
  });
});
