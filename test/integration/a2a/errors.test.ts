/**
 * The error table of the official SDK (shared/reference/a2a-js-sdk-wire.md §1.7), triggered
 * through our client on every binding and version, plus transport failures against a real agent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDependencyCompatAgent, type RunningAgent } from '../../../agents/index.js';
import { createA2AClient, fetchAgentCard, type A2AClient, type AgentCard, type Task } from '../../../a2a/index.js';
import {
  ConnectionError,
  ContentTypeNotSupportedError,
  JsonRpcProtocolError,
  TaskNotCancelableError,
  TaskNotFoundError,
  UnsupportedOperationError,
  VersionNotSupportedError,
} from '../../../a2a/errors.js';
import { errorFromHttpResponse, errorFromJsonRpcError } from '../../../a2a/error-mapping.js';
import { request } from 'undici';
import { MODES, endpointFor, userMessage } from './support.js';

let legacyAgent: RunningAgent;
let modernAgent: RunningAgent;

beforeAll(async () => {
  [legacyAgent, modernAgent] = await Promise.all([
    startDependencyCompatAgent({ port: 0, legacy: true, workDelayMs: 10, chunkDelayMs: 10 }),
    startDependencyCompatAgent({ port: 0, workDelayMs: 10, chunkDelayMs: 10 }),
  ]);
});

afterAll(async () => {
  await Promise.all([legacyAgent?.close(), modernAgent?.close()]);
});

async function completedTask(client: A2AClient): Promise<Task> {
  const response = await client.sendMessage({ message: userMessage({ text: 'Node.js 24' }) });
  if (!('task' in response) || response.task.status.state !== 'TASK_STATE_COMPLETED')
    throw new Error('expected a completed task');
  return response.task;
}

describe.each(MODES)('agent errors over $name', (mode) => {
  let client: A2AClient;
  let done: Task;

  beforeAll(async () => {
    const { card } = await fetchAgentCard(legacyAgent.baseUrl);
    client = createA2AClient({ card, endpoint: endpointFor(card, mode) }, { timeoutMs: 20_000 });
    done = await completedTask(client);
  });

  it('unknown task → TaskNotFoundError, not retryable', async () => {
    const failure = client.getTask({ id: 'nope' });
    await expect(failure).rejects.toBeInstanceOf(TaskNotFoundError);
    await expect(failure).rejects.toMatchObject({ code: 'TASK_NOT_FOUND', retryable: false, operation: 'GetTask' });
    await expect(client.cancelTask({ id: 'nope' })).rejects.toBeInstanceOf(TaskNotFoundError);
  });

  it('cancel of a completed task → TaskNotCancelableError', async () => {
    await expect(client.cancelTask({ id: done.id })).rejects.toBeInstanceOf(TaskNotCancelableError);
  });

  it('message to a terminal task → UnsupportedOperationError', async () => {
    await expect(
      client.sendMessage({
        message: userMessage({
          text: 'again',
          manifest: false,
          taskId: done.id,
          ...(done.contextId ? { contextId: done.contextId } : {}),
        }),
      }),
    ).rejects.toBeInstanceOf(UnsupportedOperationError);
  });

  it('subscription to a terminal task → UnsupportedOperationError (plain JSON; an SSE error event in 0.3 JSON-RPC)', async () => {
    const failure = (async () => {
      for await (const _event of client.subscribeToTask({ id: done.id })) {
        /* nothing arrives */
      }
    })();
    await expect(failure).rejects.toBeInstanceOf(UnsupportedOperationError);
    await expect(failure).rejects.toThrow(/cannot be subscribed to|terminal/);
  });

  it('missing messageId → INVALID_PARAMS', async () => {
    const failure = client.sendMessage({ message: { ...userMessage(), messageId: '' } });
    await expect(failure).rejects.toBeInstanceOf(JsonRpcProtocolError);
    await expect(failure).rejects.toMatchObject({ code: 'INVALID_PARAMS', retryable: false });
  });

  it('unknown task on a stream → TaskNotFoundError', async () => {
    await expect(
      (async () => {
        for await (const _event of client.subscribeToTask({ id: 'nope' })) {
          /* nothing arrives */
        }
      })(),
    ).rejects.toBeInstanceOf(TaskNotFoundError);
  });
});

