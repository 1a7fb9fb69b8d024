/**
 * The gRPC binding (A2A 1.0 §10): the `lf.a2a.v1.A2AService` of the official `a2a.proto`, over
 * `@grpc/grpc-js`. It keeps every promise of the HTTP bindings:
 *
 * - the outbound policy judges the interface (as `http(s)://host:port`, see ./target.ts) before
 *   every call; credentials are sent as call metadata only where it allows them, the trace
 *   context (W3C `traceparent`) and `a2a-version: 1.0` always;
 * - mutual TLS with the agents-file entry's certificate, verification of the agent's always on;
 * - every message is bounded (`grpc.max_receive_message_length` on the channel, and each message
 *   of a call checked again here), decoded with a capped recursion, its `Struct`/`Value` JSON
 *   nested at most `maxJsonDepth`, then validated by the same zod schemas as the other bindings;
 * - unary calls carry a deadline (`timeoutMs`, 300 s when none is set); streams have a connect
 *   timeout (until the response headers) and an idle timeout; an abort, a timeout, `break` or an error cancels the
 *   call, which resets its HTTP/2 stream;
 * - failures become the same typed errors, with the same retryable verdicts (./status.ts).
 */
import type { DescMessage, DescMethod } from '@bufbuild/protobuf';
import { Metadata, status as GrpcStatus, type Client, type ServiceError } from '@grpc/grpc-js';
import type { z } from 'zod';
import { parseAgentCard } from '../agent-card.js';
import type { BindingOptions } from '../binding-options.js';
import { displayUrl } from '../display-url.js';
import type { ErrorScope } from '../error-mapping.js';
import { A2AError, AbortedError, StreamIdleTimeoutError, TransportTimeoutError, type ErrorContext } from '../errors.js';
import type { HttpObservation } from '../http.js';
import type { AgentCard } from '../schemas/agent-card.js';
import {
  SendMessageResponseSchema,
  StreamResponseSchema,
  type SendMessageResponse,
  type StreamResponse,
} from '../schemas/events.js';
import {
  ListTaskPushNotificationConfigsResponseSchema,
  TaskPushNotificationConfigSchema,
  type TaskPushNotificationConfig,
} from '../schemas/push-config.js';
import {
  ListTasksResponseSchema,
  type ListTasksRequest,
  type ListTasksResponse,
  type SendMessageRequest,
} from '../schemas/requests.js';
import { TaskSchema, type Task } from '../schemas/task.js';
import { OutboundRefusedError } from '../security-errors.js';
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
} from '../transport.js';
import { parseWire, type ParseContext } from '../validation.js';
import { defaultChannelPool } from './channels.js';
import { decodeMessage, encodeMessage } from './codec.js';
import { A2AService } from './gen/a2a_pb.js';
import { errorFromServiceError } from './status.js';
import { grpcInterfaceUrl, grpcTarget } from './target.js';

const METHODS = A2AService.method;
type MethodName = keyof typeof METHODS;

/**
 * The deadline of a unary call, and the connect timeout of a stream, when the client sets none:
 * as long as undici's own limits on the HTTP bindings (a call never waits without end).
 */
const DEFAULT_TIMEOUT_MS = 300_000;

/** Why we cancelled a call ourselves. */
type CancelCause = 'caller' | 'timeout' | 'idle';

/** A call's identity and what is sent with it. */
interface Prepared {
  method: DescMethod;
  path: string;
  scope: ErrorScope;
  metadata: Metadata;
  observation: HttpObservation | undefined;
  bytes: Uint8Array;
}

function isServiceError(error: unknown): error is ServiceError {
  return error instanceof Error && typeof (error as Partial<ServiceError>).code === 'number' && 'metadata' in error;
}

/** A2A 1.0 over gRPC. */
export class GrpcTransport implements Transport {
  private readonly interfaceUrl: string;
  readonly agentUrl: string;

  constructor(private readonly options: BindingOptions) {
    this.interfaceUrl = grpcInterfaceUrl(options.endpoint.url);
    this.agentUrl = displayUrl(this.interfaceUrl);
  }

  private get tenant(): { tenant?: string } {
    return this.options.endpoint.tenant ? { tenant: this.options.endpoint.tenant } : {};
  }

  private parseContext(operation: string, what: string): ParseContext {
    const { secrets, limits } = this.options.http;
    return { operation, agentUrl: this.agentUrl, what, protocolVersion: '1.0', secrets, limits };
  }

