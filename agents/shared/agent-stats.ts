import type { Request, RequestHandler } from 'express';
import { UserBuilder } from '@a2a-js/sdk/server/express';
import { UserBuilder as GrpcUserBuilder } from '@a2a-js/sdk/server/grpc';
import { isObject } from './parts.js';

/** What a running sample agent has seen since it started (or since `resetStats()`). */
export interface AgentStats {
  /** Every HTTP request and gRPC call received, agent-card fetches included. */
  requests: number;
  /**
   * Requests per route, e.g. `"POST /a2a/jsonrpc SendMessage"`, `"GET /a2a/rest/tasks/:id"`,
   * `"GET /.well-known/agent-card.json"`, `"gRPC SendMessage"`; task and push-config ids are replaced by `:id` / `:configId`.
   */
  byRoute: Record<string, number>;
  /** Tasks written to the task store for the first time. */
  tasksCreated: number;
  /** The `messageId` of every user message received by a send/stream call, in arrival order. */
  messageIds: string[];
}

const SEND_RPC_METHODS = new Set(['SendMessage', 'SendStreamingMessage', 'message/send', 'message/stream']);

/**
 * Replaces the ids in an A2A path by placeholders and drops the query string:
 * `/a2a/rest/tasks/T1:cancel` → `/a2a/rest/tasks/:id:cancel`.
 */
export function normalizeRoutePath(path: string): string {
  const withoutQuery = path.split('?', 1)[0] ?? '';
  const segments = withoutQuery.split('/');
  for (let i = 1; i < segments.length; i++) {
    const segment = segments[i] ?? '';
    if (segment === '') continue;
    if (segments[i - 1] === 'tasks') {
      const action = segment.indexOf(':');
      segments[i] = action > 0 ? `:id${segment.slice(action)}` : ':id';
    } else if (segments[i - 1] === 'pushNotificationConfigs') {
      segments[i] = ':configId';
    }
  }
  const normalized = segments.join('/');
  return normalized.length > 1 && normalized.endsWith('/') ? normalized.slice(0, -1) : normalized;
}

/**
 * Counts what reaches one agent server. The JSON-RPC method name lives in the body, which the
 * SDK's handler parses itself; the first hook that sees the parsed body is the `userBuilder`, so
 * JSON-RPC calls are counted there (and, if the SDK refused the request before that, when the
 * response closes).
 */
export class StatsRecorder {
  readonly stats: AgentStats = { requests: 0, byRoute: {}, tasksCreated: 0, messageIds: [] };
  private readonly awaitingRpcMethod = new WeakSet<Request>();

  constructor(private readonly jsonRpcPath: string) {}

  /** Clears the counters in place, so references to `stats` stay valid. */
  reset(): void {
    this.stats.requests = 0;
    for (const key of Object.keys(this.stats.byRoute)) delete this.stats.byRoute[key];
    this.stats.tasksCreated = 0;
    this.stats.messageIds.length = 0;
  }

  taskCreated(): void {
    this.stats.tasksCreated++;
  }

  readonly middleware: RequestHandler = (req, res, next) => {
    this.stats.requests++;
    const path = normalizeRoutePath(req.path);
    if (req.method === 'POST' && path === this.jsonRpcPath) {
      this.awaitingRpcMethod.add(req);
      res.once('close', () => {
        if (this.awaitingRpcMethod.delete(req)) this.count(`POST ${path}`);
      });
    } else {
      this.count(`${req.method} ${path}`);
    }
    next();
  };

  readonly userBuilder: UserBuilder = async (req) => {
    const body: unknown = req.body;
    const rpcMethod = isObject(body) && typeof body.method === 'string' ? body.method : undefined;
    if (this.awaitingRpcMethod.delete(req)) {
      this.count(rpcMethod ? `POST ${this.jsonRpcPath} ${rpcMethod}` : `POST ${this.jsonRpcPath}`);
    }
    const messageId = rpcMethod ? sentRpcMessageId(rpcMethod, body) : sentRestMessageId(req.originalUrl, body);
    if (messageId !== undefined) this.stats.messageIds.push(messageId);
    return UserBuilder.noAuthentication();
  };

  /**
   * The gRPC interface's hook: each call counts as a request, by route `gRPC <Method>`, and a
   * send's message id is recorded (the SDK has decoded the request by then).
   */
  readonly grpcUserBuilder: GrpcUserBuilder = async (call) => {
    this.stats.requests++;
    const method = call.getPath().split('/').pop() ?? '';
    this.count(`gRPC ${method}`);
    const request: unknown = call.request;
    if (SEND_RPC_METHODS.has(method) && isObject(request)) {
      const messageId = messageIdOf(request.message);
      if (messageId !== undefined) this.stats.messageIds.push(messageId);
    }
    return GrpcUserBuilder.noAuthentication();
  };

  private count(key: string): void {
    this.stats.byRoute[key] = (this.stats.byRoute[key] ?? 0) + 1;
  }
}

function sentRpcMessageId(method: string, body: unknown): string | undefined {
  if (!SEND_RPC_METHODS.has(method) || !isObject(body) || !isObject(body.params)) return undefined;
  return messageIdOf(body.params.message);
}

function sentRestMessageId(url: string, body: unknown): string | undefined {
  const path = url.split('?', 1)[0] ?? '';
  if (!/\/message:(send|stream)$/.test(path) || !isObject(body)) return undefined;
  // v1.0 bodies carry `message`; v0.3 REST bodies (proto JSON) carry it as `request`.
  return messageIdOf(body.message ?? body.request);
}

function messageIdOf(message: unknown): string | undefined {
  if (!isObject(message)) return undefined;
  const id = message.messageId ?? message.message_id;
  return typeof id === 'string' && id !== '' ? id : undefined;
}
