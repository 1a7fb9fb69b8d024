/**
 * The JSON-RPC binding (A2A 1.0 §9): JSON-RPC 2.0 over HTTP POST to the interface URL, with
 * `Content-Type: application/json` (the official SDK refuses `application/a2a+json` here with
 * -32005), and SSE for the streaming methods, each `data:` being a full JSON-RPC response.
 *
 * Errors arrive with HTTP 200 as `{"error":{code,message,data:[ErrorInfo]}}`; a streaming call
 * may also answer with one plain JSON response instead of SSE.
 */
import { parseAgentCard } from './agent-card.js';
import type { BindingOptions } from './binding-options.js';
import { errorFromHttpResponse, errorFromJsonRpcError, errorFromRpcStatus } from './error-mapping.js';
import { quote, where } from './error-text.js';
import { InvalidResponseError, UnknownAgentError, type A2AError } from './errors.js';
import { streamResponses, type DecodedEvent, type StreamDecoder } from './event-stream.js';
import { displayUrl, type HttpRequest, type HttpResponse } from './http.js';
import { spilledTask, taskBodyReader } from './task-body.js';
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
import { isRecord } from './json-record.js';

/** JSON-RPC plumbing shared by the 1.0 and 0.3 dialects: envelopes, ids, headers, errors. */
export class JsonRpcConnection {
  private nextId = 1;
  readonly agentUrl: string;

