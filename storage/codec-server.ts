/**
 * A codec server for the Temporal Web UI and the `temporal` CLI: Temporal's HTTP protocol
 * (`POST /encode`, `POST /decode`, JSON `{ "payloads": [...] }` in protobuf JSON, CORS for the
 * UI's origin) with External Storage's conventions, as Temporal's storage-aware handler has them:
 *
 * - `/decode` resolves claims (retrieves the stored payload, then runs the codecs) unless
 *   `?preserveStorageRefs=true`, which returns them as they are (the UI renders history so, and
 *   offers a download per claim);
 * - `/download` resolves claims only (every payload must be one);
 * - `/encode` runs the codecs, then stores payloads of at least the threshold and returns claims;
 * - `GET /blobs/sha256:<hex>` serves a stored file (an {@link ArtifactRef}'s bytes) as an
 *   attachment: with the bearer token, or with a link signed by it ({@link signedBlobPath});
 * - the relative file links of markdown we write (contract/artifact-ref.ts `fileLink`: a
 *   delegation's current details, the release report) become absolute links to that endpoint in
 *   what `/decode` returns, signed for {@link LINK_TTL_MS}, so the Web UI's rendered markdown
 *   links each file to its download.
 *
 * Access: with a token (A2A_CODEC_TOKEN) every request but the CORS preflight and `/healthz`
 * needs `Authorization: Bearer <token>`, or the token as the first path segment
 * (`http://host:port/<token>`, for a UI that cannot send headers: it then appears in access
 * logs, so prefer the header where the client can send one). Without a token the server listens
 * on loopback only. Every body is read within `maxBodyBytes`; a decode retrieves at most
 * `maxPayloadBytes` per request (claims past it stay claims), so one request cannot pull the
 * store into memory.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Payload, PayloadCodec } from '@temporalio/common';
import proto from '@temporalio/proto';
import { z } from 'zod';
import type { BlobStore } from './blob-store.js';
import { digestOf } from './blob-key.js';
import { safeFileName } from './file-name.js';
import { BlobNotFoundError, BlobStoreError, BlobTooLargeError, InvalidBlobKeyError } from './errors.js';
import { isStorageReference, parseStorageReference, storageReferencePayload } from './storage-reference.js';
import { BLOB_DRIVER_NAME, DEFAULT_THRESHOLD_BYTES, readVerified } from './temporal-storage.js';

const PayloadProto = proto.temporal.api.common.v1.Payload;

/** What the codec server decodes with: the blob store, the token and the Web UI's origin. See [docs/files.md](../docs/files.md#the-codec-server). */
export interface CodecServerOptions {
  /** Where the claims' blobs are. */
  store: BlobStore;
  /** The payload codecs of your workers' data converter (encryption, compression), in their order. @default none */
  codecs?: PayloadCodec[];
  /** The bearer token; undefined: no authentication (then only a loopback `host` is allowed). */
  token?: string;
  /** Origins of the Web UIs that may call it (CORS), e.g. `http://127.0.0.1:8233`. */
  corsOrigins?: string[];
  /** The largest request body. @default 8 MiB */
  maxBodyBytes?: number;
  /** The most stored bytes one request retrieves. @default 64 MiB */
  maxPayloadBytes?: number;
  /** `/encode` stores payloads of at least this size. @default 256 KiB */
  thresholdBytes?: number;
  /** Where browsers reach this server, for the file links `/decode` writes (`https://codec.example.com`). @default `http://` + the request's Host */
  publicUrl?: string;
}

/** Where the codec server listens. See [docs/files.md](../docs/files.md#the-codec-server). */
export interface CodecServerListenOptions {
  /** @default '127.0.0.1' */
  host?: string;
  /** 0 picks a free port. @default 8081 */
  port?: number;
  /** Listen without a token on a non-loopback address (behind a proxy that authenticates). @default false */
  allowUnauthenticated?: boolean;
}

/** A codec server listening on its port, and how to stop it. See [docs/files.md](../docs/files.md#the-codec-server). */
export interface RunningCodecServer {
  /** `http://host:port`: the endpoint to give the UI (append `/<token>` for a UI that cannot send the header). */
  url: string;
  /** The HTTP server, to close it or read its address. */
  server: Server;
  /** Stops the codec server. */
  close(): Promise<void>;
}

/** protobuf JSON of one `Payload` (bytes as base64), as the UI and the CLI send it. */
const WirePayloadSchema = z.object({
  metadata: z.record(z.string(), z.string()).optional(),
  data: z.string().optional(),
  externalPayloads: z.array(z.object({ sizeBytes: z.union([z.string(), z.number()]).optional() })).optional(),
});
const WirePayloadsSchema = z.object({ payloads: z.array(WirePayloadSchema).max(10_000) });
type WirePayload = z.infer<typeof WirePayloadSchema>;

