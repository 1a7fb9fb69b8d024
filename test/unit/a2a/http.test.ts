import { Agent } from 'undici';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  AbortedError,
  ConnectionError,
  HttpStatusError,
  InvalidResponseError,
  TransportTimeoutError,
  createA2AClient,
  parseAgentCard,
  type A2AClient,
} from '../../../a2a/index.js';
import { json, startScriptedServer, type ScriptedServer } from './helpers/scripted-server.js';

const task = { id: 'T', contextId: 'C', status: { state: 'TASK_STATE_WORKING' } };

function clientFor(url: string, dispatcher: Agent, binding: 'HTTP+JSON' | 'JSONRPC' = 'HTTP+JSON'): A2AClient {
  const card = parseAgentCard({
    name: 'faulty',
    supportedInterfaces: [{ url, protocolBinding: binding, protocolVersion: '1.0' }],
  });
  return createA2AClient({ card }, { dispatcher });
}

describe('unary calls against a faulty agent', () => {
  let server: ScriptedServer;
  let dispatcher: Agent;
  let client: A2AClient;
  beforeEach(async () => {
    server = await startScriptedServer();
    dispatcher = new Agent();
    client = clientFor(`${server.url}/a2a/rest`, dispatcher);
  });
  afterEach(async () => {
    await dispatcher.destroy();
    await server.close();
  });

  it('rejects a body that is not JSON as a non-retryable invalid response', async () => {
    server.next((_req, res) => json(res, 200, '<html><body>Welcome to nginx</body></html>', 'text/html'));
    const failure = client.getTask({ id: 'T' });
    await expect(failure).rejects.toBeInstanceOf(InvalidResponseError);
    await expect(failure).rejects.toMatchObject({ retryable: false, code: 'INVALID_AGENT_RESPONSE' });
  });

  it('rejects a schema-invalid task, naming the field', async () => {
    server.next((_req, res) => json(res, 200, { id: 'T', status: { state: 'done' } }));
    await expect(client.getTask({ id: 'T' })).rejects.toThrow(
      `GetTask from ${server.url}/a2a/rest returned an invalid Task: status.state: expected a TASK_STATE_* value, got "done"`,
    );
  });

  it('fails a 503 as retryable, and the next call succeeds', async () => {
    server.next((_req, res) => json(res, 503, 'Service Unavailable', 'text/plain'));
    server.next((_req, res) => json(res, 200, task));
    const first = client.getTask({ id: 'T' });
    await expect(first).rejects.toBeInstanceOf(HttpStatusError);
    await expect(first).rejects.toMatchObject({ status: 503, retryable: true });
    expect(await client.getTask({ id: 'T' })).toEqual(task);
  });

  it('aborts a call the agent never answers, promptly, and releases the socket', async () => {
    server.next(() => {
      /* never answers */
    });
    const controller = new AbortController();
    const started = Date.now();
    const call = client.getTask({ id: 'T' }, { signal: controller.signal });
    await server.request(1);
    controller.abort();
    await expect(call).rejects.toBeInstanceOf(AbortedError);
    expect(Date.now() - started).toBeLessThan(2_000);
    await server.allSocketsClosed();
  });

  it('times out a call the agent never answers, and releases the socket', async () => {
    server.next(() => {
      /* never answers */
    });
    const started = Date.now();
    const call = client.sendMessage(
      { message: { messageId: 'm', role: 'ROLE_USER', parts: [{ text: 'x' }] } },
      { timeoutMs: 150 },
    );
    await expect(call).rejects.toBeInstanceOf(TransportTimeoutError);
    await expect(call).rejects.toMatchObject({ retryable: true, timeoutMs: 150, operation: 'SendMessage' });
    expect(Date.now() - started).toBeLessThan(2_000);
    await server.allSocketsClosed();
  });

  it('rejects at once when the signal is already aborted, without sending anything', async () => {
    await expect(client.getTask({ id: 'T' }, { signal: AbortSignal.abort() })).rejects.toBeInstanceOf(AbortedError);
    expect(server.openSockets()).toBe(0);
  });

  it('reports a refused connection as a retryable ConnectionError', async () => {
    const closed = await startScriptedServer();
    const url = closed.url;
    await closed.close();
    const refused = clientFor(`${url}/a2a/jsonrpc`, dispatcher, 'JSONRPC');
    const failure = refused.getTask({ id: 'T' });
    await expect(failure).rejects.toBeInstanceOf(ConnectionError);
    await expect(failure).rejects.toMatchObject({ retryable: true, systemCode: 'ECONNREFUSED' });
  });

  it('reports a connection the agent drops before answering as a retryable ConnectionError', async () => {
    server.next((req) => req.socket.destroy());
    await expect(client.getTask({ id: 'T' })).rejects.toMatchObject({ code: 'CONNECTION_FAILED', retryable: true });
  });
});