  constructor(
    private readonly options: BindingOptions,
    /** Extra headers of every request (`A2A-Version: 1.0` for 1.0; none for 0.3). */
    private readonly headers: Record<string, string>,
    readonly protocolVersion: string,
  ) {
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

  private envelope(method: string, params: unknown): string {
    return JSON.stringify({ jsonrpc: '2.0', id: this.nextId++, method, params });
  }

  /** Calls `method` and returns its `result`, or throws the A2AError its `error` names. */
  async call(method: string, params: unknown, operation: string, callOptions: CallOptions = {}): Promise<unknown> {
    const res = await this.exchange(method, params, operation, callOptions);
    const json = parseJsonText(res.text, this.parseContext(operation, 'JSON-RPC response'));
    return this.result(json, operation, res.scope);
  }

  /** Calls a method whose `result` is a task, read as it arrives when `callOptions.fileBytes` says so (see task-body.ts). */
  async callForTask(
    method: string,
    params: unknown,
    operation: string,
    callOptions: CallOptions,
    decode: (result: unknown) => Task,
  ): Promise<Task> {
    const fileBytes = callOptions.fileBytes;
    if (!fileBytes) return decode(await this.call(method, params, operation, callOptions));
    const ctx = this.parseContext(operation, 'JSON-RPC response');
    const res = await this.exchange(method, params, operation, callOptions, taskBodyReader(fileBytes, ctx));
    const resultOf = (json: unknown) => decode(this.result(json, operation, res.scope));
    if (res.streamed === undefined) return resultOf(parseJsonText(res.text, ctx));
    return spilledTask(res.streamed, fileBytes, resultOf);
  }

  /** One request; a status other than 2xx is thrown as its A2AError. */
  private async exchange(
    method: string,
    params: unknown,
    operation: string,
    callOptions: CallOptions,
    streamedBody?: HttpRequest['streamedBody'],
  ): Promise<HttpResponse> {
    const context = { operation, agentUrl: this.agentUrl };
    const res = await this.options.http.unary(
      {
        method: 'POST',
        url: this.options.endpoint.url,
        headers: { ...this.headers, 'content-type': 'application/json', accept: 'application/json' },
        body: this.envelope(method, params),
        context,
        signal: callOptions.signal,
        ...(streamedBody ? { streamedBody } : {}),
      },
      callOptions.timeoutMs ?? this.options.timeoutMs,
    );
    if (res.status < 200 || res.status >= 300)
      throw errorFromHttpResponse(res.status, res.headers, res.text, res.scope);
    return res;
  }

  /** The `result` of a JSON-RPC response, or the error it carries. */
  result(json: unknown, operation: string, scope: { secrets?: readonly string[] } = {}): unknown {
    const ctx = { operation, agentUrl: this.agentUrl, ...(scope.secrets ? { secrets: scope.secrets } : {}) };
    if (!isRecord(json)) {
      throw new InvalidResponseError(
        `${where(ctx, 'from')} returned ${quote(json, this.options.http.secrets)} where a JSON-RPC response object was expected; the agent does not follow JSON-RPC 2.0, so retrying will not help.`,
        { operation, agentUrl: this.agentUrl, path: '' },
      );
    }
    if (json.error !== undefined && json.error !== null) throw errorFromJsonRpcError(json.error, ctx);
    if (!('result' in json)) {
      throw new InvalidResponseError(
        `${where(ctx, 'from')} returned a JSON-RPC response with neither result nor error; the agent does not follow JSON-RPC 2.0, so retrying will not help.`,
        { operation, agentUrl: this.agentUrl, path: '' },
      );
    }
    return json.result;
  }

  /** Calls a streaming method; yields the decoded events until the server closes the stream. */
  async *stream(
    method: string,
    params: unknown,
    operation: string,
    decodeResult: (result: unknown, ctx: ParseContext) => DecodedEvent,
    callOptions: StreamOptions = {},
  ): AsyncGenerator<StreamResponse, void, undefined> {
    const context = { operation, agentUrl: this.agentUrl };
    const connectTimeoutMs = callOptions.connectTimeoutMs ?? this.options.timeoutMs;
    const stream = await this.options.http.stream(
      {
        method: 'POST',
        url: this.options.endpoint.url,
        headers: { ...this.headers, 'content-type': 'application/json', accept: 'text/event-stream' },
        body: this.envelope(method, params),
        context,
        signal: callOptions.signal,
      },
      {
        ...(connectTimeoutMs !== undefined ? { connectTimeoutMs } : {}),
        ...(callOptions.idleTimeoutMs !== undefined ? { idleTimeoutMs: callOptions.idleTimeoutMs } : {}),
      },
    );
    const ctx = this.parseContext(operation, 'stream event');
    const decoder: StreamDecoder = {
      decode: (json) => decodeResult(this.result(json, operation, stream.scope), ctx),
      error: (json) => jsonRpcErrorEvent(json, { ...context, secrets: stream.scope.secrets ?? [] }),
    };
    yield* streamResponses(stream, decoder, ctx, callOptions.fileBytes);
  }
}

/** An `event: error` payload on a JSON-RPC stream: a JSON-RPC error response (or, leniently, a google.rpc.Status). */
export function jsonRpcErrorEvent(
  json: unknown,
  scope: { operation: string; agentUrl: string; secrets: readonly string[] },
): A2AError {
  if (isRecord(json) && isRecord(json.error) && typeof json.error.code === 'number' && !('status' in json.error)) {
    return errorFromJsonRpcError(json.error, scope);
  }
  return (
    errorFromRpcStatus(json, scope) ?? new UnknownAgentError({ operation: scope.operation, agentUrl: scope.agentUrl })
  );
}

/** A2A 1.0 over JSON-RPC. */
export class JsonRpcTransport implements Transport {
  private readonly rpc: JsonRpcConnection;
  private readonly tenant: { tenant?: string };

  constructor(options: BindingOptions) {
    this.rpc = new JsonRpcConnection(options, { 'a2a-version': '1.0' }, '1.0');
    this.tenant = options.endpoint.tenant ? { tenant: options.endpoint.tenant } : {};
  }

  private decodeEvent = (result: unknown, ctx: ParseContext): DecodedEvent => {
    const response = parseWire(StreamResponseSchema, result, { ...ctx, what: 'StreamResponse' });
    return { response, final: 'message' in response };
  };

  async sendMessage(req: SendMessageRequest, options?: CallOptions): Promise<SendMessageResponse> {
    const result = await this.rpc.call('SendMessage', { ...this.tenant, ...req }, 'SendMessage', options);
    return parseWire(SendMessageResponseSchema, result, this.rpc.parseContext('SendMessage', 'SendMessageResponse'));
  }

