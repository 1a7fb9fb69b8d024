/**
 * `createA2AClient`: one client for one agent interface, speaking whichever binding
 * (HTTP+JSON, JSON-RPC or gRPC) and protocol version (1.0 or 0.3; gRPC 1.0 only) the interface
 * declares. Callers only ever see 1.0 objects.
 */
import type { Dispatcher } from 'undici';
import { selectInterface, type SelectedInterface } from './agent-card.js';
import type { AuthResolver } from './auth.js';
import type { BindingOptions } from './binding-options.js';
import { HttpClient, type HttpObserver } from './http.js';
import { httpOptions } from './http-options.js';
import { HttpJsonTransport, V1_REST } from './http-json-transport.js';
import type { GrpcChannelPool, GrpcTlsMaterial } from './grpc/channels.js';
import { GrpcTransport } from './grpc/grpc-transport.js';
import { JsonRpcTransport } from './json-rpc-transport.js';
import type { A2ALimits } from './limits.js';
import type { OutboundPolicy } from './outbound-policy.js';
import type { AgentCard } from './schemas/agent-card.js';
import type { Transport } from './transport.js';
import { V03_REST } from './v0-3/http-json-dialect.js';
import { LegacyJsonRpcTransport } from './v0-3/json-rpc-transport.js';

/** How `createA2AClient` builds a client: timeouts, caps, credentials, outbound policy and observers. See [docs/guide.md](../docs/guide.md#the-a2a-client-on-its-own). */
export interface A2AClientOptions {
  /** undici dispatcher: an `Agent` with your pool settings, or a `MockAgent` in tests. */
  dispatcher?: Dispatcher;
  /** Credentials for this agent, resolved before every request. */
  auth?: AuthResolver;
  /** Default `timeoutMs` of unary calls and `connectTimeoutMs` of streams. Default: none. */
  timeoutMs?: number;
  /** `User-Agent` header. @default 'a2a-temporal' */
  userAgent?: string;
  /** Caps on what the agent may send: bytes of bodies and SSE, artifacts, parts, JSON depth. @default DEFAULT_LIMITS */
  limits?: Partial<A2ALimits>;
  /** Where requests may go and which carry `auth`; see {@link OutboundPolicy}. @default none */
  policy?: OutboundPolicy;
  /** The scheme the card asks for, named when the agent answers 401/403. */
  authScheme?: string;
  /** Sees every request of this client (see {@link HttpObserver}). */
  observer?: HttpObserver;
  /** gRPC only: our client certificate and key (mutual TLS) and the agent's CA, as PEM (HTTP takes them in `dispatcher`). */
  tls?: GrpcTlsMaterial;
  /** gRPC only: where channels are kept. @default one pool per process */
  grpcChannels?: GrpcChannelPool;
}

/** A card (its best interface is used) or an interface chosen earlier (the card is then optional). See [docs/guide.md](../docs/guide.md#the-a2a-client-on-its-own). */
export type A2AClientTarget =
  | {
      /** The agent's card: its best interface is used unless `endpoint` says which. */
      card: AgentCard;
      /** The interface to use; default: {@link selectInterface}(card). */
      endpoint?: SelectedInterface;
    }
  | {
      /** The agent's card, where known (capabilities, security schemes). */
      card?: AgentCard;
      /** The interface to use. */
      endpoint: SelectedInterface;
    };

/**
 * A client for one agent interface: the {@link Transport} of its binding and protocol version,
 * plus the card and interface it was made from. Every method takes an `AbortSignal`; nothing
 * retries: failures are {@link A2AError}s that say whether a retry can help.
 * See [docs/guide.md](../docs/guide.md#the-a2a-client-on-its-own).
 */
export interface A2AClient extends Transport {
  /** The card the client was made from, when it was given one. */
  readonly card?: AgentCard | undefined;
  /** The interface this client talks to. */
  readonly endpoint: SelectedInterface;
}

/** The transport for an interface: binding × protocol version. */
export function createTransport(options: BindingOptions): Transport {
  const { binding, protocolVersion } = options.endpoint;
  if (binding === 'GRPC') return new GrpcTransport(options);
  if (binding === 'HTTP+JSON') return new HttpJsonTransport(options, protocolVersion === '1.0' ? V1_REST : V03_REST);
  return protocolVersion === '1.0' ? new JsonRpcTransport(options) : new LegacyJsonRpcTransport(options);
}

/**
 * Creates a client for `target.endpoint`, or for the best interface of `target.card`.
 *
 * @throws NoUsableInterfaceError when no endpoint is given and the card offers none we speak.
 */
export function createA2AClient(target: A2AClientTarget, options: A2AClientOptions = {}): A2AClient {
  const endpoint = target.endpoint ?? selectInterface(target.card!);
  const http = new HttpClient(httpOptions(options));
  const transport = createTransport({
    endpoint,
    http,
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    grpc: {
      ...(options.tls ? { tls: options.tls } : {}),
      ...(options.grpcChannels ? { channels: options.grpcChannels } : {}),
    },
  });
  return Object.assign(transport, { card: target.card, endpoint });
}
