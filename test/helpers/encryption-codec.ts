/**
 * A user's encryption codec, as in Temporal's encryption sample: every payload becomes
 * AES-256-GCM ciphertext (`binary/encrypted`, with the key's id), so neither history nor the
 * blob store ever holds plaintext.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import type { Payload, PayloadCodec } from '@temporalio/common';
import { temporal } from '@temporalio/proto';

const ENCODING = 'binary/encrypted';
const PayloadProto = temporal.api.common.v1.Payload;

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