/** How long a file link written by `/decode` stays valid. */
export const LINK_TTL_MS = 24 * 3_600_000;

/** `](blobs/sha256:<hex>?name=…&type=…)`: a stored file's link in markdown we wrote (`fileLink`). */
const BLOB_LINK = /\]\(blobs\/(sha256:[0-9a-f]{64})\?name=([\w.~%-]*)&type=([\w.~%-]*)\)/g;

/** A request the server refuses, with its status and one sentence. */
class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** The path of a download link for `key` that needs no header: valid until `expiresAt`. */
export function signedBlobPath(
  token: string,
  blob: { key: string; name?: string; mediaType?: string },
  expiresAt: Date,
): string {
  const expires = String(Math.floor(expiresAt.getTime() / 1000));
  const query = new URLSearchParams({ expires, sig: signature(token, blob.key, expires) });
  if (blob.name) query.set('name', blob.name);
  if (blob.mediaType) query.set('type', blob.mediaType);
  return `/blobs/${blob.key}?${query.toString()}`;
}

function signature(token: string, key: string, expires: string): string {
  return createHmac('sha256', token).update(`blob\n${key}\n${expires}`).digest('base64url');
}

/** The request handler (exported for servers of your own: mount it under a path of its own). */
export function codecHandler(options: CodecServerOptions): (req: IncomingMessage, res: ServerResponse) => void {
  const codecs = options.codecs ?? [];
  const maxBodyBytes = options.maxBodyBytes ?? 8 * 1024 * 1024;
  const maxPayloadBytes = options.maxPayloadBytes ?? 64 * 1024 * 1024;
  const threshold = options.thresholdBytes ?? DEFAULT_THRESHOLD_BYTES;
  const origins = new Set(options.corsOrigins ?? []);
  const token = options.token;

  const decodeAll = async (payloads: Payload[]) => {
    let out = payloads;
    for (const codec of [...codecs].reverse()) out = await codec.decode(out);
    return out;
  };
  const encodeAll = async (payloads: Payload[]) => {
    let out = payloads;
    for (const codec of codecs) out = await codec.encode(out);
    return out;
  };
  /** Retrieves the claim of `payload` (our driver only), counting the bytes against `budget`. */
  const retrieve = async (payload: Payload, budget: { left: number }): Promise<Payload | undefined> => {
    const reference = parseStorageReference(payload);
    if (!reference) throw new HttpError(400, 'A payload marked as a storage reference does not hold one.');
    if (reference.driverName !== BLOB_DRIVER_NAME) {
      throw new HttpError(
        400,
        `A storage reference names the driver "${reference.driverName.slice(0, 64)}"; this server resolves only ${BLOB_DRIVER_NAME}.`,
      );
    }
    const key = reference.claimData.key ?? '';
    const size = (await options.store.stat(key))?.size;
    if (size === undefined) throw new BlobNotFoundError(key, options.store.location);
    if (size > budget.left) return undefined;
    budget.left -= size;
    return PayloadProto.decode(await readVerified(options.store, key, maxPayloadBytes)) as Payload;
  };

  /** Absolute download links for the relative file links in decoded JSON payloads (see the header). */
  const linkFiles = (payloads: Payload[], req: IncomingMessage): Payload[] => {
    const host = req.headers.host ?? '';
    const base =
      options.publicUrl?.replace(/\/+$/, '') ??
      (/^[\w.-]+(:\d{1,5})?$|^\[[\d:a-fA-F.]+\](:\d{1,5})?$/.test(host) ? `http://${host}` : undefined);
    if (!base) return payloads;
    const expiresAt = new Date(Date.now() + LINK_TTL_MS);
    return payloads.map((payload) => {
      if (Buffer.from(payload.metadata?.encoding ?? []).toString() !== 'json/plain') return payload;
      const text = Buffer.from(payload.data ?? []).toString();
      if (!text.includes('](blobs/sha256:')) return payload;
      const linked = text.replace(BLOB_LINK, (_link, key: string, name: string, type: string) => {
        const blob = { key, name: percentDecoded(name), mediaType: percentDecoded(type) };
        const path = token
          ? signedBlobPath(token, blob, expiresAt)
          : `/blobs/${key}?${new URLSearchParams({ name: blob.name, type: blob.mediaType }).toString()}`;
        return `](${base}${path})`;
      });
      return { ...payload, data: Buffer.from(linked) };
    });
  };

  const routes: Record<
    string,
    (payloads: Payload[], query: URLSearchParams, namespace: string, req: IncomingMessage) => Promise<Payload[]>
  > = {
    async decode(payloads, query, _namespace, req) {
      const preserve = query.get('preserveStorageRefs')?.toLowerCase() === 'true';
      const budget = { left: maxPayloadBytes };
      const resolved = await Promise.all(
        payloads.map(async (p) => (!preserve && isStorageReference(p) ? ((await retrieve(p, budget)) ?? p) : p)),
      );
      return linkFiles(await decodeNonReferences(resolved, decodeAll), req);
    },
    async download(payloads) {
      if (!payloads.every(isStorageReference)) throw new HttpError(400, 'All payloads must be storage references.');
      const budget = { left: maxPayloadBytes };
      const retrieved: Payload[] = [];
      for (const payload of payloads) {
        const got = await retrieve(payload, budget);
        if (!got)
          throw new HttpError(
            413,
            `The payloads add up to more than ${maxPayloadBytes} bytes; download fewer at once.`,
          );
        retrieved.push(got);
      }
      return decodeAll(retrieved);
    },
    async encode(payloads, _query, namespace) {
      const encoded = await encodeAll(payloads);
      return Promise.all(
        encoded.map(async (payload) => {
          const bytes = PayloadProto.encode(payload).finish();
          if (bytes.length < threshold) return payload;
          // The workflow this input is for is not known here: retention keeps it for the untracked TTL.
          const blob = await options.store.put(bytes, { reference: { namespace } });
          return storageReferencePayload(BLOB_DRIVER_NAME, blob.key, bytes.length);
        }),
      );
    },
  };

  const authorized = (req: IncomingMessage, pathToken: string | undefined, url: URL): boolean => {
    if (token === undefined) return true;
    const header = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '')?.[1];
    return same(header, token) || same(pathToken, token) || validSignature(url);
  };
  const validSignature = (url: URL): boolean => {
    const key = /^\/blobs\/(.+)$/.exec(url.pathname)?.[1];
    const expires = url.searchParams.get('expires') ?? '';
    if (!key || !token || !/^\d{1,12}$/.test(expires) || Number(expires) * 1000 < Date.now()) return false;
    return same(url.searchParams.get('sig') ?? undefined, signature(token, decodeURIComponent(key), expires));
  };

  return (req, res) => {
    const origin = req.headers.origin;
    res.setHeader('Vary', 'Origin');
    if (origin && origins.has(origin)) {
      res.setHeader('Access-Control-Allow-Origin', origin);
      res.setHeader('Access-Control-Allow-Credentials', 'true');
    }
    if (req.method === 'OPTIONS') {
      res.setHeader('Access-Control-Allow-Methods', 'POST, GET, OPTIONS');
      res.setHeader('Access-Control-Allow-Headers', 'Content-Type, X-Namespace, Authorization, Authorization-Extras');
      res.setHeader('Access-Control-Max-Age', '600');
      res.writeHead(204).end();
      return;
    }
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://codec.invalid');
      let path = url.pathname;
      let pathToken: string | undefined;
      // `/<token>/decode`: the token as the first segment, for a UI that cannot send a header.
      const segments = path.split('/').filter(Boolean);
      if (token !== undefined && segments.length > 1 && same(segments[0], token)) {
        pathToken = segments[0];
        path = `/${segments.slice(1).join('/')}`;
      }
      if (path === '/healthz' && req.method === 'GET') return void res.writeHead(200).end('ok');
      if (!authorized(req, pathToken, new URL(path + url.search, url))) {
        throw new HttpError(401, 'Send the codec server token (A2A_CODEC_TOKEN) as "Authorization: Bearer <token>".');
      }
      const blobKey = /^\/blobs\/([^/]+)$/.exec(path)?.[1];
      if (blobKey !== undefined && req.method === 'GET') {
        return void (await serveBlob(res, options.store, decodeURIComponent(blobKey), url.searchParams));
      }
      const route = /^\/(?:[^/]+\/)?(decode|encode|download)$/.exec(path)?.[1];
      if (!route || req.method !== 'POST')
        throw new HttpError(404, `No ${req.method} ${path} here: POST /decode, /encode, /download; GET /blobs/<key>.`);
      if (!/^application\/json\b/i.test(req.headers['content-type'] ?? '')) {
        throw new HttpError(415, 'Send the payloads as application/json: {"payloads":[…]}.');
      }
      const body = await readBody(req, maxBodyBytes);
      let parsed: z.infer<typeof WirePayloadsSchema>;
      try {
        parsed = WirePayloadsSchema.parse(JSON.parse(body));
      } catch {
        throw new HttpError(400, 'The body is not {"payloads":[…]} in protobuf JSON.');
      }
      const namespace = String(req.headers['x-namespace'] ?? '').slice(0, 256);
      const out = await routes[route]!(parsed.payloads.map(fromWire), url.searchParams, namespace, req);
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ payloads: out.map(toWire) }));
    })().catch((err: unknown) => {
      const [status, message] =
        err instanceof HttpError
          ? [err.status, err.message]
          : err instanceof BlobNotFoundError
            ? [404, err.message]
            : err instanceof InvalidBlobKeyError
              ? [400, err.message]
              : err instanceof BlobTooLargeError
                ? [413, err.message]
                : err instanceof BlobStoreError
                  ? [502, err.message]
                  : [500, 'The codec server failed to transform the payloads.'];
      if (!res.headersSent) res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end(message);
    });
  };
}

