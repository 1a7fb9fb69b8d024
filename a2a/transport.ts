/**
 * The contract every binding implements (HTTP+JSON and JSON-RPC, each in A2A 1.0 or 0.3; gRPC in 1.0).
 * Operations take 1.0 objects and return validated 1.0 objects whatever the wire speaks.
 */
import type { StreamResponse, SendMessageResponse } from './schemas/events.js';
import type { TaskPushNotificationConfig } from './schemas/push-config.js';
import type { ListTasksRequest, ListTasksResponse, SendMessageRequest } from './schemas/requests.js';
import type { AgentCard } from './schemas/agent-card.js';
import type { Task } from './schemas/task.js';

/** Options of a unary call. */
export interface CallOptions {
  /** Aborts the request (its socket is released); the call rejects with AbortedError. */
  signal?: AbortSignal;
  /** Bounds the whole call, body included; rejects with TransportTimeoutError. Default: the client's `timeoutMs`. */
  timeoutMs?: number;
}

/** Options of a streaming call. */
export interface StreamOptions {
  /** Aborts the stream (its socket is released); iteration rejects with AbortedError. */
  signal?: AbortSignal;
  /** No event for this long → StreamIdleTimeoutError (retryable: resubscribe). Default: none. */
  idleTimeoutMs?: number;
  /** Bounds the wait for the response headers → TransportTimeoutError. Default: the client's `timeoutMs`. */
  connectTimeoutMs?: number;
}

export interface GetTaskParams {
  id: string;
  historyLength?: number;
}

export interface CancelTaskParams {
  id: string;
  metadata?: Record<string, unknown>;
}

export interface SubscribeToTaskParams {
  id: string;
}

export interface PushConfigRef {
  taskId: string;
  id: string;
}

export interface ListPushConfigsParams {
  taskId: string;
  pageSize?: number;
  pageToken?: string;
}

export interface ListPushConfigsResult {
  configs: TaskPushNotificationConfig[];
  nextPageToken?: string;
}

export interface Transport {
  /** SendMessage. With `configuration.returnImmediately` it returns as soon as the task exists. */
  sendMessage(req: SendMessageRequest, options?: CallOptions): Promise<SendMessageResponse>;
  /** SendStreamingMessage: the task (or a message), then its updates, until the server closes the stream. */
  sendStreamingMessage(
    req: SendMessageRequest,
    options?: StreamOptions,
  ): AsyncGenerator<StreamResponse, void, undefined>;
  getTask(req: GetTaskParams, options?: CallOptions): Promise<Task>;
  /** ListTasks (1.0 only: a 0.3 interface rejects with UnsupportedOperationError). */
  listTasks(req: ListTasksRequest, options?: CallOptions): Promise<ListTasksResponse>;
  cancelTask(req: CancelTaskParams, options?: CallOptions): Promise<Task>;
  /**
   * SubscribeToTask: the current task, then live updates. Over REST it POSTs and falls back to
   * GET on 404/405. A task waiting for input keeps the stream open and silent: use `idleTimeoutMs`.
   */
  subscribeToTask(req: SubscribeToTaskParams, options?: StreamOptions): AsyncGenerator<StreamResponse, void, undefined>;
  createPushConfig(cfg: TaskPushNotificationConfig, options?: CallOptions): Promise<TaskPushNotificationConfig>;
  getPushConfig(req: PushConfigRef, options?: CallOptions): Promise<TaskPushNotificationConfig>;
  listPushConfigs(req: ListPushConfigsParams, options?: CallOptions): Promise<ListPushConfigsResult>;
  deletePushConfig(req: PushConfigRef, options?: CallOptions): Promise<void>;
  /**
   * GetExtendedAgentCard (0.3: the authenticated extended card): the card the agent shows an
   * authenticated client, for cards with `capabilities.extendedAgentCard`. Read within `maxBodyBytes`.
   */
  getExtendedAgentCard(options?: CallOptions): Promise<AgentCard>;
}
