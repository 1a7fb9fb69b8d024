import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createA2AClient, parseAgentCard, type A2AClient, type Message } from '../../../a2a/index.js';
import {
  ContentTypeNotSupportedError,
  InvalidResponseError,
  TaskNotFoundError,
  UnsupportedOperationError,
  VersionNotSupportedError,
} from '../../../a2a/errors.js';
import {
  CAPTURED_CARD,
  CAPTURED_JSONRPC_TASK_NOT_FOUND,
  CAPTURED_SEND_INPUT_REQUIRED,
  CAPTURED_STREAM_TURN_2,
} from './fixtures/wire-captures.js';
import {
  JSON_HEADERS,
  ORIGIN,
  SSE_HEADERS,
  collect,
  mockAgent,
  sseBody,
  type MockedAgent,
} from './helpers/mock-agent.js';

const PATH = '/a2a/jsonrpc';
const card = parseAgentCard(CAPTURED_CARD);
const message: Message = { messageId: 'm-1', role: 'ROLE_USER', parts: [{ text: 'set up node' }] };

function rpc(result: unknown, id: unknown = 1) {
  return { jsonrpc: '2.0', id, result };
}

describe('JSON-RPC binding, A2A 1.0', () => {
  let mock: MockedAgent;
  let client: A2AClient;
  beforeEach(() => {
    mock = mockAgent();
    client = createA2AClient(
      { card, endpoint: { url: `${ORIGIN}${PATH}`, binding: 'JSONRPC', protocolVersion: '1.0' } },
      { dispatcher: mock.agent, userAgent: 'test-agent/1' },
    );
  });
  afterEach(async () => {
    await mock.close();
  });

  it('sends SendMessage as a JSON-RPC request with A2A-Version and application/json', async () => {
    mock.pool.intercept({ path: PATH, method: 'POST' }).reply(200, CAPTURED_SEND_INPUT_REQUIRED, JSON_HEADERS);
    const response = await client.sendMessage({
      message,
      configuration: { returnImmediately: true, historyLength: 2, acceptedOutputModes: ['text/plain'] },
    });
    expect('task' in response && response.task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    const [call] = mock.calls();
    expect(call?.headers).toMatchObject({
      'a2a-version': '1.0',
      'content-type': 'application/json',
      accept: 'application/json',
      'user-agent': 'test-agent/1',
    });
    expect(call?.body).toEqual({
      jsonrpc: '2.0',
      id: 1,
      method: 'SendMessage',
      params: {
        message,
        configuration: { returnImmediately: true, historyLength: 2, acceptedOutputModes: ['text/plain'] },
      },
    });
  });

  it('uses the method names and params of every operation', async () => {
    const task = { id: 'T', status: { state: 'TASK_STATE_WORKING' } };
    const config = { taskId: 'T', id: 'c', url: 'http://hook.test/' };
    mock.pool.intercept({ path: PATH, method: 'POST' }).reply(200, rpc(task));
    mock.pool.intercept({ path: PATH, method: 'POST' }).reply(200, rpc({ tasks: [task], nextPageToken: '' }));
    mock.pool.intercept({ path: PATH, method: 'POST' }).reply(200, rpc(task));
    mock.pool.intercept({ path: PATH, method: 'POST' }).reply(200, rpc(config));
    mock.pool.intercept({ path: PATH, method: 'POST' }).reply(200, rpc(config));
    mock.pool.intercept({ path: PATH, method: 'POST' }).reply(200, rpc({ configs: [config] }));
    mock.pool.intercept({ path: PATH, method: 'POST' }).reply(200, rpc(null));
    await client.getTask({ id: 'T', historyLength: 0 });
    expect(await client.listTasks({ contextId: 'C', status: 'TASK_STATE_WORKING', pageSize: 5 })).toMatchObject({
      tasks: [task],
      totalSize: 0,
    });
    await client.cancelTask({ id: 'T', metadata: { why: 'test' } });
    await client.createPushConfig(config);
    await client.getPushConfig({ taskId: 'T', id: 'c' });
    expect(await client.listPushConfigs({ taskId: 'T' })).toEqual({ configs: [config] });
    await client.deletePushConfig({ taskId: 'T', id: 'c' });
    expect(
      mock.calls().map((c) => [(c.body as { method: string }).method, (c.body as { params: unknown }).params]),
    ).toEqual([
      ['GetTask', { id: 'T', historyLength: 0 }],
      ['ListTasks', { contextId: 'C', status: 'TASK_STATE_WORKING', pageSize: 5 }],
      ['CancelTask', { id: 'T', metadata: { why: 'test' } }],
      ['CreateTaskPushNotificationConfig', config],
      ['GetTaskPushNotificationConfig', { taskId: 'T', id: 'c' }],
      ['ListTaskPushNotificationConfigs', { taskId: 'T' }],
      ['DeleteTaskPushNotificationConfig', { taskId: 'T', id: 'c' }],
    ]);
    expect(mock.calls().map((c) => (c.body as { id: number }).id)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('copies the interface tenant into the params', async () => {
    const tenanted = createA2AClient(
      { card, endpoint: { url: `${ORIGIN}${PATH}`, binding: 'JSONRPC', protocolVersion: '1.0', tenant: 'acme' } },
      { dispatcher: mock.agent },
    );
    mock.pool
      .intercept({ path: PATH, method: 'POST' })
      .reply(200, rpc({ id: 'T', status: { state: 'TASK_STATE_WORKING' } }));
    await tenanted.getTask({ id: 'T' });
    expect((mock.calls()[0]?.body as { params: unknown }).params).toEqual({ tenant: 'acme', id: 'T' });
  });

  it('turns errors that arrive with HTTP 200 into typed errors', async () => {
    mock.pool.intercept({ path: PATH, method: 'POST' }).reply(200, CAPTURED_JSONRPC_TASK_NOT_FOUND);
    await expect(client.getTask({ id: 'nope' })).rejects.toBeInstanceOf(TaskNotFoundError);
    mock.pool.intercept({ path: PATH, method: 'POST' }).reply(200, {
      jsonrpc: '2.0',
      id: 2,
      error: { code: -32009, message: "The requested A2A protocol version '0.3' is not supported." },
    });
    await expect(client.getTask({ id: 'x' })).rejects.toBeInstanceOf(VersionNotSupportedError);
    mock.pool
      .intercept({ path: PATH, method: 'POST' })
      .reply(200, { jsonrpc: '2.0', id: 3, error: { code: -32005, message: 'x' } });
    await expect(client.sendMessage({ message })).rejects.toBeInstanceOf(ContentTypeNotSupportedError);
  });

  it('rejects a response with neither result nor error, and a schema-invalid result', async () => {
    mock.pool.intercept({ path: PATH, method: 'POST' }).reply(200, { jsonrpc: '2.0', id: 1 });
    await expect(client.getTask({ id: 'T' })).rejects.toThrow(
      'returned a JSON-RPC response with neither result nor error',
    );
    mock.pool.intercept({ path: PATH, method: 'POST' }).reply(200, rpc({ id: 'T', status: { state: 'done' } }));
    await expect(client.getTask({ id: 'T' })).rejects.toThrow(
      'GetTask from http://agent.test/a2a/jsonrpc returned an invalid Task: status.state: expected a TASK_STATE_* value, got "done"',
    );
  });

  it('streams SendStreamingMessage: SSE of JSON-RPC responses, Accept text/event-stream', async () => {
    mock.pool.intercept({ path: PATH, method: 'POST' }).reply(200, sseBody(...CAPTURED_STREAM_TURN_2), SSE_HEADERS);
    const events = await collect(client.sendStreamingMessage({ message }));
    expect(events.map((e) => Object.keys(e)[0])).toEqual([
      'task',
      'statusUpdate',
      'artifactUpdate',
      'artifactUpdate',
      'artifactUpdate',
      'statusUpdate',
    ]);
    expect(mock.calls()[0]?.headers.accept).toBe('text/event-stream');
    expect((mock.calls()[0]?.body as { method: string }).method).toBe('SendStreamingMessage');
  });

  it('accepts a plain JSON result where SSE was expected', async () => {
    mock.pool
      .intercept({ path: PATH, method: 'POST' })
      .reply(200, rpc({ message: { messageId: 'a', role: 'ROLE_AGENT', parts: [{ text: 'hi' }] } }), JSON_HEADERS);
    expect(await collect(client.sendStreamingMessage({ message }))).toEqual([
      { message: { messageId: 'a', role: 'ROLE_AGENT', parts: [{ text: 'hi' }] } },
    ]);
  });

  it('throws a plain JSON error where SSE was expected (subscribe to a terminal task)', async () => {
    mock.pool.intercept({ path: PATH, method: 'POST' }).reply(
      200,
      {
        jsonrpc: '2.0',
        id: 1,
        error: { code: -32004, message: 'Task T is in a terminal state and cannot be subscribed to' },
      },
      JSON_HEADERS,
    );
    await expect(collect(client.subscribeToTask({ id: 'T' }))).rejects.toBeInstanceOf(UnsupportedOperationError);
    expect(mock.calls()[0]?.body as { method: string; params: unknown }).toMatchObject({
      method: 'SubscribeToTask',
      params: { id: 'T' },
    });
  });

  it('throws the error of an `event: error` after earlier events were delivered', async () => {
    const body =
      sseBody(CAPTURED_STREAM_TURN_2[0]) +
      `event: error\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: 1, error: { code: -32603, message: 'executor crashed' } })}\n\n`;
    mock.pool.intercept({ path: PATH, method: 'POST' }).reply(200, body, SSE_HEADERS);
    const seen: string[] = [];
    await expect(
      (async () => {
        for await (const e of client.sendStreamingMessage({ message })) seen.push(Object.keys(e)[0]!);
      })(),
    ).rejects.toMatchObject({ code: 'INTERNAL_ERROR', retryable: true });
    expect(seen).toEqual(['task']);
  });

  it('throws a JSON-RPC error carried in a plain data line', async () => {
    mock.pool
      .intercept({ path: PATH, method: 'POST' })
      .reply(200, sseBody({ jsonrpc: '2.0', id: 1, error: { code: -32001, message: 'gone' } }), SSE_HEADERS);
    await expect(collect(client.subscribeToTask({ id: 'T' }))).rejects.toBeInstanceOf(TaskNotFoundError);
  });

  it('rejects a stream event that is not valid, naming it', async () => {
    mock.pool
      .intercept({ path: PATH, method: 'POST' })
      .reply(200, sseBody(rpc({ statusUpdate: { taskId: 'T', status: { state: 'done' } } })), SSE_HEADERS);
    const failure = collect(client.subscribeToTask({ id: 'T' }));
    await expect(failure).rejects.toBeInstanceOf(InvalidResponseError);
    await expect(failure).rejects.toThrow(
      'SubscribeToTask from http://agent.test/a2a/jsonrpc returned an invalid StreamResponse: statusUpdate.status.state',
    );
  });

  it('ends a stream after a direct Message reply', async () => {
    const reply = rpc({ message: { messageId: 'a', role: 'ROLE_AGENT', parts: [{ text: 'hi' }] } });
    mock.pool.intercept({ path: PATH, method: 'POST' }).reply(200, sseBody(reply, reply), SSE_HEADERS);
    expect(await collect(client.sendStreamingMessage({ message }))).toHaveLength(1);
  });
});
