import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createA2AClient, parseAgentCard, type A2AClient } from '../../../../a2a/index.js';
import { TaskNotCancelableError, TaskNotFoundError, UnsupportedOperationError } from '../../../../a2a/errors.js';
import {
  JSON_HEADERS,
  ORIGIN,
  SSE_HEADERS,
  collect,
  mockAgent,
  sseBody,
  type MockedAgent,
} from '../helpers/mock-agent.js';

const BASE = '/a2a/rest';
const card = parseAgentCard({
  name: 'legacy',
  url: `${ORIGIN}${BASE}`,
  preferredTransport: 'HTTP+JSON',
  protocolVersion: '0.3.0',
  capabilities: { streaming: true },
});
const protoTask = {
  id: 'T',
  contextId: 'C',
  status: {
    state: 'TASK_STATE_INPUT_REQUIRED',
    message: {
      messageId: 'a',
      contextId: 'C',
      taskId: 'T',
      role: 'ROLE_AGENT',
      content: [{ text: 'Which Node.js version?' }],
    },
  },
};

describe('HTTP+JSON binding, A2A 0.3 (ProtoJSON under /v1)', () => {
  let mock: MockedAgent;
  let client: A2AClient;
  beforeEach(() => {
    mock = mockAgent();
    client = createA2AClient({ card }, { dispatcher: mock.agent });
  });
  afterEach(async () => {
    await mock.close();
  });

  it('POSTs /v1/message:send with the ProtoJSON request and no A2A-Version', async () => {
    mock.pool
      .intercept({ path: `${BASE}/v1/message:send`, method: 'POST' })
      .reply(201, { task: protoTask }, JSON_HEADERS);
    const response = await client.sendMessage({
      message: { messageId: 'm', role: 'ROLE_USER', parts: [{ text: 'go' }, { data: { name: 'payment-service' } }] },
      configuration: { returnImmediately: false },
    });
    expect(response).toEqual({
      task: {
        id: 'T',
        contextId: 'C',
        status: {
          state: 'TASK_STATE_INPUT_REQUIRED',
          message: {
            messageId: 'a',
            contextId: 'C',
            taskId: 'T',
            role: 'ROLE_AGENT',
            parts: [{ text: 'Which Node.js version?' }],
          },
        },
      },
    });
    const [call] = mock.calls();
    expect(call?.headers).not.toHaveProperty('a2a-version');
    expect(call?.headers['content-type']).toBe('application/json');
    expect(call?.body).toEqual({
      message: {
        messageId: 'm',
        role: 'ROLE_USER',
        content: [{ text: 'go' }, { data: { data: { name: 'payment-service' } } }],
      },
      configuration: { blocking: true },
    });
  });

  it('maps the other operations to the /v1 routes', async () => {
    const config = { name: 'tasks/T/pushNotificationConfigs/c', pushNotificationConfig: { id: 'c', url: 'http://h/' } };
    mock.pool.intercept({ path: `${BASE}/v1/tasks/T?historyLength=2`, method: 'GET' }).reply(200, protoTask);
    mock.pool
      .intercept({ path: `${BASE}/v1/tasks/T:cancel`, method: 'POST' })
      .reply(200, { ...protoTask, status: { state: 'TASK_STATE_CANCELLED' } });
    mock.pool.intercept({ path: `${BASE}/v1/tasks/T/pushNotificationConfigs`, method: 'POST' }).reply(201, config);
    mock.pool.intercept({ path: `${BASE}/v1/tasks/T/pushNotificationConfigs/c`, method: 'GET' }).reply(200, config);
    mock.pool
      .intercept({ path: `${BASE}/v1/tasks/T/pushNotificationConfigs`, method: 'GET' })
      .reply(200, { configs: [config] });
    mock.pool.intercept({ path: `${BASE}/v1/tasks/T/pushNotificationConfigs/c`, method: 'DELETE' }).reply(204, '');
    expect((await client.getTask({ id: 'T', historyLength: 2 })).status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    expect((await client.cancelTask({ id: 'T' })).status.state).toBe('TASK_STATE_CANCELED');
    expect(await client.createPushConfig({ taskId: 'T', url: 'http://h/' })).toEqual({
      taskId: 'T',
      id: 'c',
      url: 'http://h/',
    });
    expect(await client.getPushConfig({ taskId: 'T', id: 'c' })).toEqual({ taskId: 'T', id: 'c', url: 'http://h/' });
    expect((await client.listPushConfigs({ taskId: 'T' })).configs).toHaveLength(1);
    await client.deletePushConfig({ taskId: 'T', id: 'c' });
    const calls = mock.calls();
    expect(calls[1]?.body).toEqual({});
    expect(calls[2]?.body).toEqual({
      name: 'tasks/T/pushNotificationConfigs/',
      pushNotificationConfig: { url: 'http://h/' },
    });
    await expect(client.listTasks({})).rejects.toBeInstanceOf(UnsupportedOperationError);
  });

  it('reads 0.3 error bodies ({code, message}) by their JSON-RPC code', async () => {
    mock.pool
      .intercept({ path: `${BASE}/v1/tasks/nope`, method: 'GET' })
      .reply(404, { code: -32001, message: 'Task not found: nope' });
    mock.pool
      .intercept({ path: `${BASE}/v1/tasks/T:cancel`, method: 'POST' })
      .reply(400, { code: -32002, message: 'Task not cancelable: T' });
    await expect(client.getTask({ id: 'nope' })).rejects.toBeInstanceOf(TaskNotFoundError);
    await expect(client.cancelTask({ id: 'T' })).rejects.toBeInstanceOf(TaskNotCancelableError);
  });

  it('streams ProtoJSON StreamResponse events and stops at final: true', async () => {
    const body = sseBody(
      { task: protoTask },
      { artifactUpdate: { taskId: 'T', contextId: 'C', artifact: { artifactId: 'r', parts: [{ text: 'a' }] } } },
      {
        artifactUpdate: {
          taskId: 'T',
          contextId: 'C',
          artifact: { artifactId: 'r', parts: [{ text: 'b' }] },
          append: true,
          lastChunk: true,
        },
      },
      { statusUpdate: { taskId: 'T', contextId: 'C', status: { state: 'TASK_STATE_COMPLETED' }, final: true } },
    );
    mock.pool.intercept({ path: `${BASE}/v1/message:stream`, method: 'POST' }).reply(200, body, SSE_HEADERS);
    const events = await collect(
      client.sendStreamingMessage({ message: { messageId: 'm', role: 'ROLE_USER', parts: [{ text: 'x' }] } }),
    );
    expect(events.map((e) => Object.keys(e)[0])).toEqual(['task', 'artifactUpdate', 'artifactUpdate', 'statusUpdate']);
  });

  it('subscribes under /v1 and throws an `event: error` body', async () => {
    const body =
      sseBody({ task: protoTask }) + `event: error\ndata: ${JSON.stringify({ code: -32603, message: 'boom' })}\n\n`;
    mock.pool.intercept({ path: `${BASE}/v1/tasks/T:subscribe`, method: 'POST' }).reply(200, body, SSE_HEADERS);
    await expect(collect(client.subscribeToTask({ id: 'T' }))).rejects.toMatchObject({ code: 'INTERNAL_ERROR' });
  });
});