  /** The channel and the metadata of one call: the policy decides first, then credentials and trace context. */
  private async prepare(name: MethodName, request: unknown): Promise<Prepared & { client: Client }> {
    const method = METHODS[name] as DescMethod;
    const context: ErrorContext = { operation: method.name, agentUrl: this.agentUrl };
    let url: URL;
    try {
      url = new URL(this.interfaceUrl);
    } catch {
      throw new OutboundRefusedError({ ...context, why: 'it is not a valid URL or host:port' });
    }
    const http = this.options.http;
    const auth = await http.authorize(url, context);
    if (auth.query && Object.keys(auth.query).length > 0) {
      throw new OutboundRefusedError({
        ...context,
        why: 'its credential goes in the query string, which gRPC does not have; send the API key as a header ("location": "header")',
      });
    }
    const path = `/${A2AService.typeName}/${method.name}`;
    const metadata = new Metadata();
    const observation = http.observe({ method: 'POST', url: `${url.origin}${path}`, operation: method.name });
    for (const [key, value] of Object.entries(observation?.headers ?? {})) metadata.set(key.toLowerCase(), value);
    metadata.set('a2a-version', '1.0');
    for (const [key, value] of Object.entries(auth.headers ?? {})) metadata.set(key.toLowerCase(), value);
    const { target, tls } = grpcTarget(url);
    const client = (this.options.grpc?.channels ?? defaultChannelPool).get({
      target,
      tls,
      ...(this.options.grpc?.tls ? { material: this.options.grpc.tls } : {}),
      maxReceiveBytes: http.limits.maxBodyBytes,
      userAgent: http.userAgent,
    });
    const scope = http.errorScope(context);
    return { method, path, scope, metadata, observation, bytes: encodeMessage(method.input, request), client };
  }

  /** The typed error of a failed call, by why we cancelled it (if we did) or by its status. */
  private classify(error: unknown, prepared: Prepared, why: CancelCause | undefined, ms?: number): unknown {
    const ctx = { operation: prepared.scope.operation, agentUrl: this.agentUrl };
    if (why === 'caller') return new AbortedError(ctx);
    if (why === 'timeout') return new TransportTimeoutError({ ...ctx, ...(ms !== undefined ? { timeoutMs: ms } : {}) });
    if (why === 'idle') return new StreamIdleTimeoutError({ ...ctx, idleTimeoutMs: ms ?? 0 });
    if (error instanceof A2AError) return error;
    if (!isServiceError(error)) return error;
    if (error.code === GrpcStatus.DEADLINE_EXCEEDED && ms !== undefined)
      return new TransportTimeoutError({ ...ctx, timeoutMs: ms });
    return errorFromServiceError(error, prepared.scope, this.options.http.limits);
  }

  /** A unary call within `timeoutMs` (its deadline); resolves to the response as ProtoJSON. */
  private async unary(name: MethodName, request: unknown, options: CallOptions = {}): Promise<unknown> {
    const prepared = await this.prepare(name, request);
    const timeoutMs = options.timeoutMs ?? this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const { signal } = options;
    if (signal?.aborted) throw this.classify(undefined, prepared, 'caller');
    const response = await new Promise<Buffer>((resolve, reject) => {
      let why: CancelCause | undefined;
      const call = prepared.client.makeUnaryRequest<Uint8Array, Buffer>(
        prepared.path,
        (bytes) => Buffer.from(bytes),
        (bytes) => bytes,
        prepared.bytes,
        prepared.metadata,
        { deadline: Date.now() + timeoutMs },
        (error, value) => {
          signal?.removeEventListener('abort', onAbort);
          if (error || !value) {
            const classified = this.classify(error, prepared, why, timeoutMs);
            prepared.observation?.end({ error: classified });
            return reject(classified as Error);
          }
          prepared.observation?.end({});
          resolve(value);
        },
      );
      const onAbort = () => {
        why = 'caller';
        call.cancel();
      };
      signal?.addEventListener('abort', onAbort, { once: true });
    });
    return decodeMessage(
      prepared.method.output,
      response,
      this.parseContext(prepared.method.name, prepared.method.output.name),
    );
  }

