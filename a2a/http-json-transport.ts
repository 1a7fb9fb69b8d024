/**
 * The HTTP+JSON (REST) binding (A2A 1.0 §11): ProtoJSON bodies, paths relative to the
 * interface URL (prefixed with `/{tenant}` when the interface has a tenant), query parameters
 * for GET, SSE for the streaming operations. Errors are HTTP statuses with a
 * `google.rpc.Status` body whose `ErrorInfo.reason` names the A2A error.
 *
 * One transport for both protocol versions: the same routes and the same plumbing, with a
 * {@link RestDialect} for what differs — 1.0 here, 0.3 in v0-3/http-json-dialect.ts (routes
 * under `/v1`, 0.3 ProtoJSON bodies, no tenants, no ListTasks).
 *
 * Requests are sent as `application/json` (what 1.0.0 and the TCK use; every server accepts
 * it); `application/a2a+json` and `application/json` replies are both read.
 */
import { parseAgentCard } from './agent-card.js';
import { errorFromHttpResponse, errorFromJsonRpcError, errorFromRpcStatus, type ErrorScope } from './error-mapping.js';
import { UnknownAgentError, type A2AError } from './errors.js';
import { streamResponses, type DecodedEvent, type StreamDecoder } from './event-stream.js';
import { displayUrl, type HttpRequest, type HttpResponse } from './http.js';
import { spilledTask, taskBodyReader } from './task-body.js';
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
import { unsupportedListTasks } from './transport.js';
import { isRecord } from './json-record.js';
import { parseJsonText, parseWire, responseContext, type ParseContext } from './validation.js';

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

/**
 * What one protocol version's HTTP+JSON looks like: the routes' prefix and headers, and how
 * bodies are written and read (answers always come back as 1.0 objects). The routes
 * themselves, the requests, statuses, errors and streams are the transport's.
 */
export interface RestDialect {
  readonly protocolVersion: '1.0' | '0.3';
  /** Headers of every request (1.0: `A2A-Version`). */
  readonly headers: Record<string, string>;
  readonly accept: string;
  /** Path prefix of every route: `''` in 1.0, `'/v1'` in 0.3. */
  readonly prefix: string;
  /** Whether every path starts with `/{tenant}` when the interface has one (1.0; 0.3 had no tenants). */
  readonly tenants: boolean;
  /** The keys of a stream event's oneof: a 2xx body with `error` and none of them is an error. */
  readonly eventKeys: readonly string[];
  readonly extendedCardPath: string;
  sendRequest(req: SendMessageRequest): unknown;
  pushConfigRequest(cfg: TaskPushNotificationConfig & { taskId: string }): unknown;
  /** The query of ListTaskPushNotificationConfigs (1.0 pages). */
  pushConfigsQuery(req: ListPushConfigsParams): Query;
  event(json: unknown, ctx: ParseContext): DecodedEvent;
  sendResponse(json: unknown, ctx: ParseContext): SendMessageResponse;
  task(json: unknown, ctx: ParseContext): Task;
  pushConfig(json: unknown, ctx: ParseContext): TaskPushNotificationConfig;
  pushConfigs(json: unknown, ctx: ParseContext): ListPushConfigsResult;
  /** ListTasks' answer; undefined where the version has no ListTasks (0.3). */
  listTasks?(json: unknown, ctx: ParseContext): ListTasksResponse;
}

/** REST plumbing of both dialects: URLs, headers, status handling, streams. */
export class RestConnection {
  readonly agentUrl: string;
  private readonly base: string;
  private readonly headers: Record<string, string>;
  private readonly accept: string;
  readonly protocolVersion: string;

  constructor(
    private readonly options: BindingOptions,
    dialect: Pick<RestDialect, 'headers' | 'accept' | 'prefix' | 'tenants' | 'protocolVersion'>,
  ) {
    const tenant = dialect.tenants && options.endpoint.tenant ? `/${pathSegment(options.endpoint.tenant)}` : '';
    this.base = `${withoutTrailingSlashes(options.endpoint.url)}${tenant}${dialect.prefix}`;
    this.agentUrl = displayUrl(options.endpoint.url);
    this.headers = dialect.headers;
    this.accept = dialect.accept;
    this.protocolVersion = dialect.protocolVersion;
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
    return this.heldBody(await this.exchange(method, path, operation, init, callOptions), operation);
  }

