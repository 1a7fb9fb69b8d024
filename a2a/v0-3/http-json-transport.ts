/**
 * A2A 0.3 over HTTP+JSON: routes under `/v1` (`/v1/message:send`, `/v1/tasks/{id}` …),
 * bodies in the ProtoJSON of the 0.3 proto (`content` parts, `ROLE_USER`, `TASK_STATE_*`),
 * errors as `{code, message, data}` with the JSON-RPC code and an HTTP status. No
 * `A2A-Version` header, and no ListTasks.
 */
import { parseAgentCard } from '../agent-card.js';
import type { ErrorScope } from '../error-mapping.js';
import type { StreamDecoder } from '../event-stream.js';
import { RestConnection, embeddedError, restErrorEvent, pathSegment } from '../http-json-transport.js';
import type { BindingOptions } from '../binding-options.js';
import type { AgentCard } from '../schemas/agent-card.js';
import type { SendMessageResponse, StreamResponse } from '../schemas/events.js';
import type { TaskPushNotificationConfig } from '../schemas/push-config.js';
import type { ListTasksRequest, ListTasksResponse, SendMessageRequest } from '../schemas/requests.js';
import type { Task } from '../schemas/task.js';
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
import { protoSendRequest, protoTaskPushConfig } from './from-v1.js';
import { unsupportedListTasks } from './json-rpc-transport.js';
import {
  legacyEventToV1,
  legacyPushConfigListToV1,
  legacyPushConfigToV1,
  legacySendResultToV1,
  legacyTaskToV1,
} from './to-v1.js';

const WRAPPER_KEYS = ['task', 'msg', 'message', 'statusUpdate', 'artifactUpdate', 'kind'] as const;

export class LegacyHttpJsonTransport implements Transport {
  private readonly rest: RestConnection;

  constructor(options: BindingOptions) {
    this.rest = new RestConnection(options, {}, '0.3', '/v1', 'application/json', false);
  }

  private decoder = (scope: ErrorScope): StreamDecoder => ({
    decode: (json) => {
      const error = embeddedError(json, scope, WRAPPER_KEYS);
      if (error) throw error;
      return legacyEventToV1(json, this.rest.parseContext(scope.operation ?? '', 'StreamResponse'));
    },
    error: (json) => restErrorEvent(json, scope),
  });

  async sendMessage(req: SendMessageRequest, options?: CallOptions): Promise<SendMessageResponse> {
    const body = await this.rest.call('POST', '/message:send', 'SendMessage', { body: protoSendRequest(req) }, options);
    return legacySendResultToV1(body, this.rest.parseContext('SendMessage', 'SendMessageResponse'));
  }

  sendStreamingMessage(
    req: SendMessageRequest,
    options?: StreamOptions,
  ): AsyncGenerator<StreamResponse, void, undefined> {
    return this.rest.stream('/message:stream', 'SendStreamingMessage', protoSendRequest(req), this.decoder, options);
  }

  async getTask(req: GetTaskParams, options?: CallOptions): Promise<Task> {
    const body = await this.rest.call(
      'GET',
      `/tasks/${pathSegment(req.id)}`,
      'GetTask',
      { query: { historyLength: req.historyLength } },
      options,
    );
    return legacyTaskToV1(body, this.rest.parseContext('GetTask', 'Task'));
  }

  listTasks(_req: ListTasksRequest, _o?: CallOptions): Promise<ListTasksResponse> {
    return Promise.reject(unsupportedListTasks(this.rest.agentUrl));
  }

  async cancelTask(req: CancelTaskParams, options?: CallOptions): Promise<Task> {
    const payload = req.metadata ? { metadata: req.metadata } : {};
    const body = await this.rest.call(
      'POST',
      `/tasks/${pathSegment(req.id)}:cancel`,
      'CancelTask',
      { body: payload },
      options,
    );
    return legacyTaskToV1(body, this.rest.parseContext('CancelTask', 'Task'));
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
      { body: protoTaskPushConfig({ ...cfg, taskId }) },
      options,
    );
    return legacyPushConfigToV1(body, this.rest.parseContext(op, 'TaskPushNotificationConfig'));
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
    return legacyPushConfigToV1(body, this.rest.parseContext(op, 'TaskPushNotificationConfig'));
  }

  async listPushConfigs(req: ListPushConfigsParams, options?: CallOptions): Promise<ListPushConfigsResult> {
    const op = 'ListTaskPushNotificationConfigs';
    const body = await this.rest.call(
      'GET',
      `/tasks/${pathSegment(req.taskId)}/pushNotificationConfigs`,
      op,
      {},
      options,
    );
    return legacyPushConfigListToV1(body ?? { configs: [] }, this.rest.parseContext(op, 'push notification configs'));
  }

  async deletePushConfig(req: PushConfigRef, options?: CallOptions): Promise<void> {
    const op = 'DeleteTaskPushNotificationConfig';
    await this.rest.call(
      'DELETE',
      `/tasks/${pathSegment(req.taskId)}/pushNotificationConfigs/${pathSegment(req.id)}`,
      op,
      {},
      options,
    );
  }

  async getExtendedAgentCard(options?: CallOptions): Promise<AgentCard> {
    const body = await this.rest.call('GET', '/card', 'GetExtendedAgentCard', {}, options);
    return parseAgentCard(body, this.rest.parseContext('GetExtendedAgentCard', 'agent card'));
  }
}
