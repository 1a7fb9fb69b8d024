/**
 * The blob store's settings, read once from the environment (the worker, every CLI command and
 * the codec server read the same ones, so they all see the same store):
 *
 * | variable | meaning | default |
 * |---|---|---|
 * | `A2A_BLOB_STORE` | `fs` or `s3` | `fs` |
 * | `A2A_BLOB_DIR` | the fs store's folder | `.data/blobs` |
 * | `A2A_S3_BUCKET` | the bucket (required for `s3`) | |
 * | `A2A_S3_PREFIX` | prepended to every object key | `a2a-temporal/` |
 * | `A2A_S3_REGION` | region | the SDK's (`AWS_REGION`, the profile's); `us-east-1` with an endpoint |
 * | `A2A_S3_ENDPOINT` | an S3-compatible server's URL | AWS |
 * | `A2A_S3_FORCE_PATH_STYLE` | `bucket` in the path, not the host name | `false` |
 * | `A2A_S3_PART_SIZE_BYTES` | multipart part size (≥ 5 MiB): the most a writer buffers | 8 MiB |
 * | `A2A_EXTERNAL_STORAGE` | Temporal payloads above the threshold go to the store | `true` |
 * | `A2A_BLOB_THRESHOLD_BYTES` | External Storage's threshold | 262144 (Temporal's 256 KiB) |
 * | `A2A_BLOB_MAX_PAYLOAD_BYTES` | the largest stored payload a reader loads into memory | 64 MiB |
 * | `A2A_ARTIFACT_THRESHOLD_BYTES` | a text artifact this large is stored (file parts always are) | 65536 |
 * | `A2A_MAX_ARTIFACT_BYTES` | the hard cap on one artifact file (A2A_RESULT_TOO_LARGE past it) | none |
 *
 * Credentials for S3 come from the AWS SDK's own chain (`AWS_ACCESS_KEY_ID`/`AWS_SECRET_ACCESS_KEY`,
 * `AWS_PROFILE` and the shared files, SSO, container and instance roles), never from our settings.
 */
import { join } from 'node:path';
import { z } from 'zod';
import { dataDir } from '../platform/paths.js';
import type { BlobStore } from './blob-store.js';
import { FsBlobStore } from './fs-blob-store.js';
import { LazyBlobStore } from './lazy-blob-store.js';

/** `true`/`false` (also 1/0, yes/no, on/off). */
export const envBool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', 'on', 'off'], { error: 'must be true or false' })
  .transform((v) => ['true', '1', 'yes', 'on'].includes(v));

const positiveInt = z.coerce.number().int().positive();

const BlobEnvSchema = z.object({
  A2A_BLOB_STORE: z.enum(['fs', 's3']).default('fs'),
  A2A_BLOB_DIR: z.string().min(1).optional(),
  A2A_S3_BUCKET: z.string().min(1).optional(),
  A2A_S3_PREFIX: z.string().default('a2a-temporal/'),
  A2A_S3_REGION: z.string().min(1).optional(),
  A2A_S3_ENDPOINT: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional(),
  A2A_S3_FORCE_PATH_STYLE: envBool.default(false),
  A2A_S3_PART_SIZE_BYTES: positiveInt.min(5 * 1024 * 1024, { error: 'must be at least 5 MiB (5242880)' }).optional(),
  A2A_EXTERNAL_STORAGE: envBool.default(true),
  A2A_BLOB_THRESHOLD_BYTES: z.coerce
    .number()
    .int()
    .min(0)
    .default(256 * 1024),
  A2A_BLOB_MAX_PAYLOAD_BYTES: positiveInt.default(64 * 1024 * 1024),
  A2A_ARTIFACT_THRESHOLD_BYTES: z.coerce
    .number()
    .int()
    .min(0)
    .default(64 * 1024),
  A2A_MAX_ARTIFACT_BYTES: positiveInt.optional(),
});

