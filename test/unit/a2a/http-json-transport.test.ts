import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createA2AClient, parseAgentCard, type A2AClient, type Message } from '../../../a2a/index.js';
import {
  PushNotificationNotSupportedError,
  TaskNotCancelableError,
  TaskNotFoundError,
  UnsupportedOperationError,
  VersionNotSupportedError,
} from '../../../a2a/errors.js';
import { CAPTURED_CARD, CAPTURED_LIST_TASKS, CAPTURED_STREAM_TURN_2, restError } from './fixtures/wire-captures.js';
import {
  A2A_JSON_HEADERS,
  JSON_HEADERS,
  ORIGIN,
  SSE_HEADERS,
  collect,
  mockAgent,
  sseBody,
  type MockedAgent,
} from './helpers/mock-agent.js';

const BASE = '/a2a/rest';
const card = parseAgentCard(CAPTURED_CARD);
const message: Message = { messageId: 'm-1', role: 'ROLE_USER', parts: [{ text: 'set up node' }] };
const task = { id: 'T/1', contextId: 'C', status: { state: 'TASK_STATE_WORKING' } };
const restEvents = CAPTURED_STREAM_TURN_2.map((line) => (JSON.parse(line) as { result: unknown }).result);

describe('HTTP+JSON binding, A2A 1.0', () => {
  let mock: MockedAgent;
  let client: A2AClient;
  beforeEach(() => {
    mock = mockAgent();
    client = createA2AClient(
      { card, endpoint: { url: `${ORIGIN}${BASE}/`, binding: 'HTTP+JSON', protocolVersion: '1.0' } },
      { dispatcher: mock.agent },
    );
  });
  afterEach(async () => {
    await mock.close();
  });

  it('POSTs /message:send with a JSON body, A2A-Version and both accepted reply types', async () => {
    mock.pool.intercept({ path: `${BASE}/message:send`, method: 'POST' }).reply(200, { task }, A2A_JSON_HEADERS);
    const response = await client.sendMessage({ message, configuration: { returnImmediately: true } });
    expect(response).toEqual({ task });
    const [call] = mock.calls();
    expect(call?.headers).toMatchObject({
      'a2a-version': '1.0',
      'content-type': 'application/json',
      accept: 'application/a2a+json, application/json',
    });
    expect(call?.body).toEqual({ message, configuration: { returnImmediately: true } });
  });

  it('maps every operation to its route, with encoded ids and camelCase query parameters', async () => {
    const config = { taskId: 'T/1', id: 'c 1', url: 'http://hook.test/' };
    const enc = encodeURIComponent('T/1');
    mock.pool.intercept({ path: `${BASE}/tasks/${enc}?historyLength=0`, method: 'GET' }).reply(200, task);
    mock.pool
      .intercept({
        path: `${BASE}/tasks?contextId=C&status=TASK_STATE_WORKING&pageSize=2&pageToken=p&historyLength=1&statusTimestampAfter=2026-01-01T00%3A00%3A00Z&includeArtifacts=true`,
        method: 'GET',
      })
      .reply(200, CAPTURED_LIST_TASKS);
    mock.pool.intercept({ path: `${BASE}/tasks/${enc}:cancel`, method: 'POST' }).reply(200, task);
    mock.pool.intercept({ path: `${BASE}/tasks/${enc}/pushNotificationConfigs`, method: 'POST' }).reply(201, config);
    mock.pool
      .intercept({ path: `${BASE}/tasks/${enc}/pushNotificationConfigs/c%201`, method: 'GET' })
      .reply(200, config);
    mock.pool
      .intercept({ path: `${BASE}/tasks/${enc}/pushNotificationConfigs?pageSize=10`, method: 'GET' })
      .reply(200, { configs: [config], nextPageToken: 'n' });
    mock.pool
      .intercept({ path: `${BASE}/tasks/${enc}/pushNotificationConfigs/c%201`, method: 'DELETE' })
      .reply(204, '');
    expect(await client.getTask({ id: 'T/1', historyLength: 0 })).toEqual(task);
    expect(
      await client.listTasks({
        contextId: 'C',
        status: 'TASK_STATE_WORKING',
        pageSize: 2,
        pageToken: 'p',
        historyLength: 1,
        statusTimestampAfter: '2026-01-01T00:00:00Z',
        includeArtifacts: true,
      }),
    ).toMatchObject({ totalSize: 10, nextPageToken: 'MjAyNi0xMS0zMA==' });
    await client.cancelTask({ id: 'T/1' });
    expect(await client.createPushConfig(config)).toEqual(config);
    expect(await client.getPushConfig({ taskId: 'T/1', id: 'c 1' })).toEqual(config);
    expect(await client.listPushConfigs({ taskId: 'T/1', pageSize: 10 })).toEqual({
      configs: [config],
      nextPageToken: 'n',
    });
    await expect(client.deletePushConfig({ taskId: 'T/1', id: 'c 1' })).resolves.toBeUndefined();
    const calls = mock.calls();
    expect(calls[0]?.body ?? undefined).toBeUndefined();
    expect(calls[0]?.headers).not.toHaveProperty('content-type');
    expect(calls[2]?.body).toEqual({});
    expect(calls[3]?.body).toEqual(config);
  });

  it('sends cancel metadata in the body', async () => {
    mock.pool.intercept({ path: `${BASE}/tasks/T:cancel`, method: 'POST' }).reply(200, { ...task, id: 'T' });
    await client.cancelTask({ id: 'T', metadata: { reason: 'user' } });
    expect(mock.calls()[0]?.body).toEqual({ metadata: { reason: 'user' } });
  });

  it('prefixes every path with the interface tenant', async () => {
    const tenanted = createA2AClient(
      {
        card,
        endpoint: { url: `${ORIGIN}${BASE}`, binding: 'HTTP+JSON', protocolVersion: '1.0', tenant: 'acme corp' },
      },
      { dispatcher: mock.agent },
    );
    mock.pool.intercept({ path: `${BASE}/acme%20corp/tasks/T`, method: 'GET' }).reply(200, { ...task, id: 'T' });
    await tenanted.getTask({ id: 'T' });
    expect(mock.calls()[0]?.path).toBe(`${BASE}/acme%20corp/tasks/T`);
  });

  it('tells apart the errors that share HTTP 400 by ErrorInfo reason', async () => {
    mock.pool
      .intercept({ path: `${BASE}/tasks/T:cancel`, method: 'POST' })
      .reply(400, restError(400, 'FAILED_PRECONDITION', 'TASK_NOT_CANCELABLE', 'Task not cancelable: T'));
    mock.pool
      .intercept({ path: `${BASE}/message:send`, method: 'POST' })
      .reply(400, restError(400, 'FAILED_PRECONDITION', 'UNSUPPORTED_OPERATION', 'terminal'));
    mock.pool
      .intercept({ path: `${BASE}/tasks/T`, method: 'GET' })
      .reply(400, restError(400, 'FAILED_PRECONDITION', 'VERSION_NOT_SUPPORTED', "'0.3' not supported"));
    mock.pool
      .intercept({ path: `${BASE}/tasks/T/pushNotificationConfigs/c`, method: 'GET' })
      .reply(400, restError(400, 'FAILED_PRECONDITION', 'PUSH_NOTIFICATION_NOT_SUPPORTED', 'no push'));
    await expect(client.cancelTask({ id: 'T' })).rejects.toBeInstanceOf(TaskNotCancelableError);
    await expect(client.sendMessage({ message })).rejects.toBeInstanceOf(UnsupportedOperationError);
    await expect(client.getTask({ id: 'T' })).rejects.toBeInstanceOf(VersionNotSupportedError);
    await expect(client.getPushConfig({ taskId: 'T', id: 'c' })).rejects.toBeInstanceOf(
      PushNotificationNotSupportedError,
    );
  });

  it('streams POST /message:stream with bare StreamResponse events', async () => {
    mock.pool
      .intercept({ path: `${BASE}/message:stream`, method: 'POST' })
      .reply(200, sseBody(...restEvents), SSE_HEADERS);
    const events = await collect(client.sendStreamingMessage({ message }));
    expect(events).toHaveLength(6);
    expect(mock.calls()[0]?.headers.accept).toBe('text/event-stream');
  });

  it('throws the google.rpc.Status of a JSON answer to a streaming call', async () => {
    mock.pool
      .intercept({ path: `${BASE}/tasks/T:subscribe`, method: 'POST' })
      .reply(
        400,
        restError(400, 'FAILED_PRECONDITION', 'UNSUPPORTED_OPERATION', 'Task T is in a terminal state'),
        A2A_JSON_HEADERS,
      );
    await expect(collect(client.subscribeToTask({ id: 'T' }))).rejects.toBeInstanceOf(UnsupportedOperationError);
    expect(mock.calls()).toHaveLength(1);
  });

  it('throws the {"error":…} of an `event: error`', async () => {
    const body =
      sseBody(restEvents[0]) +
      `event: error\ndata: ${JSON.stringify(restError(500, 'INTERNAL', 'INVALID_AGENT_RESPONSE', 'upstream broke'))}\n\n`;
    mock.pool.intercept({ path: `${BASE}/message:stream`, method: 'POST' }).reply(200, body, SSE_HEADERS);
    await expect(collect(client.sendStreamingMessage({ message }))).rejects.toMatchObject({
      code: 'AGENT_REPORTED_INVALID_RESPONSE',
    });
  });

  it('subscribes with POST and falls back to GET on 405', async () => {
    mock.pool.intercept({ path: `${BASE}/tasks/T:subscribe`, method: 'POST' }).reply(405, 'Method Not Allowed');
    mock.pool
      .intercept({ path: `${BASE}/tasks/T:subscribe`, method: 'GET' })
      .reply(200, sseBody({ task: { ...task, id: 'T' } }), SSE_HEADERS);
    expect(await collect(client.subscribeToTask({ id: 'T' }))).toEqual([{ task: { ...task, id: 'T' } }]);
    expect(mock.calls().map((c) => c.method)).toEqual(['POST', 'GET']);
    expect(mock.calls()[0]?.body).toEqual({});
  });

  it('falls back to GET on a 404 for a missing route, but not on TaskNotFound', async () => {
    mock.pool.intercept({ path: `${BASE}/tasks/T:subscribe`, method: 'POST' }).reply(404, '<pre>Cannot POST</pre>');
    mock.pool
      .intercept({ path: `${BASE}/tasks/T:subscribe`, method: 'GET' })
      .reply(200, sseBody({ task: { ...task, id: 'T' } }), SSE_HEADERS);
    expect(await collect(client.subscribeToTask({ id: 'T' }))).toHaveLength(1);
    mock.pool
      .intercept({ path: `${BASE}/tasks/nope:subscribe`, method: 'POST' })
      .reply(404, restError(404, 'NOT_FOUND', 'TASK_NOT_FOUND', 'Task not found: nope'), A2A_JSON_HEADERS);
    await expect(collect(client.subscribeToTask({ id: 'nope' }))).rejects.toBeInstanceOf(TaskNotFoundError);
    expect(mock.calls().map((c) => c.method)).toEqual(['POST', 'GET', 'POST']);
  });

  it('accepts an application/json reply as well as application/a2a+json', async () => {
    mock.pool.intercept({ path: `${BASE}/tasks/T`, method: 'GET' }).reply(200, { ...task, id: 'T' }, JSON_HEADERS);
    expect((await client.getTask({ id: 'T' })).id).toBe('T');
  });
});
