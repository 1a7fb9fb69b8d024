/**
 * The contract every binding implements (HTTP+JSON and JSON-RPC, each in A2A 1.0 or 0.3; gRPC in 1.0).
 * Operations take 1.0 objects and return validated 1.0 objects whatever the wire speaks.
 */
import type { StreamResponse, SendMessageResponse } from './schemas/events.js';
import type { TaskPushNotificationConfig } from './schemas/push-config.js';
import type { ListTasksRequest, ListTasksResponse, SendMessageRequest } from './schemas/requests.js';
import type { AgentCard } from './schemas/agent-card.js';
import type { Task } from './schemas/task.js';
import { UnsupportedOperationError } from './errors.js';

/** Options of a unary call. See [docs/guide.md](../docs/guide.md#the-a2a-client-on-its-own). */
export interface CallOptions {
  /** Aborts the request (its socket is released); the call rejects with AbortedError. */
  signal?: AbortSignal;
  /** Bounds the whole call, body included; rejects with TransportTimeoutError. Default: the client's `timeoutMs`. */
  timeoutMs?: number;
  /**
   * GetTask only: a body past `maxBodyBytes` (or of `fromBytes` or more) is read as it arrives
   * instead of failing, when what makes it large is artifact file bytes: they go to a temporary
   * file, at most `maxBytes` of them, and each file part of the task carries them
   * (`spilledBytesOf(part)`, its `raw` is `""`) until the disposal handed to `onSpilled` is
   * called. The rest of the body keeps every cap. HTTP+JSON and JSON-RPC (gRPC reads the task
   * whole). Default: such a body fails with ResponseTooLargeError.
   */
  fileBytes?: {
    /** The most file bytes the task may carry (the delegation's stored-bytes budget). */
    maxBytes: number;
    /**
     * The most artifact text the task may carry (the delegation's byte budget): its text parts are
     * read into the temporary file too. Default: text counts against the body's cap with the rest.
     */
    maxTextBytes?: number;
    /** Read bodies this large that way too, below the cap. @default maxBodyBytes */
    fromBytes?: number;
    /** Receives the removal of the temporary file when a body was read that way: call it once the bytes are read. */
    onSpilled: (dispose: () => void) => void;
  };
}

/** Options of a streaming call. See [docs/guide.md](../docs/guide.md#the-a2a-client-on-its-own). */
export interface StreamOptions {
  /** Aborts the stream (its socket is released); iteration rejects with AbortedError. */
  signal?: AbortSignal;
  /** No event for this long → StreamIdleTimeoutError (retryable: resubscribe). Default: none. */
  idleTimeoutMs?: number;
  /** Bounds the wait for the response headers → TransportTimeoutError. Default: the client's `timeoutMs`. */
  connectTimeoutMs?: number;
  /**
   * An event past `maxSseEventBytes` is read as it arrives instead of failing, when what makes it
   * large is artifact file bytes (a resumed stream's task snapshot): they go to a temporary file,
   * at most `maxBytes` of them per event, and each file part of the decoded event carries them
   * (`spilledBytesOf(part)`, its `raw` is `""`) until the next event is asked for. The rest of
   * the event keeps every cap. HTTP+JSON and JSON-RPC. Default: such an event fails with
   * ResponseTooLargeError.
   */
  fileBytes?: {
    /** The most file bytes such an event may carry (the delegation's stored-bytes budget). */
    maxBytes: number;
    /**
     * The most artifact text such an event may carry (the delegation's byte budget): its text
     * parts are read into the temporary file too. Default: text counts against the event cap.
     */
    maxTextBytes?: number;
    /** Called as the bytes of such an event arrive (they restart the idle timeout too). */
    onProgress?: () => void;
    /** Read events this large that way too, below the cap (memory: a piece of the event instead of copies of it). @default maxSseEventBytes */
    fromBytes?: number;
  };
}

/** The parameters of GetTask. See [docs/guide.md](../docs/guide.md#the-a2a-client-on-its-own). */
export interface GetTaskParams {
  /** The task's id. */
  id: string;
  /** At most this many messages of its history. */
  historyLength?: number;
}

