/**
 * External Storage's reference payloads on the wire (what history holds instead of a stored
 * payload): `json/protobuf` of `temporal.api.sdk.v1.ExternalStorageReference`, i.e.
 * `{"driverName":"…","claimData":{"key":"sha256:…"}}`, with the stored size in
 * `externalPayloads[0].sizeBytes`. The codec server reads and writes them; payloads it receives
 * come from HTTP, so a reference is parsed (zod), never trusted.
 */
import type { Payload } from '@temporalio/common';
import { z } from 'zod';

const ENCODING = 'json/protobuf';
const MESSAGE_TYPE = 'temporal.api.sdk.v1.ExternalStorageReference';

const ReferenceSchema = z.object({
  driverName: z.string().min(1).max(256),
  claimData: z.record(z.string(), z.string().max(1024)).optional(),
});

/** A reference's driver and claim. */
export interface StorageReference {
  driverName: string;
  claimData: Record<string, string>;
}

function meta(payload: Payload, key: string): string | undefined {
  const raw = payload.metadata?.[key];
  return raw ? Buffer.from(raw).toString() : undefined;
}

/** True when the payload is an External Storage reference (by its metadata, as the SDK decides). */
export function isStorageReference(payload: Payload): boolean {
  return meta(payload, 'encoding') === ENCODING && meta(payload, 'messageType') === MESSAGE_TYPE;
}

/** The reference in `payload`, or undefined when its data is not a reference. */
export function parseStorageReference(payload: Payload): StorageReference | undefined {
  try {
    const parsed = ReferenceSchema.safeParse(JSON.parse(Buffer.from(payload.data ?? []).toString()));
    return parsed.success ? { driverName: parsed.data.driverName, claimData: parsed.data.claimData ?? {} } : undefined;
  } catch {
    return undefined;
  }
}

/** The reference payload for a stored payload of `sizeBytes`. */
export function storageReferencePayload(driverName: string, key: string, sizeBytes: number): Payload {
  return {
    metadata: { encoding: Buffer.from(ENCODING), messageType: Buffer.from(MESSAGE_TYPE) },
    data: Buffer.from(JSON.stringify({ driverName, claimData: { key } })),
    externalPayloads: [{ sizeBytes }], // an int64: protobufjs takes a number as well as a Long
  } as unknown as Payload;
}