/** Where blobs are kept. See [docs/files.md](../docs/files.md#settings). */
export type BlobStoreConfig =
  | {
      /** A directory on this machine (the embedded default). */
      kind: 'fs';
      /** Where the blobs are (`A2A_BLOB_DIR`, default `.data/blobs/`). */
      dir: string;
    }
  | {
      /** An S3-compatible object store. */
      kind: 's3';
      /** The bucket (`A2A_S3_BUCKET`). */
      bucket: string;
      /** The key prefix within the bucket (`A2A_S3_PREFIX`). */
      prefix: string;
      /** The bucket's region (`A2A_S3_REGION`, else the AWS chain's). */
      region?: string;
      /** The endpoint of an S3-compatible server other than AWS (`A2A_S3_ENDPOINT`). */
      endpoint?: string;
      /** Path-style URLs (`A2A_S3_FORCE_PATH_STYLE`), which most S3-compatible servers need. */
      forcePathStyle: boolean;
      /** The multipart upload's part size (`A2A_S3_PART_SIZE_BYTES`). */
      partSize?: number;
    };

/** The blob store and how Temporal's External Storage uses it. See [docs/files.md](../docs/files.md#settings). */
export interface BlobSettings {
  /** Which store holds the blobs, and where. */
  store: BlobStoreConfig;
  /** Offload Temporal payloads above `thresholdBytes` to the store (External Storage). */
  externalStorage: boolean;
  /** @default 262144 (Temporal's default, 256 KiB): payloads of at least this size go to the store. */
  thresholdBytes: number;
  /** The largest stored payload a reader loads into memory (a claim naming a bigger blob fails). @default 64 MiB */
  maxPayloadBytes: number;
  /** A text artifact of at least this many bytes goes to the store (file parts always do). @default 65536 */
  artifactThresholdBytes: number;
  /** The hard cap on one artifact file: past it the delegation fails with A2A_RESULT_TOO_LARGE. @default none */
  maxArtifactBytes?: number;
}

/** @throws Error with a sentence naming the variable when the environment is invalid. */
export function loadBlobSettings(env: NodeJS.ProcessEnv = process.env): BlobSettings {
  const e = parseEnv(BlobEnvSchema, env);
  let store: BlobStoreConfig;
  if (e.A2A_BLOB_STORE === 'fs') {
    store = { kind: 'fs', dir: e.A2A_BLOB_DIR ?? join(dataDir, 'blobs') };
  } else {
    if (!e.A2A_S3_BUCKET) {
      throw new Error('A2A_BLOB_STORE is s3, but A2A_S3_BUCKET is not set; name the bucket that keeps the blobs.');
    }
    store = {
      kind: 's3',
      bucket: e.A2A_S3_BUCKET,
      prefix: e.A2A_S3_PREFIX,
      region: e.A2A_S3_REGION,
      endpoint: e.A2A_S3_ENDPOINT,
      forcePathStyle: e.A2A_S3_FORCE_PATH_STYLE,
      partSize: e.A2A_S3_PART_SIZE_BYTES,
    };
  }
  return {
    store,
    externalStorage: e.A2A_EXTERNAL_STORAGE,
    thresholdBytes: e.A2A_BLOB_THRESHOLD_BYTES,
    maxPayloadBytes: e.A2A_BLOB_MAX_PAYLOAD_BYTES,
    artifactThresholdBytes: e.A2A_ARTIFACT_THRESHOLD_BYTES,
    ...(e.A2A_MAX_ARTIFACT_BYTES ? { maxArtifactBytes: e.A2A_MAX_ARTIFACT_BYTES } : {}),
  };
}

const CodecEnvSchema = z.object({
  A2A_CODEC_TOKEN: z.string().min(16, { error: 'must be at least 16 characters' }).optional(),
  A2A_CODEC_HOST: z.string().min(1).default('127.0.0.1'),
  A2A_CODEC_PORT: z.coerce.number().int().min(0).max(65535).default(8081),
  A2A_CODEC_CORS_ORIGINS: z.string().default('http://127.0.0.1:8233,http://localhost:8233'),
  A2A_CODEC_MAX_BODY_BYTES: positiveInt.default(8 * 1024 * 1024),
  A2A_CODEC_ALLOW_UNAUTHENTICATED: envBool.default(false),
  A2A_CODEC_PUBLIC_URL: z.url({ protocol: /^https?$/ }).optional(),
});