  /**
   * A server stream: messages decoded and validated one by one, until the server ends it or a
   * direct Message reply (which ends a turn). However the iteration ends, the call is cancelled.
   */
  private async *stream(
    name: MethodName,
    request: unknown,
    options: StreamOptions = {},
  ): AsyncGenerator<StreamResponse, void, undefined> {
    const prepared = await this.prepare(name, request);
    const { signal, idleTimeoutMs } = options;
    const connectTimeoutMs = options.connectTimeoutMs ?? this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    if (signal?.aborted) throw this.classify(undefined, prepared, 'caller');
    const call = prepared.client.makeServerStreamRequest<Uint8Array, Buffer>(
      prepared.path,
      (bytes) => Buffer.from(bytes),
      (bytes) => bytes,
      prepared.bytes,
      prepared.metadata,
      {},
    );
    let why: CancelCause | undefined;
    let timer: NodeJS.Timeout | undefined;
    const cancel = (cause: CancelCause) => {
      why ??= cause;
      call.cancel();
    };
    const arm = (cause: 'timeout' | 'idle', ms: number | undefined) => {
      clearTimeout(timer);
      timer = ms !== undefined && ms > 0 ? setTimeout(() => cancel(cause), ms) : undefined;
    };
    const onAbort = () => cancel('caller');
    signal?.addEventListener('abort', onAbort, { once: true });
    arm('timeout', connectTimeoutMs);
    let headers = false;
    call.once('metadata', () => {
      headers = true;
      prepared.observation?.end({});
      arm('idle', idleTimeoutMs);
    });
    const ctx = this.parseContext(prepared.method.name, 'StreamResponse');
    try {
      for await (const chunk of call as AsyncIterable<Buffer>) {
        clearTimeout(timer); // the consumer's slowness is not the agent's silence
        const response = parseWire(StreamResponseSchema, decodeMessage(prepared.method.output, chunk, ctx), ctx);
        yield response;
        if ('message' in response) return;
        arm('idle', idleTimeoutMs);
      }
    } catch (error) {
      const classified = this.classify(error, prepared, why, why === 'idle' ? idleTimeoutMs : connectTimeoutMs);
      if (!headers) prepared.observation?.end({ error: classified });
      throw classified;
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      call.cancel(); // resets the HTTP/2 stream if it is still open; a no-op once the call ended
    }
  }

  private async parsed<S extends z.ZodType>(
    name: MethodName,
    request: unknown,
    schema: S,
    options?: CallOptions,
  ): Promise<z.output<S>> {
    const json = await this.unary(name, request, options);
    const method = METHODS[name] as DescMethod;
    return parseWire(schema, json, this.parseContext(method.name, (method.output as DescMessage).name));
  }

  sendMessage(req: SendMessageRequest, options?: CallOptions): Promise<SendMessageResponse> {
    return this.parsed('sendMessage', { ...req, ...this.tenant }, SendMessageResponseSchema, options);
  }

  sendStreamingMessage(
    req: SendMessageRequest,
    options?: StreamOptions,
  ): AsyncGenerator<StreamResponse, void, undefined> {
    return this.stream('sendStreamingMessage', { ...req, ...this.tenant }, options);
  }

  getTask(req: GetTaskParams, options?: CallOptions): Promise<Task> {
    return this.parsed(
      'getTask',
      { ...this.tenant, id: req.id, historyLength: req.historyLength },
      TaskSchema,
      options,
    );
  }

  listTasks(req: ListTasksRequest, options?: CallOptions): Promise<ListTasksResponse> {
    return this.parsed('listTasks', { ...req, ...this.tenant }, ListTasksResponseSchema, options);
  }

  cancelTask(req: CancelTaskParams, options?: CallOptions): Promise<Task> {
    return this.parsed('cancelTask', { ...this.tenant, id: req.id, metadata: req.metadata }, TaskSchema, options);
  }

  subscribeToTask(
    req: SubscribeToTaskParams,
    options?: StreamOptions,
  ): AsyncGenerator<StreamResponse, void, undefined> {
    return this.stream('subscribeToTask', { ...this.tenant, id: req.id }, options);
  }

  createPushConfig(cfg: TaskPushNotificationConfig, options?: CallOptions): Promise<TaskPushNotificationConfig> {
    const { tenant: _tenant, ...config } = cfg;
    return this.parsed(
      'createTaskPushNotificationConfig',
      { ...config, ...this.tenant },
      TaskPushNotificationConfigSchema,
      options,
    );
  }

  getPushConfig(req: PushConfigRef, options?: CallOptions): Promise<TaskPushNotificationConfig> {
    return this.parsed(
      'getTaskPushNotificationConfig',
      { ...this.tenant, taskId: req.taskId, id: req.id },
      TaskPushNotificationConfigSchema,
      options,
    );
  }

  async listPushConfigs(req: ListPushConfigsParams, options?: CallOptions): Promise<ListPushConfigsResult> {
    const parsed = await this.parsed(
      'listTaskPushNotificationConfigs',
      { ...this.tenant, taskId: req.taskId, pageSize: req.pageSize, pageToken: req.pageToken },
      ListTaskPushNotificationConfigsResponseSchema,
      options,
    );
    return parsed.nextPageToken
      ? { configs: parsed.configs, nextPageToken: parsed.nextPageToken }
      : { configs: parsed.configs };
  }

  async deletePushConfig(req: PushConfigRef, options?: CallOptions): Promise<void> {
    await this.unary('deleteTaskPushNotificationConfig', { ...this.tenant, taskId: req.taskId, id: req.id }, options);
  }

  async getExtendedAgentCard(options?: CallOptions): Promise<AgentCard> {
    const json = await this.unary('getExtendedAgentCard', { ...this.tenant }, options);
    return parseAgentCard(json, this.parseContext('GetExtendedAgentCard', 'agent card'));
  }
}
