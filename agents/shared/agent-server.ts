import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { timingSafeEqual } from 'node:crypto';
import express, { type RequestHandler } from 'express';
import { AGENT_CARD_PATH } from '@a2a-js/sdk';
import {
  DefaultPushNotificationSender,
  DefaultRequestHandler,
  InMemoryPushNotificationStore,
  InMemoryTaskStore,
  type AgentExecutor,
} from '@a2a-js/sdk/server';
import { agentCardHandler, jsonRpcHandler, restHandler } from '@a2a-js/sdk/server/express';
import { createLegacyAwarePushNotificationSender } from '@a2a-js/sdk/compat/v0_3/server';
import { createAgentServer, requireAccessToken, type AgentSecurityOptions } from './agent-security.js';
import { buildAgentCard, JSONRPC_PATH, REST_PATH, type AgentBinding, type AgentDescription } from './agent-card.js';
import { bearerGate, bindGrpcServer } from './grpc-server.js';
import { StatsRecorder, type AgentStats } from './agent-stats.js';
import { CountingTaskStore } from './counting-task-store.js';
import { quietPushDeliveryLog } from './quiet-delivery-log.js';
import { requestTracing } from './request-tracing.js';
import { activeTracing } from '../../telemetry/tracing.js';

/** Where a sample agent listens, which bindings and versions it serves and which credentials it requires. See [docs/architecture.md](../../docs/architecture.md#layout). */
export interface AgentServerOptions {
  /** Interface to bind. @default '127.0.0.1' */
  host?: string;
  /** Port to bind; 0 picks a free port (read it back from `baseUrl`). @default 0 */
  port?: number;
  /** Also serve A2A 0.3 (JSON-RPC and HTTP+JSON) through the SDK's compat layer. @default false */
  legacy?: boolean;
  /** Host name written into the card's interface URLs (e.g. a compose service name). @default the bound host */
  publicHost?: string;
  /**
   * The base URL written into the card's interface URLs when clients reach the agent through
   * something in front of it (a proxy on another port). @default `scheme://publicHost:port`
   */
  publicUrl?: string;
  /** Port of the gRPC interface (with `GRPC` among `bindings`). @default 0, a free one */
  grpcPort?: number;
  /** `host:port` the card names for the gRPC interface (a proxy in front of it). @default the bound one */
  publicGrpcAddress?: string;
  /**
   * Require `Authorization: Bearer <token>` on every A2A call (the card stays public); others get
   * 401. For tests that prove credentials are sent, and as an example of a protected agent.
   */
  bearerToken?: string;
  /** OAuth 2.0 tokens, mutual TLS, a card with security requirements, signed, with an extended card. */
  security?: AgentSecurityOptions;
  /**
   * The interfaces the card lists, in this order. `GRPC` also starts the SDK's gRPC server on a
   * port of its own (same host, same tasks). @default ['JSONRPC', 'HTTP+JSON']
   */
  bindings?: readonly AgentBinding[];
}

/** A sample agent listening on its port. See [docs/architecture.md](../../docs/architecture.md#layout). */
export interface RunningAgent {
  /** The agent card's `name`. */
  name: string;
  /** `http://HOST:PORT` (`https:` with `security.tls`), with the port actually bound; `publicUrl` when given. */
  baseUrl: string;
  /** `baseUrl + '/.well-known/agent-card.json'`. */
  cardUrl: string;
  /** `host:port` of the gRPC interface, when the agent serves one. */
  grpcAddress?: string;
  /** Live counters; the same object for the agent's whole life (`resetStats` clears it in place). */
  stats: AgentStats;
  /** Sets the agent's counters back to zero. */
  resetStats(): void;
  /** Stops listening, ends every open connection (SSE streams included) and every running task. Idempotent. */
  close(): Promise<void>;
}

/** An agent executor that can drop all its in-flight work at shutdown. */
export interface DisposableExecutor extends AgentExecutor {
  dispose(): void;
}

export interface AgentDefinition {
  description: AgentDescription;
  executor: DisposableExecutor;
}

/**
 * Serves one agent with the SDK's express handlers: the card at `/.well-known/agent-card.json`,
 * JSON-RPC at `/a2a/jsonrpc`, HTTP+JSON at `/a2a/rest`, in-memory tasks, push notifications
 * (any URL, loopback included: the SDK sender does no address filtering); with `GRPC` among
 * `bindings`, the SDK's gRPC service on a port of its own too.
 * @throws when the port cannot be bound.
 */