/** The parameters of CancelTask. See [docs/guide.md](../docs/guide.md#the-a2a-client-on-its-own). */
export interface CancelTaskParams {
  /** The task's id. */
  id: string;
  /** Our own annotations of the request. */
  metadata?: Record<string, unknown>;
}

/** The parameters of SubscribeToTask. See [docs/guide.md](../docs/guide.md#the-a2a-client-on-its-own). */
export interface SubscribeToTaskParams {
  /** The task's id. */
  id: string;
}

/** Names one push notification config of a task. See [docs/push.md](../docs/push.md). */
export interface PushConfigRef {
  /** The task's id. */
  taskId: string;
  /** The config's id. */
  id: string;
}

/** The parameters of ListTaskPushNotificationConfigs. See [docs/push.md](../docs/push.md). */
export interface ListPushConfigsParams {
  /** The task's id. */
  taskId: string;
  /** At most this many configs per page. */
  pageSize?: number;
  /** The `nextPageToken` of the previous page; absent for the first. */
  pageToken?: string;
}

/** One page of a task's push notification configs. See [docs/push.md](../docs/push.md). */
export interface ListPushConfigsResult {
  /** The configs of this page. */
  configs: TaskPushNotificationConfig[];
  /** The token for the next page; absent or empty on the last. */
  nextPageToken?: string;
}

/** The A2A operations over one interface of an agent, whatever its binding and version. See [docs/guide.md](../docs/guide.md#the-a2a-client-on-its-own). */
export interface Transport {
  /** SendMessage. With `configuration.returnImmediately` it returns as soon as the task exists. */
  sendMessage(req: SendMessageRequest, options?: CallOptions): Promise<SendMessageResponse>;
  /** SendStreamingMessage: the task (or a message), then its updates, until the server closes the stream. */
  sendStreamingMessage(
    req: SendMessageRequest,
    options?: StreamOptions,
  ): AsyncGenerator<StreamResponse, void, undefined>;
  /** GetTask: the task as it is now. */
  getTask(req: GetTaskParams, options?: CallOptions): Promise<Task>;
  /** ListTasks (1.0 only: a 0.3 interface rejects with UnsupportedOperationError). */
  listTasks(req: ListTasksRequest, options?: CallOptions): Promise<ListTasksResponse>;
  /** CancelTask: asks the agent to cancel the task; returns the task as the agent answered. */
  cancelTask(req: CancelTaskParams, options?: CallOptions): Promise<Task>;
  /**
   * SubscribeToTask: the current task, then live updates. Over REST it POSTs and falls back to
   * GET on 404/405. A task waiting for input keeps the stream open and silent: use `idleTimeoutMs`.
   */
  subscribeToTask(req: SubscribeToTaskParams, options?: StreamOptions): AsyncGenerator<StreamResponse, void, undefined>;
  /** CreateTaskPushNotificationConfig: makes the agent deliver the task's updates to a webhook. */
  createPushConfig(cfg: TaskPushNotificationConfig, options?: CallOptions): Promise<TaskPushNotificationConfig>;
  /** GetTaskPushNotificationConfig: one push config of a task. */
  getPushConfig(req: PushConfigRef, options?: CallOptions): Promise<TaskPushNotificationConfig>;
  /** ListTaskPushNotificationConfigs: a page of the task's push configs. */
  listPushConfigs(req: ListPushConfigsParams, options?: CallOptions): Promise<ListPushConfigsResult>;
  /** DeleteTaskPushNotificationConfig: removes a push config. */
  deletePushConfig(req: PushConfigRef, options?: CallOptions): Promise<void>;
  /**
   * GetExtendedAgentCard (0.3: the authenticated extended card): the card the agent shows an
   * authenticated client, for cards with `capabilities.extendedAgentCard`. Read within `maxBodyBytes`.
   */
  getExtendedAgentCard(options?: CallOptions): Promise<AgentCard>;
}

/** 0.3 has no ListTasks operation on any binding. */
export function unsupportedListTasks(agentUrl: string): UnsupportedOperationError {
  return new UnsupportedOperationError({
    operation: 'ListTasks',
    agentUrl,
    message: `ListTasks to ${agentUrl} is not possible because A2A 0.3 has no ListTasks operation; use a 1.0 interface of the agent, or keep the task ids and read each task with GetTask.`,
  });
}
