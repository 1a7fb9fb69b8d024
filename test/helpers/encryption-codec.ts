/**
 * A user's encryption codec, as in Temporal's encryption sample: every payload becomes
 * AES-256-GCM ciphertext (`binary/encrypted`, with the key's id), so neither history nor the
 * blob store ever holds plaintext.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import type { Payload, PayloadCodec } from '@temporalio/common';
import { Client } from '@temporalio/client';
import proto from '@temporalio/proto';
import type { Worker } from '@temporalio/worker';
import type { BlobStore } from '../../storage/blob-store.js';
import { blobStoragePlugin } from '../../storage/temporal-storage.js';
import type { useTemporal } from './temporal.js';

const ENCODING = 'binary/encrypted';
const PayloadProto = proto.temporal.api.common.v1.Payload;

export class AesGcmCodec implements PayloadCodec {
  private readonly key: Buffer;

  constructor(
    passphrase: string,
    readonly keyId = 'test-key',
  ) {
    this.key = createHash('sha256').update(passphrase).digest();
  }

  async encode(payloads: Payload[]): Promise<Payload[]> {
    return payloads.map((payload) => {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', this.key, iv);
      const body = Buffer.concat([cipher.update(PayloadProto.encode(payload).finish()), cipher.final()]);
      return {
        metadata: { encoding: Buffer.from(ENCODING), 'encryption-key-id': Buffer.from(this.keyId) },
        data: Buffer.concat([iv, body, cipher.getAuthTag()]),
      };
    });
  }

  async decode(payloads: Payload[]): Promise<Payload[]> {
    return payloads.map((payload) => {
      if (Buffer.from(payload.metadata?.encoding ?? []).toString() !== ENCODING) return payload;
      const data = Buffer.from(payload.data ?? []);
      const decipher = createDecipheriv('aes-256-gcm', this.key, data.subarray(0, 12));
      decipher.setAuthTag(data.subarray(data.length - 16));
      const plain = Buffer.concat([decipher.update(data.subarray(12, data.length - 16)), decipher.final()]);
      return PayloadProto.decode(plain) as Payload;
    });
  }
}

/**
 * A client and a worker (running `largeRoundTrip`'s `shout` activity) of a user who encrypts
 * with `codec` and keeps large payloads in `store`: both set up alike, as they must be.
 */
export async function encryptedStack(
  temporalTest: ReturnType<typeof useTemporal>,
  store: BlobStore,
  codec: PayloadCodec,
  taskQueue: string,
): Promise<{ base: Client; client: Client; worker: Worker }> {
  const base = await temporalTest.client();
  const client = new Client({
    connection: base.connection,
    namespace: temporalTest.server.namespace,
    dataConverter: { payloadCodecs: [codec] },
    plugins: [blobStoragePlugin({ store })],
  });
  const worker = await temporalTest.worker({
    taskQueue,
    dataConverter: { payloadCodecs: [codec] },
    plugins: [blobStoragePlugin({ store })],
    activities: { shout: async (text: string) => text.toUpperCase() },
  });
  return { base, client, worker };
}