describe('version and transport errors', () => {
  let modernCard: AgentCard;

  beforeAll(async () => {
    ({ card: modernCard } = await fetchAgentCard(modernAgent.baseUrl));
  });

  it.each(['HTTP+JSON', 'JSONRPC'] as const)(
    'speaking 0.3 to a 1.0-only %s interface → VersionNotSupportedError',
    async (binding) => {
      const url = modernCard.supportedInterfaces.find((i) => i.protocolBinding === binding)!.url;
      const client = createA2AClient({ card: modernCard, endpoint: { url, binding, protocolVersion: '0.3' } });
      const failure = client.sendMessage({ message: userMessage({ text: 'hello' }) });
      await expect(failure).rejects.toBeInstanceOf(VersionNotSupportedError);
      await expect(failure).rejects.toThrow(/does not serve this A2A protocol version/);
    },
  );

  it('an agent that has gone away → retryable ConnectionError', async () => {
    const gone = await startDependencyCompatAgent({ port: 0 });
    const { card } = await fetchAgentCard(gone.baseUrl);
    await gone.close();
    const failure = createA2AClient({ card }).getTask({ id: 'T' });
    await expect(failure).rejects.toBeInstanceOf(ConnectionError);
    await expect(failure).rejects.toMatchObject({ retryable: true, systemCode: 'ECONNREFUSED' });
  });
});

/**
 * Cases of the error table our client never provokes itself (it always sends the right content
 * type, known methods and valid JSON): provoked with raw requests, then read by our mapping.
 */
describe('error bodies the client never provokes, read by its error mapping', () => {
  const scope = { operation: 'Raw', agentUrl: 'sample agent' };

  async function raw(path: string, contentType: string, body: string) {
    const res = await request(`${modernAgent.baseUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': contentType, 'a2a-version': '1.0' },
      body,
    });
    return { status: res.statusCode, headers: res.headers, text: await res.body.text() };
  }

  function rpcError(text: string) {
    return errorFromJsonRpcError((JSON.parse(text) as { error: unknown }).error, scope);
  }

  it('JSON-RPC with application/a2a+json → ContentTypeNotSupportedError (-32005)', async () => {
    const res = await raw(
      '/a2a/jsonrpc',
      'application/a2a+json',
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: 'x' } }),
    );
    expect(res.status).toBe(200);
    expect(rpcError(res.text)).toBeInstanceOf(ContentTypeNotSupportedError);
  });

  it('HTTP+JSON with text/plain → ContentTypeNotSupportedError (400 + reason)', async () => {
    const res = await raw('/a2a/rest/message:send', 'text/plain', 'hello');
    expect(errorFromHttpResponse(res.status, res.headers, res.text, scope)).toBeInstanceOf(
      ContentTypeNotSupportedError,
    );
  });

  it('JSON-RPC unknown method → METHOD_NOT_FOUND (-32601)', async () => {
    const res = await raw(
      '/a2a/jsonrpc',
      'application/json',
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'NoSuchMethod', params: {} }),
    );
    expect(rpcError(res.text)).toMatchObject({ code: 'METHOD_NOT_FOUND', rpcCode: -32601 });
  });

  it('broken JSON → PARSE_ERROR (-32700) over JSON-RPC, INVALID_PARAMS over HTTP+JSON', async () => {
    const rpc = await raw('/a2a/jsonrpc', 'application/json', '{"jsonrpc":');
    expect(errorFromHttpResponse(rpc.status, rpc.headers, rpc.text, scope)).toMatchObject({ code: 'PARSE_ERROR' });
    const rest = await raw('/a2a/rest/message:send', 'application/json', '{"message":');
    expect(errorFromHttpResponse(rest.status, rest.headers, rest.text, scope)).toMatchObject({
      code: 'INVALID_PARAMS',
      httpStatus: 400,
    });
  });
});
