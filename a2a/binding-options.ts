/** What every binding (HTTP+JSON, JSON-RPC or gRPC; A2A 1.0 or 0.3) is built from. */
import type { SelectedInterface } from './agent-card.js';
import type { GrpcChannelPool, GrpcTlsMaterial } from './grpc/channels.js';
import type { HttpClient } from './http.js';

export interface BindingOptions {
  endpoint: SelectedInterface;
  /** Sends the requests; its `limits` bound what is read, its `secrets` are kept out of messages. */
  http: HttpClient;
  /** Default `timeoutMs` of unary calls and `connectTimeoutMs` of streams. */
  timeoutMs?: number;
  /** The gRPC binding's channels and TLS material (the HTTP bindings have theirs in `http`'s dispatcher). */
  grpc?: GrpcOptions;
}

export interface GrpcOptions {
  /** Where channels are kept. @default one pool per process */
  channels?: GrpcChannelPool;
  /** Our client certificate and key (mutual TLS) and the agent's CA, as PEM. */
  tls?: GrpcTlsMaterial;
}
