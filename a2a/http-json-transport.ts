/**
 * The HTTP+JSON (REST) binding (A2A 1.0 §11): ProtoJSON bodies, paths relative to the
 * interface URL (prefixed with `/{tenant}` when the interface has a tenant), query parameters
 * for GET, SSE for the streaming operations. Errors are HTTP statuses with a
 * `google.rpc.Status` body whose `ErrorInfo.reason` names the A2A error.
 *
 * Requests are sent as `application/json` (what 1.0.0 and the TCK use; every server accepts
 * it); `application/a2a+json` and `application/json` replies are both read.
 */
import { parseAgentCard } from './agent-card.js';
import { errorFromHttpResponse, errorFromJsonRpcError, errorFromRpcStatus, type ErrorScope } from './error-mapping.js';
import { UnknownAgentError, type A2AError } from './errors.js';
import { streamResponses, type DecodedEvent, type StreamDecoder } from './event-stream.js';
import { displayUrl, type HttpRequest } from './http.js';
import type { BindingOptions } from './binding-options.js';
import type { AgentCard } from './schemas/agent-card.js';
import {
  SendMessageResponseSchema,
  StreamResponseSchema,
  type SendMessageResponse,
  type StreamResponse,
} from './schemas/events.js';
import {
  ListTaskPushNotificationConfigsResponseSchema,
  TaskPushNotificationConfigSchema,
  type TaskPushNotificationConfig,
} from './schemas/push-config.js';
import {
  ListTasksResponseSchema,
  type ListTasksRequest,
  type ListTasksResponse,
  type SendMessageRequest,
} from './schemas/requests.js';
import { TaskSchema, type Task } from './schemas/task.js';
import type {
  CallOptions,
  CancelTaskParams,
  GetTaskParams,
  ListPushConfigsParams,
  ListPushConfigsResult,
  PushConfigRef,
  StreamOptions,
  SubscribeToTaskParams,
  Transport,
} from './transport.js';
import { parseJsonText, parseWire, responseContext, type ParseContext } from './validation.js';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

type Query = HttpRequest['query'];

/** `encodeURIComponent` for one path segment. */
export function pathSegment(value: string): string {
  return encodeURIComponent(value);
}

/** `url` without the slashes it ends with (a loop, not `/\/+$/`, which is quadratic on `////…x`). */
function withoutTrailingSlashes(url: string): string {
  let end = url.length;
  while (end > 0 && url[end - 1] === '/') end--;
  return url.slice(0, end);
}

/** REST plumbing shared by the 1.0 and 0.3 dialects: URLs, headers, status handling, streams. */
export class RestConnection {
  readonly agentUrl: string;
  private readonly base: string;

  constructor(
    private readonly options: BindingOptions,
    private readonly headers: Record<string, string>,
    readonly protocolVersion: string,
    /** Path prefix of every route: `''` in 1.0, `'/v1'` in 0.3. */
    prefix: string,
    private readonly accept: string,
    /** 1.0 prefixes every path with `/{tenant}` when the interface has one; 0.3 had no tenants. */
    useTenant = true,
  ) {
    const tenant = useTenant && options.endpoint.tenant ? `/${pathSegment(options.endpoint.tenant)}` : '';
    this.base = `${withoutTrailingSlashes(options.endpoint.url)}${tenant}${prefix}`;
    this.agentUrl = displayUrl(options.endpoint.url);
  }

  parseContext(operation: string, what: string): ParseContext {
    return responseContext(this.options.http, {
      operation,
      agentUrl: this.agentUrl,
      what,
      protocolVersion: this.protocolVersion,
    });
  }

  private request(
    method: HttpRequest['method'],
    path: string,
    operation: string,
    body: unknown,
    query: Query,
    signal?: AbortSignal,
  ): HttpRequest {
    const req: HttpRequest = {
      method,
      url: `${this.base}${path}`,
      headers: { ...this.headers, accept: this.accept },
      context: { operation, agentUrl: this.agentUrl },
      signal,
    };
    if (query) req.query = query;
    if (body !== undefined) {
      req.body = JSON.stringify(body);
      req.headers['content-type'] = 'application/json';
    }
    return req;
  }

  /** A unary call; returns the parsed JSON body (undefined for 204 or an empty body). */
  async call(
    method: HttpRequest['method'],
    path: string,
    operation: string,
    init: { body?: unknown; query?: Query } = {},
    callOptions: CallOptions = {},
  ): Promise<unknown> {
    const res = await this.options.http.unary(
      this.request(method, path, operation, init.body, init.query, callOptions.signal),
      callOptions.timeoutMs ?? this.options.timeoutMs,
    );
    if (res.status < 200 || res.status >= 300)
      throw errorFromHttpResponse(res.status, res.headers, res.text, res.scope);
    if (res.status === 204 || res.text.trim() === '') return undefined;
    return parseJsonText(res.text, this.parseContext(operation, 'response body'));
  }