/**
 * The codec server's settings (`a2a-temporal codec-server`):
 *
 * | variable | meaning | default |
 * |---|---|---|
 * | `A2A_CODEC_TOKEN` | the bearer token every request needs (16+ characters) | none: loopback only |
 * | `A2A_CODEC_HOST`, `A2A_CODEC_PORT` | where it listens | `127.0.0.1`, `8081` |
 * | `A2A_CODEC_CORS_ORIGINS` | the Web UIs' origins, comma-separated | the embedded UI's (`:8233`) |
 * | `A2A_CODEC_MAX_BODY_BYTES` | the largest request | 8 MiB |
 * | `A2A_CODEC_ALLOW_UNAUTHENTICATED` | no token beyond loopback (behind a proxy that authenticates) | `false` |
 * | `A2A_CODEC_PUBLIC_URL` | where browsers reach it, for the file links in decoded markdown | `http://` + the request's Host |
 * See [docs/files.md](../docs/files.md#the-codec-server).
 */
export interface CodecServerSettings {
  /** The bearer token every request needs (`A2A_CODEC_TOKEN`); without one, loopback only. */
  token?: string;
  /** The address it listens on (`A2A_CODEC_HOST`). */
  host: string;
  /** The port it listens on (`A2A_CODEC_PORT`; 0 picks a free one). */
  port: number;
  /** The Web UIs' origins that may call it (`A2A_CODEC_CORS_ORIGINS`). */
  corsOrigins: string[];
  /** The largest request body (`A2A_CODEC_MAX_BODY_BYTES`). */
  maxBodyBytes: number;
  /** No token beyond loopback, behind a proxy that authenticates (`A2A_CODEC_ALLOW_UNAUTHENTICATED`). */
  allowUnauthenticated: boolean;
  /** The address the Web UI reaches it at, for the file links it writes (`A2A_CODEC_PUBLIC_URL`); default: the request's host. */
  publicUrl?: string;
}

/** @throws Error with a sentence naming the variable when the environment is invalid. */
export function loadCodecServerSettings(env: NodeJS.ProcessEnv = process.env): CodecServerSettings {
  const e = parseEnv(CodecEnvSchema, env);
  return {
    ...(e.A2A_CODEC_TOKEN ? { token: e.A2A_CODEC_TOKEN } : {}),
    host: e.A2A_CODEC_HOST,
    port: e.A2A_CODEC_PORT,
    corsOrigins: e.A2A_CODEC_CORS_ORIGINS.split(',')
      .map((o) => o.trim().replace(/\/+$/, ''))
      .filter(Boolean),
    maxBodyBytes: e.A2A_CODEC_MAX_BODY_BYTES,
    allowUnauthenticated: e.A2A_CODEC_ALLOW_UNAUTHENTICATED,
    ...(e.A2A_CODEC_PUBLIC_URL ? { publicUrl: e.A2A_CODEC_PUBLIC_URL } : {}),
  };
}

function parseEnv<T extends z.ZodType>(schema: T, env: NodeJS.ProcessEnv): z.output<T> {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`Environment variable ${issue.path.join('.')} is invalid: ${issue.message}.`);
  }
  return parsed.data;
}

/**
 * Opens the store a configuration names (S3: the SDK client, credentials from its chain, loaded
 * on first use: the SDK takes over a second to import).
 */
export function openBlobStore(config: BlobStoreConfig): BlobStore {
  if (config.kind === 'fs') return new FsBlobStore({ dir: config.dir });
  const { prefix, bucket } = config;
  return new LazyBlobStore('s3', `s3://${bucket}/${prefix}`, async () => {
    const { S3BlobStore } = await import('./s3-blob-store.js');
    return new S3BlobStore({
      bucket: config.bucket,
      prefix: config.prefix,
      ...(config.partSize ? { partSize: config.partSize } : {}),
      client: {
        // Unset: the SDK's chain (AWS_REGION, the profile); an S3-compatible server still needs one to sign.
        ...(config.region ? { region: config.region } : config.endpoint ? { region: 'us-east-1' } : {}),
        ...(config.endpoint ? { endpoint: config.endpoint } : {}),
        forcePathStyle: config.forcePathStyle,
      },
    });
  });
}
