/**
 * `createA2AClient`: one client for one agent interface, speaking whichever binding
 * (HTTP+JSON or JSON-RPC) and protocol version (1.0 or 0.3) the interface declares. Callers
 * only ever see 1.0 objects.
 */
import type { Dispatcher } from 'undici';
import { selectInterface, type SelectedInterface } from './agent-card.js';
import type { AuthResolver } from './auth.js';
import { HttpClient } from './http.js';
import { HttpJsonTransport } from './http-json-transport.js';
import { JsonRpcTransport, type BindingOptions } from './json-rpc-transport.js';
import type { AgentCard } from './schemas/agent-card.js';
import type { SendMessageResponse, StreamResponse } from './schemas/events.js';
import type { TaskPushNotificationConfig } from './schemas/push-config.js';
import type { ListTasksRequest, ListTasksResponse, SendMessageRequest } from './schemas/requests.js';
import type { Task } from './schemas/task.js';
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
import { LegacyHttpJsonTransport } from './v0-3/http-json-transport.js';
import { LegacyJsonRpcTransport } from './v0-3/json-rpc-transport.js';

export interface A2AClientOptions {
  /** undici dispatcher: an `Agent` with your pool settings, or a `MockAgent` in tests. */
  dispatcher?: Dispatcher;
  /** Credentials for this agent, resolved before every request. */
  auth?: AuthResolver;
  /** Default `timeoutMs` of unary calls and `connectTimeoutMs` of streams. Default: none. */
  timeoutMs?: number;
  /** `User-Agent` header. @default 'a2a-temporal' */
  userAgent?: string;
}

/** A card (its best interface is used) or an interface chosen earlier (the card is then optional). */
export type A2AClientTarget =
  | {
      card: AgentCard;
      /** The interface to use; default: {@link selectInterface}(card). */ endpoint?: SelectedInterface;
    }
  | { card?: AgentCard; endpoint: SelectedInterface };

/**
 * A client for one agent interface. Every method takes an `AbortSignal`; nothing retries:
 * failures are {@link A2AError}s that say whether a retry can help.
 */
export interface A2AClient {
  /** The card the client was made from, when it was given one. */
  readonly card?: AgentCard;
  readonly endpoint: SelectedInterface;
  /** SendMessage. With `configuration.returnImmediately` it returns as soon as the task exists. */
  sendMessage(req: SendMessageRequest, o?: CallOptions): Promise<SendMessageResponse>;
  /** SendStreamingMessage: the task (or a message), then its updates, until the server closes the stream. */
  sendStreamingMessage(req: SendMessageRequest, o?: StreamOptions): AsyncIterable<StreamResponse>;
  getTask(req: GetTaskParams, o?: CallOptions): Promise<Task>;
  /** ListTasks (1.0 only: a 0.3 interface rejects with UnsupportedOperationError). */
  listTasks(req: ListTasksRequest, o?: CallOptions): Promise<ListTasksResponse>;
  cancelTask(req: CancelTaskParams, o?: CallOptions): Promise<Task>;
  /**
   * SubscribeToTask: the current task, then live updates. Over REST it POSTs and falls back to
   * GET on 404/405. A task waiting for input keeps the stream open and silent: use `idleTimeoutMs`.
   */
  subscribeToTask(req: SubscribeToTaskParams, o?: StreamOptions): AsyncIterable<StreamResponse>;
  createPushConfig(cfg: TaskPushNotificationConfig, o?: CallOptions): Promise<TaskPushNotificationConfig>;
  getPushConfig(req: PushConfigRef, o?: CallOptions): Promise<TaskPushNotificationConfig>;
  listPushConfigs(req: ListPushConfigsParams, o?: CallOptions): Promise<ListPushConfigsResult>;
  deletePushConfig(req: PushConfigRef, o?: CallOptions): Promise<void>;
}

/** The transport for an interface: binding × protocol version. */
export function createTransport(options: BindingOptions): Transport {
  const { binding, protocolVersion } = options.endpoint;
  if (binding === 'HTTP+JSON')
    return protocolVersion === '1.0' ? new HttpJsonTransport(options) : new LegacyHttpJsonTransport(options);
  return protocolVersion === '1.0' ? new JsonRpcTransport(options) : new LegacyJsonRpcTransport(options);
}

/**
 * Creates a client for `target.endpoint`, or for the best interface of `target.card`.
 *
 * @throws NoUsableInterfaceError when no endpoint is given and the card offers none we speak.
 */
export function createA2AClient(target: A2AClientTarget, options: A2AClientOptions = {}): A2AClient {
  const endpoint = target.endpoint ?? selectInterface(target.card!);
  const http = new HttpClient({
    ...(options.dispatcher ? { dispatcher: options.dispatcher } : {}),
    ...(options.auth ? { auth: options.auth } : {}),
    ...(options.userAgent ? { userAgent: options.userAgent } : {}),
  });
  const transport = createTransport({
    endpoint,
    http,
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
  });
  return {
    card: target.card,
    endpoint,
    sendMessage: (req, o) => transport.sendMessage(req, o),
    sendStreamingMessage: (req, o) => transport.sendStreamingMessage(req, o),
    getTask: (req, o) => transport.getTask(req, o),
    listTasks: (req, o) => transport.listTasks(req, o),
    cancelTask: (req, o) => transport.cancelTask(req, o),
    subscribeToTask: (req, o) => transport.subscribeToTask(req, o),
    createPushConfig: (cfg, o) => transport.createPushConfig(cfg, o),
    getPushConfig: (req, o) => transport.getPushConfig(req, o),
    listPushConfigs: (req, o) => transport.listPushConfigs(req, o),
    deletePushConfig: (req, o) => transport.deletePushConfig(req, o),
  };
}
