import type { ServerResponse } from 'node:http';
import { Agent } from 'undici';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createA2AClient, parseAgentCard, type A2AClient } from '../../../a2a/index.js';
import {
  AbortedError,
  ConnectionError,
  HttpStatusError,
  InvalidResponseError,
  ResponseTooLargeError,
  TransportTimeoutError,
} from '../../../a2a/errors.js';
import { displayUrl } from '../../../a2a/http.js';
import { collect } from './helpers/mock-agent.js';
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

  it.each(['HTTP+JSON', 'JSONRPC'] as const)(
    'refuses a CancelTask answered with an endless event stream at once, over %s, and releases the connection',
    async (binding) => {
      const endless = clientFor(`${server.url}/a2a/${binding === 'JSONRPC' ? 'jsonrpc' : 'rest'}`, dispatcher, binding);
      server.next((_req, res) => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        const beat = setInterval(() => res.write(`data: ${JSON.stringify({ task })}\n\n`), 10);
        res.on('close', () => clearInterval(beat));
      });
      const started = performance.now();
      const failure = endless.cancelTask({ id: 'T' });
      await expect(failure).rejects.toBeInstanceOf(InvalidResponseError);
      await expect(failure).rejects.toThrow(/answered with an event stream where one JSON response was expected/);
      expect(performance.now() - started).toBeLessThan(2_000);
      await server.allSocketsClosed();
    },
  );

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

describe('bounded reads against an agent that sends too much', () => {
  let server: ScriptedServer;
  let dispatcher: Agent;
  beforeEach(async () => {
    server = await startScriptedServer();
    dispatcher = new Agent();
  });
  afterEach(async () => {
    await dispatcher.destroy();
    await server.close();
  });

  function bounded(binding: 'HTTP+JSON' | 'JSONRPC' = 'HTTP+JSON'): A2AClient {
    const card = parseAgentCard({
      name: 'flood',
      supportedInterfaces: [{ url: `${server.url}/a2a`, protocolBinding: binding, protocolVersion: '1.0' }],
    });
    return createA2AClient({ card }, { dispatcher, limits: { maxBodyBytes: 64 * 1024, maxSseLineBytes: 1024 } });
  }

  /** Writes 16 KB chunks for as long as the socket stays open: only an abort ends the response. */
  function flood(res: ServerResponse, prefix: string): void {
    const chunk = 'x'.repeat(16 * 1024);
    res.write(prefix);
    const more = (): void => {
      while (!res.destroyed && res.write(chunk));
      if (!res.destroyed) res.once('drain', more);
    };
    res.on('error', () => {});
    more();
  }

  it('aborts a unary body at maxBodyBytes, non-retryably, naming the limit and its setting', async () => {
    server.next((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      flood(res, '{"id":"');
    });
    const failure = bounded().getTask({ id: 'T' });
    await expect(failure).rejects.toBeInstanceOf(ResponseTooLargeError);
    await expect(failure).rejects.toMatchObject({
      code: 'RESPONSE_TOO_LARGE',
      retryable: false,
      limit: 'maxBodyBytes',
      max: 64 * 1024,
      message: `GetTask from ${server.url}/a2a sent a response body larger than 64 KiB, so the client stopped there; if the agent really needs more, raise A2A_MAX_BODY_BYTES (client option limits.maxBodyBytes).`,
    });
    await server.allSocketsClosed();
  });

  it('refuses a body whose Content-Length announces more than the cap before reading it', async () => {
    server.next((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(1024 * 1024 * 1024) });
      res.write('{');
    });
    await expect(bounded('JSONRPC').getTask({ id: 'T' })).rejects.toMatchObject({ limit: 'maxBodyBytes' });
    await server.allSocketsClosed();
  });

  it('aborts a stream whose line never ends at maxSseLineBytes', async () => {
    server.next((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      flood(res, 'data: ');
    });
    const failure = collect(bounded().subscribeToTask({ id: 'T' }));
    await expect(failure).rejects.toMatchObject({
      code: 'RESPONSE_TOO_LARGE',
      limit: 'maxSseLineBytes',
      operation: 'SubscribeToTask',
    });
    await server.allSocketsClosed();
  });

  it('bounds the plain JSON answer of a streaming call by maxBodyBytes', async () => {
    server.next((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      flood(res, '{"jsonrpc":"2.0","id":1,"result":"');
    });
    await expect(collect(bounded('JSONRPC').subscribeToTask({ id: 'T' }))).rejects.toMatchObject({
      limit: 'maxBodyBytes',
    });
    await server.allSocketsClosed();
  });
});

describe('displayUrl', () => {
  it('drops user info, query and fragment, and stays short for a huge URL', () => {
    expect(displayUrl('https://user:pw@agent.test:8443/a2a/rest?api_key=k#x')).toBe('https://agent.test:8443/a2a/rest');
    expect(displayUrl('agent.test:443?key=k')).toBe('agent.test:443');
    const hostile = `http://agent.test/${'/'.repeat(200_000)}?${'?\n'.repeat(100_000)}`;
    expect(displayUrl(hostile).length).toBeLessThanOrEqual(200);
    expect(displayUrl(`${'?\n'.repeat(100_000)}`)).toBe('');
  });
});