export async function startAgentServer(
  definition: AgentDefinition,
  options: AgentServerOptions = {},
): Promise<RunningAgent> {
  const host = options.host ?? '127.0.0.1';
  const legacy = options.legacy ?? false;
  const security = options.security;
  const { server, scheme } = createAgentServer(security);
  await listen(server, options.port ?? 0, host, definition.description.name);
  const { port } = server.address() as AddressInfo;
  const baseUrl =
    options.publicUrl?.replace(/\/+$/, '') ?? `${scheme}://${options.publicHost ?? urlHost(host)}:${port}`;

  // The gRPC port is bound first: the card names it, the request handler needs the card.
  const grpc = options.bindings?.includes('GRPC')
    ? await bindGrpcServer({
        host,
        port: options.grpcPort ?? 0,
        publicHost: options.publicHost ?? urlHost(host),
        publicAddress: options.publicGrpcAddress,
        security,
      }).catch(async (error: unknown) => {
        await new Promise((resolve) => server.close(resolve));
        throw error;
      })
    : undefined;
  const built = buildAgentCard(definition.description, baseUrl, legacy, options.bindings, grpc?.address);
  const card = security?.card ? security.card(built) : built;
  const recorder = new StatsRecorder(JSONRPC_PATH);
  const taskStore = new CountingTaskStore(new InMemoryTaskStore(), () => recorder.taskCreated());
  const pushStore = new InMemoryPushNotificationStore();
  quietPushDeliveryLog();
  // The legacy-aware sender keeps 0.3-registered webhooks on 0.3-shaped bodies.
  const pushSender = legacy
    ? createLegacyAwarePushNotificationSender(pushStore)
    : new DefaultPushNotificationSender(pushStore);
  const requestHandler = new DefaultRequestHandler(
    card,
    taskStore,
    definition.executor,
    undefined,
    pushStore,
    pushSender,
    security?.extendedCard ? async () => security.extendedCard!(card) : undefined,
    security?.signCard,
  );
  const legacyCompat = legacy ? { enabled: true } : undefined;
  grpc?.serve(requestHandler, recorder, options.bearerToken ? bearerGate(options.bearerToken) : undefined);

  const app = express();
  app.disable('x-powered-by');
  if (activeTracing()) app.use(requestTracing(card.name, [JSONRPC_PATH, REST_PATH, `/${AGENT_CARD_PATH}`]));
  app.use(recorder.middleware);
  app.use(`/${AGENT_CARD_PATH}`, agentCardHandler({ agentCardProvider: requestHandler, legacyCompat }));
  if (options.bearerToken) app.use([JSONRPC_PATH, REST_PATH], requireBearer(options.bearerToken));
  if (security?.oauth) app.use([JSONRPC_PATH, REST_PATH], requireAccessToken(security.oauth));
  app.use(JSONRPC_PATH, jsonRpcHandler({ requestHandler, userBuilder: recorder.userBuilder, legacyCompat }));
  app.use(REST_PATH, restHandler({ requestHandler, userBuilder: recorder.userBuilder, legacyCompat }));
  // Attached after listen because the card needs the bound port; no request can be parsed before
  // this synchronous continuation runs.
  server.on('request', app);

  let closing: Promise<void> | undefined;
  return {
    name: card.name,
    baseUrl,
    cardUrl: `${baseUrl}/${AGENT_CARD_PATH}`,
    ...(grpc ? { grpcAddress: grpc.address } : {}),
    stats: recorder.stats,
    resetStats: () => recorder.reset(),
    close: () => {
      closing ??= new Promise<void>((resolve) => {
        definition.executor.dispose();
        void grpc?.close();
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}

/** 401 for A2A calls without the expected bearer token (compared in constant time). */
function requireBearer(token: string): RequestHandler {
  const expected = Buffer.from(`Bearer ${token}`);
  return (req, res, next) => {
    const given = Buffer.from(req.headers.authorization ?? '');
    if (given.length === expected.length && timingSafeEqual(given, expected)) return next();
    res
      .status(401)
      .set('WWW-Authenticate', 'Bearer')
      .json({ error: { code: 401, status: 'UNAUTHENTICATED', message: 'A bearer token is required.' } });
  };
}

function listen(server: Server, port: number, host: string, name: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error) =>
      reject(new Error(`${name} could not listen on ${host}:${port}: ${error.message}`, { cause: error }));
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve();
    });
  });
}

/** The host part of a URL that reaches a server bound to `host` (wildcards → loopback). */
function urlHost(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}