  /** A unary call answered with a task, read as it arrives when `callOptions.fileBytes` says so (see task-body.ts). */
  async callForTask(
    method: HttpRequest['method'],
    path: string,
    operation: string,
    init: { body?: unknown; query?: Query },
    callOptions: CallOptions,
    decode: (json: unknown) => Task,
  ): Promise<Task> {
    const fileBytes = callOptions.fileBytes;
    const streamedBody = fileBytes && taskBodyReader(fileBytes, this.parseContext(operation, 'response body'));
    const res = await this.exchange(method, path, operation, init, callOptions, streamedBody);
    if (res.streamed === undefined || !fileBytes) return decode(this.heldBody(res, operation));
    return spilledTask(res.streamed, fileBytes, decode);
  }

  private async exchange(
    method: HttpRequest['method'],
    path: string,
    operation: string,
    init: { body?: unknown; query?: Query },
    callOptions: CallOptions,
    streamedBody?: HttpRequest['streamedBody'],
  ): Promise<HttpResponse> {
    const req = this.request(method, path, operation, init.body, init.query, callOptions.signal);
    if (streamedBody) req.streamedBody = streamedBody;
    const res = await this.options.http.unary(req, callOptions.timeoutMs ?? this.options.timeoutMs);
    if (res.status < 200 || res.status >= 300)
      throw errorFromHttpResponse(res.status, res.headers, res.text, res.scope);
    return res;
  }

  private heldBody(res: HttpResponse, operation: string): unknown {
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
    yield* streamResponses(stream, decoder(stream.scope), ctx, callOptions.fileBytes);
  }
}

/** A 404 that carries no A2A error: the route does not exist (as opposed to TaskNotFound). */
function isRouteNotFound(error: A2AError): boolean {
  return !('reason' in error && typeof error.reason === 'string' && error.reason === 'TASK_NOT_FOUND');
}

/** An `event: error` payload on a REST stream: `{"error":{…google.rpc.Status…}}` (1.0) or `{code,message}` (0.3). */
function restErrorEvent(json: unknown, scope: ErrorScope): A2AError {
  const fromStatus = errorFromRpcStatus(json, scope);
  if (fromStatus) return fromStatus;
  if (isRecord(json) && typeof json.code === 'number') return errorFromJsonRpcError(json, scope);
  return new UnknownAgentError({
    ...(scope.operation !== undefined ? { operation: scope.operation } : {}),
    ...(scope.agentUrl !== undefined ? { agentUrl: scope.agentUrl } : {}),
  });
}

/** A 2xx body (or SSE data) that is nothing but an error. */
function embeddedError(json: unknown, scope: ErrorScope, oneofKeys: readonly string[]): A2AError | undefined {
  if (!isRecord(json) || !isRecord(json.error)) return undefined;
  if (oneofKeys.some((k) => json[k] !== undefined)) return undefined;
  return restErrorEvent(json, scope);
}

/** A2A 1.0 over HTTP+JSON. */
export const V1_REST: RestDialect = {
  protocolVersion: '1.0',
  headers: { 'a2a-version': '1.0' },
  accept: 'application/a2a+json, application/json',
  prefix: '',
  tenants: true,
  eventKeys: ['task', 'message', 'statusUpdate', 'artifactUpdate'],
  extendedCardPath: '/extendedAgentCard',
  sendRequest: (req) => req,
  pushConfigRequest: ({ tenant: _tenant, ...config }) => config,
  pushConfigsQuery: (req) => ({ pageSize: req.pageSize, pageToken: req.pageToken }),
  event(json, ctx) {
    const response = parseWire(StreamResponseSchema, json, { ...ctx, what: 'StreamResponse' });
    return { response, final: 'message' in response };
  },
  sendResponse: (json, ctx) => parseWire(SendMessageResponseSchema, json, ctx),
  task: (json, ctx) => parseWire(TaskSchema, json, ctx),
  pushConfig: (json, ctx) => parseWire(TaskPushNotificationConfigSchema, json, ctx),
  pushConfigs(json, ctx) {
    const parsed = parseWire(ListTaskPushNotificationConfigsResponseSchema, json ?? {}, ctx);
    return parsed.nextPageToken
      ? { configs: parsed.configs, nextPageToken: parsed.nextPageToken }
      : { configs: parsed.configs };
  },
  listTasks: (json, ctx) => parseWire(ListTasksResponseSchema, json ?? {}, ctx),
};