  /**
   * A streaming call. With `fallbackToGet`, a POST answered by 405, or by a 404 that is not an
   * A2A error (a missing route, not a missing task), is retried once as GET — the proto says
   * GET for SubscribeToTask, the spec prose POST (§11.1).
   */
  async *stream(
    path: string,
    operation: string,
    body: unknown,
    decoder: (scope: ErrorScope) => StreamDecoder,
    callOptions: StreamOptions = {},
    fallbackToGet = false,
  ): AsyncGenerator<StreamResponse, void, undefined> {
    const connectTimeoutMs = callOptions.connectTimeoutMs ?? this.options.timeoutMs;
    const streamOptions = {
      ...(connectTimeoutMs !== undefined ? { connectTimeoutMs } : {}),
      ...(callOptions.idleTimeoutMs !== undefined ? { idleTimeoutMs: callOptions.idleTimeoutMs } : {}),
    };
    const open = (method: 'GET' | 'POST') => {
      const req = this.request(
        method,
        path,
        operation,
        method === 'POST' ? body : undefined,
        undefined,
        callOptions.signal,
      );
      req.headers.accept = 'text/event-stream';
      return this.options.http.stream(req, streamOptions);
    };
    let stream = await open('POST');
    if (fallbackToGet && (stream.status === 405 || stream.status === 404)) {
      const text = await stream.text().catch(() => '');
      const error = errorFromHttpResponse(stream.status, stream.headers, text, stream.scope);
      stream.close();
      if (stream.status === 404 && !isRouteNotFound(error)) throw error;
      stream = await open('GET');
    }
    const ctx = this.parseContext(operation, 'stream event');
    yield* streamResponses(stream, decoder(stream.scope), ctx);
  }
}

/** A 404 that carries no A2A error: the route does not exist (as opposed to TaskNotFound). */
function isRouteNotFound(error: A2AError): boolean {
  return !('reason' in error && typeof error.reason === 'string' && error.reason === 'TASK_NOT_FOUND');
}

/** An `event: error` payload on a REST stream: `{"error":{…google.rpc.Status…}}` (1.0) or `{code,message}` (0.3). */
export function restErrorEvent(json: unknown, scope: ErrorScope): A2AError {
  const fromStatus = errorFromRpcStatus(json, scope);
  if (fromStatus) return fromStatus;
  if (isRecord(json) && typeof json.code === 'number') return errorFromJsonRpcError(json, scope);
  return new UnknownAgentError({
    ...(scope.operation !== undefined ? { operation: scope.operation } : {}),
    ...(scope.agentUrl !== undefined ? { agentUrl: scope.agentUrl } : {}),
  });
}

/** A 2xx body (or SSE data) that is nothing but an error. */
export function embeddedError(json: unknown, scope: ErrorScope, oneofKeys: readonly string[]): A2AError | undefined {
  if (!isRecord(json) || !isRecord(json.error)) return undefined;
  if (oneofKeys.some((k) => json[k] !== undefined)) return undefined;
  return restErrorEvent(json, scope);
}

const STREAM_KEYS = ['task', 'message', 'statusUpdate', 'artifactUpdate'] as const;

/** A2A 1.0 over HTTP+JSON. */
export class HttpJsonTransport implements Transport {
  private readonly rest: RestConnection;

  constructor(options: BindingOptions) {
    this.rest = new RestConnection(
      options,
      { 'a2a-version': '1.0' },
      '1.0',
      '',
      'application/a2a+json, application/json',
    );
  }

  private decoder = (scope: ErrorScope): StreamDecoder => ({
    decode: (json): DecodedEvent => {
      const error = embeddedError(json, scope, STREAM_KEYS);
      if (error) throw error;
      const response = parseWire(
        StreamResponseSchema,
        json,
        this.rest.parseContext(scope.operation ?? '', 'StreamResponse'),
      );
      return { response, final: 'message' in response };
    },
    error: (json) => restErrorEvent(json, scope),
  });

  async sendMessage(req: SendMessageRequest, options?: CallOptions): Promise<SendMessageResponse> {
    const body = await this.rest.call('POST', '/message:send', 'SendMessage', { body: req }, options);
    return parseWire(SendMessageResponseSchema, body, this.rest.parseContext('SendMessage', 'SendMessageResponse'));
  }

