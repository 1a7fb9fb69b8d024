/**
 * A sample agent's gRPC interface: the official SDK's `A2AService` and `grpcService` adapter
 * (`@a2a-js/sdk/server/grpc`) on a `@grpc/grpc-js` server, on its own port beside the HTTP one,
 * over the same request handler (so a task created over gRPC is read over HTTP and back). With
 * `tls` it serves TLS (mutual TLS with `clientCa`); with a bearer token or OAuth it refuses calls
 * without valid credentials in the `authorization` metadata, as the HTTP interfaces do.
 */
import { timingSafeEqual } from 'node:crypto';
import {
  Server,
  ServerCredentials,
  status,
  type Metadata,
  type ServerUnaryCall,
  type ServerWritableStream,
  type UntypedServiceImplementation,
} from '@grpc/grpc-js';
import type { A2ARequestHandler } from '@a2a-js/sdk/server';
import { A2AService, grpcService } from '@a2a-js/sdk/server/grpc';
import type { AgentSecurityOptions } from './agent-security.js';
import type { StatsRecorder } from './agent-stats.js';

/** A bound gRPC server, before and after it gets its service. */
export interface GrpcListener {
  /** `host:port` as a card names a gRPC interface. */
  address: string;
  /** Serves the A2A service over `requestHandler` (calls before this fail with UNIMPLEMENTED). */
  serve(requestHandler: A2ARequestHandler, recorder: StatsRecorder, gate?: Gate): void;
  /** Stops at once: open streams end (a parked subscription would hold a graceful shutdown forever). */
  close(): Promise<void>;
}

/** Decides whether a call's `authorization` may pass; resolves to the refusal's message, or undefined. */
type Gate = (authorization: string) => Promise<string | undefined>;

/** Binds a gRPC server on `host`, `port` (TLS, and mutual TLS with `clientCa`, as `security.tls` says). */
export async function bindGrpcServer(options: {
  host: string;
  /** 0: a free one. */
  port: number;
  /** The host written into `address`. */
  publicHost: string;
  /** `address` as clients reach it (a proxy in front); overrides `publicHost` and the bound port. */
  publicAddress?: string | undefined;
  security?: AgentSecurityOptions | undefined;
}): Promise<GrpcListener> {
  const server = new Server();
  const tls = options.security?.tls;
  const credentials = tls
    ? ServerCredentials.createSsl(
        tls.clientCa ? Buffer.from(tls.clientCa) : null,
        [{ cert_chain: Buffer.from(tls.cert), private_key: Buffer.from(tls.key) }],
        Boolean(tls.clientCa),
      )
    : ServerCredentials.createInsecure();
  const bindHost = options.host.includes(':') ? `[${options.host}]` : options.host;
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync(`${bindHost}:${options.port}`, credentials, (error, bound) =>
      error ? reject(error) : resolve(bound),
    ),
  );
  return {
    address: options.publicAddress ?? `${options.publicHost}:${port}`,
    serve(requestHandler, recorder, gate) {
      const service = grpcService({ requestHandler, userBuilder: recorder.grpcUserBuilder });
      server.addService(A2AService, gate ? gated(service, gate) : service);
    },
    close: async () => server.forceShutdown(),
  };
}

/** Every method of `service`, refusing calls the gate turns away with UNAUTHENTICATED. */
function gated(service: UntypedServiceImplementation, gate: Gate): UntypedServiceImplementation {
  type Call = ServerUnaryCall<unknown, unknown> | ServerWritableStream<unknown, unknown>;
  type Handler = (call: Call, callback?: (error: unknown, value?: unknown) => void) => void;
  const wrapped: UntypedServiceImplementation = {};
  for (const [name, handler] of Object.entries(service as Record<string, Handler>)) {
    wrapped[name] = ((call: Call, callback?: (error: unknown, value?: unknown) => void) => {
      void gate(authorizationOf(call.metadata)).then((refusal) => {
        if (refusal === undefined) return handler(call, callback);
        const error = { code: status.UNAUTHENTICATED, details: refusal };
        if (callback) return callback(error, null);
        (call as ServerWritableStream<unknown, unknown>).emit('error', error);
      });
    }) as UntypedServiceImplementation[string];
  }
  return wrapped;
}

function authorizationOf(metadata: Metadata): string {
  const value = metadata.get('authorization')[0];
  return typeof value === 'string' ? value : '';
}

/** The gate of an agent that wants `Authorization: Bearer <token>` (compared in constant time). */
export function bearerGate(token: string): Gate {
  const expected = Buffer.from(`Bearer ${token}`);
  return async (authorization) => {
    const given = Buffer.from(authorization);
    return given.length === expected.length && timingSafeEqual(given, expected)
      ? undefined
      : 'A bearer token is required.';
  };
}