/** A2A over HTTP+JSON, in `dialect` (1.0 unless told otherwise). */
export class HttpJsonTransport implements Transport {
  private readonly rest: RestConnection;

  constructor(
    options: BindingOptions,
    private readonly dialect: RestDialect = V1_REST,
  ) {
    this.rest = new RestConnection(options, dialect);
  }

  private decoder = (scope: ErrorScope): StreamDecoder => ({
    decode: (json): DecodedEvent => {
      const error = embeddedError(json, scope, this.dialect.eventKeys);
      if (error) throw error;
      return this.dialect.event(json, this.rest.parseContext(scope.operation ?? '', 'StreamResponse'));
    },
    error: (json) => restErrorEvent(json, scope),
  });

  async sendMessage(req: SendMessageRequest, options?: CallOptions): Promise<SendMessageResponse> {
    const body = await this.rest.call(
      'POST',
      '/message:send',
      'SendMessage',
      { body: this.dialect.sendRequest(req) },
      options,
    );
    return this.dialect.sendResponse(body, this.rest.parseContext('SendMessage', 'SendMessageResponse'));
  }

  sendStreamingMessage(
    req: SendMessageRequest,
    options?: StreamOptions,
  ): AsyncGenerator<StreamResponse, void, undefined> {
    const body = this.dialect.sendRequest(req);
    return this.rest.stream('/message:stream', 'SendStreamingMessage', body, this.decoder, options);
  }

  async getTask(req: GetTaskParams, options?: CallOptions): Promise<Task> {
    return this.rest.callForTask(
      'GET',
      `/tasks/${pathSegment(req.id)}`,
      'GetTask',
      { query: { historyLength: req.historyLength } },
      options ?? {},
      (body) => this.dialect.task(body, this.rest.parseContext('GetTask', 'Task')),
    );
  }

  async listTasks(req: ListTasksRequest, options?: CallOptions): Promise<ListTasksResponse> {
    const read = this.dialect.listTasks;
    if (!read) throw unsupportedListTasks(this.rest.agentUrl);
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
    return read(body, this.rest.parseContext('ListTasks', 'ListTasksResponse'));
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
    return this.dialect.task(body, this.rest.parseContext('CancelTask', 'Task'));
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
    const taskId = cfg.taskId ?? '';
    const body = await this.rest.call(
      'POST',
      `/tasks/${pathSegment(taskId)}/pushNotificationConfigs`,
      op,
      { body: this.dialect.pushConfigRequest({ ...cfg, taskId }) },
      options,
    );
    return this.dialect.pushConfig(body, this.rest.parseContext(op, 'TaskPushNotificationConfig'));
  }

  async getPushConfig(req: PushConfigRef, options?: CallOptions): Promise<TaskPushNotificationConfig> {
    const op = 'GetTaskPushNotificationConfig';
    const body = await this.rest.call('GET', pushConfigPath(req), op, {}, options);
    return this.dialect.pushConfig(body, this.rest.parseContext(op, 'TaskPushNotificationConfig'));
  }

  async listPushConfigs(req: ListPushConfigsParams, options?: CallOptions): Promise<ListPushConfigsResult> {
    const op = 'ListTaskPushNotificationConfigs';
    const body = await this.rest.call(
      'GET',
      `/tasks/${pathSegment(req.taskId)}/pushNotificationConfigs`,
      op,
      { query: this.dialect.pushConfigsQuery(req) },
      options,
    );
    return this.dialect.pushConfigs(body, this.rest.parseContext(op, 'ListTaskPushNotificationConfigsResponse'));
  }

  async deletePushConfig(req: PushConfigRef, options?: CallOptions): Promise<void> {
    // 200 `{}` or 204: either is fine.
    await this.rest.call('DELETE', pushConfigPath(req), 'DeleteTaskPushNotificationConfig', {}, options);
  }

  async getExtendedAgentCard(options?: CallOptions): Promise<AgentCard> {
    const body = await this.rest.call('GET', this.dialect.extendedCardPath, 'GetExtendedAgentCard', {}, options);
    return parseAgentCard(body, this.rest.parseContext('GetExtendedAgentCard', 'agent card'));
  }
}

function pushConfigPath(req: PushConfigRef): string {
  return `/tasks/${pathSegment(req.taskId)}/pushNotificationConfigs/${pathSegment(req.id)}`;
}