  sendStreamingMessage(
    req: SendMessageRequest,
    options?: StreamOptions,
  ): AsyncGenerator<StreamResponse, void, undefined> {
    return this.rest.stream('/message:stream', 'SendStreamingMessage', req, this.decoder, options);
  }

  async getTask(req: GetTaskParams, options?: CallOptions): Promise<Task> {
    const body = await this.rest.call(
      'GET',
      `/tasks/${pathSegment(req.id)}`,
      'GetTask',
      { query: { historyLength: req.historyLength } },
      options,
    );
    return parseWire(TaskSchema, body, this.rest.parseContext('GetTask', 'Task'));
  }

  async listTasks(req: ListTasksRequest, options?: CallOptions): Promise<ListTasksResponse> {
    const query = {
      contextId: req.contextId,
      status: req.status,
      pageSize: req.pageSize,
      pageToken: req.pageToken,
      historyLength: req.historyLength,
      statusTimestampAfter: req.statusTimestampAfter,
      includeArtifacts: req.includeArtifacts,
    };
    const body = await this.rest.call('GET', '/tasks', 'ListTasks', { query }, options);
    return parseWire(ListTasksResponseSchema, body ?? {}, this.rest.parseContext('ListTasks', 'ListTasksResponse'));
  }

  async cancelTask(req: CancelTaskParams, options?: CallOptions): Promise<Task> {
    // `{}`, never an empty body or `null`: some servers reject those (a2a-go #380).
    const payload = req.metadata ? { metadata: req.metadata } : {};
    const body = await this.rest.call(
      'POST',
      `/tasks/${pathSegment(req.id)}:cancel`,
      'CancelTask',
      { body: payload },
      options,
    );
    return parseWire(TaskSchema, body, this.rest.parseContext('CancelTask', 'Task'));
  }

  subscribeToTask(
    req: SubscribeToTaskParams,
    options?: StreamOptions,
  ): AsyncGenerator<StreamResponse, void, undefined> {
    return this.rest.stream(
      `/tasks/${pathSegment(req.id)}:subscribe`,
      'SubscribeToTask',
      {},
      this.decoder,
      options,
      true,
    );
  }

  async createPushConfig(cfg: TaskPushNotificationConfig, options?: CallOptions): Promise<TaskPushNotificationConfig> {
    const op = 'CreateTaskPushNotificationConfig';
    const { tenant: _tenant, ...config } = cfg;
    const body = await this.rest.call(
      'POST',
      `/tasks/${pathSegment(cfg.taskId ?? '')}/pushNotificationConfigs`,
      op,
      { body: config },
      options,
    );
    return parseWire(TaskPushNotificationConfigSchema, body, this.rest.parseContext(op, 'TaskPushNotificationConfig'));
  }

  async getPushConfig(req: PushConfigRef, options?: CallOptions): Promise<TaskPushNotificationConfig> {
    const op = 'GetTaskPushNotificationConfig';
    const body = await this.rest.call(
      'GET',
      `/tasks/${pathSegment(req.taskId)}/pushNotificationConfigs/${pathSegment(req.id)}`,
      op,
      {},
      options,
    );
    return parseWire(TaskPushNotificationConfigSchema, body, this.rest.parseContext(op, 'TaskPushNotificationConfig'));
  }

  async listPushConfigs(req: ListPushConfigsParams, options?: CallOptions): Promise<ListPushConfigsResult> {
    const op = 'ListTaskPushNotificationConfigs';
    const query = { pageSize: req.pageSize, pageToken: req.pageToken };
    const body = await this.rest.call(
      'GET',
      `/tasks/${pathSegment(req.taskId)}/pushNotificationConfigs`,
      op,
      { query },
      options,
    );
    const parsed = parseWire(
      ListTaskPushNotificationConfigsResponseSchema,
      body ?? {},
      this.rest.parseContext(op, 'ListTaskPushNotificationConfigsResponse'),
    );
    return parsed.nextPageToken
      ? { configs: parsed.configs, nextPageToken: parsed.nextPageToken }
      : { configs: parsed.configs };
  }

  async deletePushConfig(req: PushConfigRef, options?: CallOptions): Promise<void> {
    const op = 'DeleteTaskPushNotificationConfig';
    // 200 `{}` or 204: either is fine.
    await this.rest.call(
      'DELETE',
      `/tasks/${pathSegment(req.taskId)}/pushNotificationConfigs/${pathSegment(req.id)}`,
      op,
      {},
      options,
    );
  }

  async getExtendedAgentCard(options?: CallOptions): Promise<AgentCard> {
    const body = await this.rest.call('GET', '/extendedAgentCard', 'GetExtendedAgentCard', {}, options);
    return parseAgentCard(body, this.rest.parseContext('GetExtendedAgentCard', 'agent card'));
  }
}