/** Starts the codec server. @throws Error when asked to listen beyond loopback without a token. */
export async function startCodecServer(
  options: CodecServerOptions,
  listen: CodecServerListenOptions = {},
): Promise<RunningCodecServer> {
  const host = listen.host ?? '127.0.0.1';
  if (options.token === undefined && !isLoopback(host) && !listen.allowUnauthenticated) {
    throw new Error(
      `The codec server serves stored payloads and files: on ${host} it needs a token (set A2A_CODEC_TOKEN), or A2A_CODEC_ALLOW_UNAUTHENTICATED=true behind a proxy that authenticates.`,
    );
  }
  const server = createServer(codecHandler(options));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(listen.port ?? 8081, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Media types served as themselves; anything else an agent claims is served as bytes. */
const SAFE_TYPES =
  /^(text\/plain|text\/markdown|text\/csv|application\/json|application\/pdf|image\/(png|jpeg|gif|webp))$/i;

async function serveBlob(res: ServerResponse, store: BlobStore, key: string, query: URLSearchParams): Promise<void> {
  digestOf(key);
  const info = await store.stat(key);
  if (!info) throw new BlobNotFoundError(key, store.location);
  const body = await store.get(key);
  const type = query.get('type') ?? '';
  res.writeHead(200, {
    'Content-Type': SAFE_TYPES.test(type) ? type : 'application/octet-stream',
    'Content-Length': String(info.size),
    'Content-Disposition': `attachment; filename="${safeFileName(query.get('name') ?? '', info.sha256)}"`,
    'X-Content-Type-Options': 'nosniff',
    'Content-Security-Policy': "sandbox; default-src 'none'",
    'Cache-Control': 'private, max-age=3600, immutable',
  });
  for await (const chunk of body) {
    if (!res.write(chunk)) await new Promise((resolve) => res.once('drain', resolve));
  }
  res.end();
}

async function decodeNonReferences(
  payloads: Payload[],
  decode: (payloads: Payload[]) => Promise<Payload[]>,
): Promise<Payload[]> {
  const indexes = payloads.flatMap((p, i) => (isStorageReference(p) ? [] : [i]));
  const decoded = await decode(indexes.map((i) => payloads[i]!));
  const out = payloads.slice();
  indexes.forEach((index, j) => (out[index] = decoded[j]!));
  return out;
}

function fromWire(wire: WirePayload): Payload {
  return {
    metadata: Object.fromEntries(Object.entries(wire.metadata ?? {}).map(([k, v]) => [k, Buffer.from(v, 'base64')])),
    data: Buffer.from(wire.data ?? '', 'base64'),
    ...(wire.externalPayloads
      ? { externalPayloads: wire.externalPayloads.map((e) => ({ sizeBytes: Number(e.sizeBytes ?? 0) })) }
      : {}),
  } as Payload;
}

function toWire(payload: Payload): WirePayload {
  const external = (payload as { externalPayloads?: Array<{ sizeBytes?: unknown }> }).externalPayloads;
  return {
    metadata: Object.fromEntries(
      Object.entries(payload.metadata ?? {}).map(([k, v]) => [k, Buffer.from(v ?? []).toString('base64')]),
    ),
    data: Buffer.from(payload.data ?? []).toString('base64'),
    ...(external?.length ? { externalPayloads: external.map((e) => ({ sizeBytes: String(e.sizeBytes ?? 0) })) } : {}),
  };
}

async function readBody(req: IncomingMessage, max: number): Promise<string> {
  if (Number(req.headers['content-length'] ?? 0) > max) {
    req.resume();
    throw new HttpError(413, `The body is larger than ${max} bytes (A2A_CODEC_MAX_BODY_BYTES).`);
  }
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    total += chunk.length;
    if (total > max) {
      req.destroy();
      throw new HttpError(413, `The body is larger than ${max} bytes (A2A_CODEC_MAX_BODY_BYTES).`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function percentDecoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function same(a: string | undefined, b: string): boolean {
  if (a === undefined) return false;
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || host.startsWith('127.');
}
