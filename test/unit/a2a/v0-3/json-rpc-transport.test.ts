import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createA2AClient, parseAgentCard, type A2AClient } from '../../../../a2a/index.js';
import { TaskNotFoundError, UnsupportedOperationError } from '../../../../a2a/errors.js';
import {
  CAPTURED_V03_ARTIFACT_UPDATE,
  CAPTURED_V03_STATUS_UPDATE_FINAL,
  CAPTURED_V03_TASK,
} from '../fixtures/wire-captures.js';
import { ORIGIN, SSE_HEADERS, collect, mockAgent, sseBody, type MockedAgent } from '../helpers/mock-agent.js';

const PATH = '/a2a/jsonrpc';
const card = parseAgentCard({
  name: 'legacy',
  url: `${ORIGIN}${PATH}`,
  protocolVersion: '0.3.0',
  capabilities: { streaming: true },
});

function rpc(result: unknown) {
  return { jsonrpc: '2.0', id: 1, result };
}

describe('JSON-RPC binding, A2A 0.3', () => {
  let mock: MockedAgent;
  let client: A2AClient;
  beforeEach(() => {
    mock = mockAgent();
    client = createA2AClient({ card }, { dispatcher: mock.agent });
  });
  afterEach(async () => {
    await mock.close();
  });

  it('is chosen for a 0.3 card', () => {
    expect(client.endpoint).toEqual({ url: `${ORIGIN}${PATH}`, binding: 'JSONRPC', protocolVersion: '0.3' });
  });

  it('speaks message/send with kind tags, blocking, and no A2A-Version header', async () => {
    mock.pool.intercept({ path: PATH, method: 'POST' }).reply(200, rpc(CAPTURED_V03_TASK));
    const response = await client.sendMessage({
      message: { messageId: 'm-1', role: 'ROLE_USER', parts: [{ text: 'set up node' }], metadata: { scenario: 'x' } },
    });
    expect('task' in response && response.task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    const [call] = mock.calls();
    expect(call?.headers).not.toHaveProperty('a2a-version');
    expect(call?.headers['content-type']).toBe('application/json');
    expect(call?.body).toMatchObject({
      method: 'message/send',
      params: {
        message: {
          kind: 'message',
          messageId: 'm-1',
          role: 'user',
          parts: [{ kind: 'text', text: 'set up node' }],
          metadata: { scenario: 'x' },
        },
        configuration: { blocking: true },
      },
    });
  });

  it('uses the 0.3 method names and params of every operation', async () => {
    const legacyConfig = { taskId: 'T', pushNotificationConfig: { id: 'c', url: 'http://h/' } };
    for (const result of [CAPTURED_V03_TASK, CAPTURED_V03_TASK, legacyConfig, legacyConfig, [legacyConfig], null]) {
      mock.pool.intercept({ path: PATH, method: 'POST' }).reply(200, rpc(result));
    }
    expect((await client.getTask({ id: 'T1', historyLength: 1 })).id).toBe('T1');
    expect((await client.cancelTask({ id: 'T1' })).id).toBe('T1');
    expect(await client.createPushConfig({ taskId: 'T', url: 'http://h/' })).toEqual({
      taskId: 'T',
      id: 'c',
      url: 'http://h/',
    });
    await client.getPushConfig({ taskId: 'T', id: 'c' });
    expect(await client.listPushConfigs({ taskId: 'T' })).toEqual({
      configs: [{ taskId: 'T', id: 'c', url: 'http://h/' }],
    });
    await client.deletePushConfig({ taskId: 'T', id: 'c' });
    expect(
      mock.calls().map((c) => [(c.body as { method: string }).method, (c.body as { params: unknown }).params]),
    ).toEqual([
      ['tasks/get', { id: 'T1', historyLength: 1 }],
      ['tasks/cancel', { id: 'T1' }],
      ['tasks/pushNotificationConfig/set', { taskId: 'T', pushNotificationConfig: { url: 'http://h/' } }],
      ['tasks/pushNotificationConfig/get', { id: 'T', pushNotificationConfigId: 'c' }],
      ['tasks/pushNotificationConfig/list', { id: 'T' }],
      ['tasks/pushNotificationConfig/delete', { id: 'T', pushNotificationConfigId: 'c' }],
    ]);
  });

  it('rejects ListTasks without a request, since 0.3 has none', async () => {
    await expect(client.listTasks({})).rejects.toBeInstanceOf(UnsupportedOperationError);
    await expect(client.listTasks({})).rejects.toThrow(
      'ListTasks to http://agent.test/a2a/jsonrpc is not possible because A2A 0.3 has no ListTasks operation; use a 1.0 interface of the agent, or keep the task ids and read each task with GetTask.',
    );
    expect(mock.calls()).toHaveLength(0);
  });

  it('streams message/stream, converting events, and stops at final: true', async () => {
    const body = sseBody(
      rpc(CAPTURED_V03_TASK),
      rpc(CAPTURED_V03_ARTIFACT_UPDATE),
      rpc(CAPTURED_V03_STATUS_UPDATE_FINAL),
      rpc(CAPTURED_V03_TASK),
    );
    mock.pool.intercept({ path: PATH, method: 'POST' }).reply(200, body, SSE_HEADERS);
    const events = await collect(
      client.sendStreamingMessage({ message: { messageId: 'm', role: 'ROLE_USER', parts: [{ text: 'x' }] } }),
    );
    expect(events.map((e) => Object.keys(e)[0])).toEqual(['task', 'artifactUpdate', 'statusUpdate']);
    expect((mock.calls()[0]?.body as { method: string }).method).toBe('message/stream');
  });

  it('resubscribes with tasks/resubscribe and maps 0.3 errors (free-form data)', async () => {
    mock.pool
      .intercept({ path: PATH, method: 'POST' })
      .reply(200, { jsonrpc: '2.0', id: 1, error: { code: -32001, message: 'Task not found', data: { id: 'T' } } });
    await expect(collect(client.subscribeToTask({ id: 'T' }))).rejects.toBeInstanceOf(TaskNotFoundError);
    expect((mock.calls()[0]?.body as { method: string }).method).toBe('tasks/resubscribe');
  });
});