  sendStreamingMessage(
    req: SendMessageRequest,
    options?: StreamOptions,
  ): AsyncGenerator<StreamResponse, void, undefined> {
    return this.rpc.stream(
      'SendStreamingMessage',
      { ...this.tenant, ...req },
      'SendStreamingMessage',
      this.decodeEvent,
      options,
    );
  }

  async getTask(req: GetTaskParams, options?: CallOptions): Promise<Task> {
    return this.rpc.callForTask('GetTask', { ...this.tenant, ...req }, 'GetTask', options ?? {}, (result) =>
      parseWire(TaskSchema, result, this.rpc.parseContext('GetTask', 'Task')),
    );
  }

  async listTasks(req: ListTasksRequest, options?: CallOptions): Promise<ListTasksResponse> {
    const result = await this.rpc.call('ListTasks', { ...this.tenant, ...req }, 'ListTasks', options);
    return parseWire(ListTasksResponseSchema, result, this.rpc.parseContext('ListTasks', 'ListTasksResponse'));
  }

  async cancelTask(req: CancelTaskParams, options?: CallOptions): Promise<Task> {
    const result = await this.rpc.call('CancelTask', { ...this.tenant, ...req }, 'CancelTask', options);
    return parseWire(TaskSchema, result, this.rpc.parseContext('CancelTask', 'Task'));
  }

  subscribeToTask(
    req: SubscribeToTaskParams,
    options?: StreamOptions,
  ): AsyncGenerator<StreamResponse, void, undefined> {
    return this.rpc.stream(
      'SubscribeToTask',
      { ...this.tenant, id: req.id },
      'SubscribeToTask',
      this.decodeEvent,
      options,
    );
  }

  async createPushConfig(cfg: TaskPushNotificationConfig, options?: CallOptions): Promise<TaskPushNotificationConfig> {
    const op = 'CreateTaskPushNotificationConfig';
    const result = await this.rpc.call(op, { ...cfg, ...this.tenant }, op, options);
    return parseWire(TaskPushNotificationConfigSchema, result, this.rpc.parseContext(op, 'TaskPushNotificationConfig'));
  }

  async getPushConfig(req: PushConfigRef, options?: CallOptions): Promise<TaskPushNotificationConfig> {
    const op = 'GetTaskPushNotificationConfig';
    const result = await this.rpc.call(op, { ...this.tenant, taskId: req.taskId, id: req.id }, op, options);
    return parseWire(TaskPushNotificationConfigSchema, result, this.rpc.parseContext(op, 'TaskPushNotificationConfig'));
  }

  async listPushConfigs(req: ListPushConfigsParams, options?: CallOptions): Promise<ListPushConfigsResult> {
    const op = 'ListTaskPushNotificationConfigs';
    const result = await this.rpc.call(op, { ...this.tenant, ...req }, op, options);
    const parsed = parseWire(
      ListTaskPushNotificationConfigsResponseSchema,
      result ?? {},
      this.rpc.parseContext(op, 'ListTaskPushNotificationConfigsResponse'),
    );
    return parsed.nextPageToken
      ? { configs: parsed.configs, nextPageToken: parsed.nextPageToken }
      : { configs: parsed.configs };
  }

  async deletePushConfig(req: PushConfigRef, options?: CallOptions): Promise<void> {
    const op = 'DeleteTaskPushNotificationConfig';
    // The result is `null` or `{}` (Empty); either is fine.
    await this.rpc.call(op, { ...this.tenant, taskId: req.taskId, id: req.id }, op, options);
  }

  async getExtendedAgentCard(options?: CallOptions): Promise<AgentCard> {
    const result = await this.rpc.call('GetExtendedAgentCard', { ...this.tenant }, 'GetExtendedAgentCard', options);
    return parseAgentCard(result, this.rpc.parseContext('GetExtendedAgentCard', 'agent card'));
  }
}
