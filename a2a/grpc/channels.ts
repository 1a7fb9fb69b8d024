/**
 * gRPC channels, shared like undici's connection pool: one per target, TLS material and receive
 * cap, kept for the next client of the same agent (an activity makes a client per call). A
 * channel opens its HTTP/2 connection when first used and closes it when idle; the pool holds at
 * most {@link MAX_CHANNELS}, closing the least recently used.
 *
 * Every channel is set up the way the other bindings behave:
 * - `grpc.max_receive_message_length` is the body cap (a larger message fails before it is buffered);
 * - keepalive pings every 30 s while calls are open (a half-open connection under a silent stream
 *   is found; grpc-js backs off by itself when a server answers "too many pings");
 * - no retries, no service config from DNS, no proxy from the environment: Temporal's retry
 *   policy owns retries, and a request goes where the outbound policy said, nowhere else.
 */
import { createHash } from 'node:crypto';
import { Client, credentials, type ChannelCredentials, type ChannelOptions } from '@grpc/grpc-js';

/** TLS material of an agents-file entry: our certificate and key (mutual TLS), the CA that signed the agent's. */
export interface GrpcTlsMaterial {
  cert?: string;
  key?: string;
  ca?: string;
}

export interface ChannelRequest {
  /** `host:port` */
  target: string;
  tls: boolean;
  material?: GrpcTlsMaterial;
  maxReceiveBytes: number;
  userAgent: string;
}

const MAX_CHANNELS = 64;

/** Keepalive: a ping after 30 s without frames while a call is open, the connection dropped after 10 s without its answer. */
const KEEPALIVE_TIME_MS = 30_000;
const KEEPALIVE_TIMEOUT_MS = 10_000;

export class GrpcChannelPool {
  private readonly channels = new Map<string, Client>();

  /** The channel for `request`, made on first use. */
  get(request: ChannelRequest): Client {
    const key = keyOf(request);
    const found = this.channels.get(key);
    if (found) {
      this.channels.delete(key);
      this.channels.set(key, found);
      return found;
    }
    const client = new Client(request.target, channelCredentials(request), channelOptions(request));
    this.channels.set(key, client);
    if (this.channels.size > MAX_CHANNELS) {
      const [oldestKey, oldest] = this.channels.entries().next().value!;
      this.channels.delete(oldestKey);
      oldest.close();
    }
    return client;
  }

  /** Closes every channel (calls in flight end with CANCELLED). */
  close(): void {
    for (const client of this.channels.values()) client.close();
    this.channels.clear();
  }
}

/** The pool used when a client is given none: one per process, like undici's global dispatcher. */
export const defaultChannelPool = new GrpcChannelPool();

function keyOf(request: ChannelRequest): string {
  const material = request.material ?? {};
  const fingerprint = createHash('sha256')
    .update(JSON.stringify([material.cert ?? '', material.key ?? '', material.ca ?? '']))
    .digest('hex');
  return JSON.stringify([request.target, request.tls, fingerprint, request.maxReceiveBytes, request.userAgent]);
}

function channelCredentials(request: ChannelRequest): ChannelCredentials {
  if (!request.tls) return credentials.createInsecure();
  const { cert, key, ca } = request.material ?? {};
  const buffer = (pem: string | undefined) => (pem ? Buffer.from(pem) : null);
  // Verification of the agent's certificate stays on (against `ca`, or the system's roots).
  return credentials.createSsl(buffer(ca), cert && key ? buffer(key) : null, cert && key ? buffer(cert) : null);
}

function channelOptions(request: ChannelRequest): ChannelOptions {
  return {
    'grpc.max_receive_message_length': request.maxReceiveBytes,
    'grpc.keepalive_time_ms': KEEPALIVE_TIME_MS,
    'grpc.keepalive_timeout_ms': KEEPALIVE_TIMEOUT_MS,
    'grpc.keepalive_permit_without_calls': 0,
    'grpc.enable_retries': 0,
    'grpc.service_config_disable_resolution': 1,
    'grpc.enable_http_proxy': 0,
    'grpc.max_reconnect_backoff_ms': 10_000,
    'grpc.primary_user_agent': request.userAgent,
  };
}
