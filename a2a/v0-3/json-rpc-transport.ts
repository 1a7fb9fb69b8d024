/**
 * A2A 0.3 over JSON-RPC: methods `message/send`, `message/stream`, `tasks/get`,
 * `tasks/cancel`, `tasks/resubscribe`, `tasks/pushNotificationConfig/{set,get,list,delete}`;
 * `kind`-tagged bodies; bare results. No `A2A-Version` header: a 1.0 server reads its absence
 * as 0.3, and a plain 0.3 server has never heard of it. 0.3 has no ListTasks.
 */
import { parseAgentCard } from '../agent-card.js';
import type { BindingOptions } from '../binding-options.js';
import { JsonRpcConnection } from '../json-rpc-transport.js';
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
import { unsupportedListTasks } from '../transport.js';
import type { ParseContext } from '../validation.js';
import { kindSendParams, kindTaskPushConfig } from './from-v1.js';
import {
  legacyEventToV1,
  legacyPushConfigListToV1,
  legacyPushConfigToV1,
  legacySendResultToV1,
  legacyTaskToV1,
} from './to-v1.js';

export class LegacyJsonRpcTransport implements Transport {
  private readonly rpc: JsonRpcConnection;

  constructor(options: BindingOptions) {
    this.rpc = new JsonRpcConnection(options, {}, '0.3');
  }

  private decodeEvent = (result: unknown, ctx: ParseContext) => legacyEventToV1(result, ctx);

  async sendMessage(req: SendMessageRequest, options?: CallOptions): Promise<SendMessageResponse> {
    const result = await this.rpc.call('message/send', kindSendParams(req), 'SendMessage', options);
    return legacySendResultToV1(result, this.rpc.parseContext('SendMessage', 'Task or Message'));
  }

  sendStreamingMessage(
    req: SendMessageRequest,
    options?: StreamOptions,
  ): AsyncGenerator<StreamResponse, void, undefined> {
    return this.rpc.stream('message/stream', kindSendParams(req), 'SendStreamingMessage', this.decodeEvent, options);
  }

  async getTask(req: GetTaskParams, options?: CallOptions): Promise<Task> {
    const params = { id: req.id, ...(req.historyLength !== undefined ? { historyLength: req.historyLength } : {}) };
    return this.rpc.callForTask('tasks/get', params, 'GetTask', options ?? {}, (result) =>
      legacyTaskToV1(result, this.rpc.parseContext('GetTask', 'Task')),
    );
  }

  listTasks(_req: ListTasksRequest, _o?: CallOptions): Promise<ListTasksResponse> {
    return Promise.reject(unsupportedListTasks(this.rpc.agentUrl));
  }

  async cancelTask(req: CancelTaskParams, options?: CallOptions): Promise<Task> {
    const params = { id: req.id, ...(req.metadata ? { metadata: req.metadata } : {}) };
    const result = await this.rpc.call('tasks/cancel', params, 'CancelTask', options);
    return legacyTaskToV1(result, this.rpc.parseContext('CancelTask', 'Task'));
  }

  subscribeToTask(
    req: SubscribeToTaskParams,
    options?: StreamOptions,
  ): AsyncGenerator<StreamResponse, void, undefined> {
    return this.rpc.stream('tasks/resubscribe', { id: req.id }, 'SubscribeToTask', this.decodeEvent, options);
  }

  async createPushConfig(cfg: TaskPushNotificationConfig, options?: CallOptions): Promise<TaskPushNotificationConfig> {
    const op = 'CreateTaskPushNotificationConfig';
    const result = await this.rpc.call(
      'tasks/pushNotificationConfig/set',
      kindTaskPushConfig({ ...cfg, taskId: cfg.taskId ?? '' }),
      op,
      options,
    );
    return legacyPushConfigToV1(result, this.rpc.parseContext(op, 'TaskPushNotificationConfig'));
  }

  async getPushConfig(req: PushConfigRef, options?: CallOptions): Promise<TaskPushNotificationConfig> {
    const op = 'GetTaskPushNotificationConfig';
    const result = await this.rpc.call(
      'tasks/pushNotificationConfig/get',
      { id: req.taskId, pushNotificationConfigId: req.id },
      op,
      options,
    );
    return legacyPushConfigToV1(result, this.rpc.parseContext(op, 'TaskPushNotificationConfig'));
  }

  async listPushConfigs(req: ListPushConfigsParams, options?: CallOptions): Promise<ListPushConfigsResult> {
    const op = 'ListTaskPushNotificationConfigs';
    const result = await this.rpc.call('tasks/pushNotificationConfig/list', { id: req.taskId }, op, options);
    return legacyPushConfigListToV1(result, this.rpc.parseContext(op, 'push notification configs'));
  }

  async deletePushConfig(req: PushConfigRef, options?: CallOptions): Promise<void> {
    const op = 'DeleteTaskPushNotificationConfig';
    await this.rpc.call(
      'tasks/pushNotificationConfig/delete',
      { id: req.taskId, pushNotificationConfigId: req.id },
      op,
      options,
    );
  }

  async getExtendedAgentCard(options?: CallOptions): Promise<AgentCard> {
    const result = await this.rpc.call('agent/getAuthenticatedExtendedCard', {}, 'GetExtendedAgentCard', options);
    return parseAgentCard(result, this.rpc.parseContext('GetExtendedAgentCard', 'agent card'));
  }
}
