import { Agent } from 'undici';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createA2AClient, parseAgentCard, type A2AClient, type StreamResponse } from '../../../a2a/index.js';
import { AbortedError, ConnectionError, StreamIdleTimeoutError, TransportTimeoutError } from '../../../a2a/errors.js';
import { json, openSse, startScriptedServer, type ScriptedServer } from './helpers/scripted-server.js';

const task = { id: 'T', contextId: 'C', status: { state: 'TASK_STATE_INPUT_REQUIRED' } };
const working = { statusUpdate: { taskId: 'T', contextId: 'C', status: { state: 'TASK_STATE_WORKING' } } };

describe('streams against a faulty agent', () => {
  let server: ScriptedServer;
  let dispatcher: Agent;
  let client: A2AClient;
  beforeEach(async () => {
    server = await startScriptedServer();
    dispatcher = new Agent();
    const card = parseAgentCard({
      name: 'faulty',
      supportedInterfaces: [{ url: `${server.url}/a2a/rest`, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' }],
    });
    client = createA2AClient({ card }, { dispatcher });
  });
  afterEach(async () => {
    await dispatcher.destroy();
    await server.close();
  });

  async function consume(iterable: AsyncIterable<StreamResponse>, seen: StreamResponse[]): Promise<void> {
    for await (const event of iterable) seen.push(event);
  }

  it('delivers the events before a dropped connection, then a retryable ConnectionError', async () => {
    let delivered!: () => void;
    const bothDelivered = new Promise<void>((resolve) => (delivered = resolve));
    server.next((_req, res) => {
      openSse(res, { task }, working);
      void bothDelivered.then(() => {
        // Half an event, then the socket dies without ending the chunked body.
        res.write('data: {"statusUpd', () => res.socket?.destroy());
      });
    });
    const seen: StreamResponse[] = [];
    const failure = (async () => {
      for await (const event of client.subscribeToTask({ id: 'T' })) {
        seen.push(event);
        if (seen.length === 2) delivered();
      }
    })();
    await expect(failure).rejects.toBeInstanceOf(ConnectionError);
    expect(seen).toEqual([{ task }, working]);
    await expect(failure).rejects.toMatchObject({ retryable: true, operation: 'SubscribeToTask' });
    await expect(failure).rejects.toThrow('stream broke off because the connection was lost');
  });

  it('ends cleanly when the server closes the stream', async () => {
    server.next((_req, res) => {
      openSse(res, { task }, working);
      res.end();
    });
    const seen: StreamResponse[] = [];
    await consume(client.subscribeToTask({ id: 'T' }), seen);
    expect(seen).toHaveLength(2);
  });

  it('fails a silent stream with StreamIdleTimeoutError after the idle time, and releases the socket', async () => {
    server.next((_req, res) => openSse(res, { task }));
    const seen: StreamResponse[] = [];
    const started = Date.now();
    const failure = consume(client.subscribeToTask({ id: 'T' }, { idleTimeoutMs: 150 }), seen);
    await expect(failure).rejects.toBeInstanceOf(StreamIdleTimeoutError);
    await expect(failure).rejects.toMatchObject({ retryable: true, idleTimeoutMs: 150 });
    expect(seen).toEqual([{ task }]);
    expect(Date.now() - started).toBeLessThan(2_000);
    await server.allSocketsClosed();
  });

  it('keeps a stream alive while comments keep arriving', async () => {
    let beats = 0;
    server.next((_req, res) => {
      openSse(res, { task });
      const timer = setInterval(() => {
        beats += 1;
        if (beats <= 8) res.write(': keep-alive\n\n');
        else {
          clearInterval(timer);
          res.end(`data: ${JSON.stringify(working)}\n\n`);
        }
      }, 60);
    });
    const seen: StreamResponse[] = [];
    // 9 × 60 ms of heartbeats outlast the 300 ms idle timeout many times over.
    await consume(client.subscribeToTask({ id: 'T' }, { idleTimeoutMs: 300 }), seen);
    expect(seen).toEqual([{ task }, working]);
  });

  it('does not count the consumer’s own slowness as agent silence', async () => {
    server.next((_req, res) => {
      openSse(res, { task }, working);
      res.end();
    });
    const seen: StreamResponse[] = [];
    for await (const event of client.subscribeToTask({ id: 'T' }, { idleTimeoutMs: 50 })) {
      seen.push(event);
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
    expect(seen).toHaveLength(2);
  });

  it('aborts an open stream with the caller signal and releases the socket', async () => {
    server.next((_req, res) => openSse(res, { task }));
    const controller = new AbortController();
    const seen: StreamResponse[] = [];
    const failure = (async () => {
      for await (const event of client.subscribeToTask({ id: 'T' }, { signal: controller.signal })) {
        seen.push(event);
        controller.abort();
      }
    })();
    await expect(failure).rejects.toBeInstanceOf(AbortedError);
    expect(seen).toEqual([{ task }]);
    await server.allSocketsClosed();
  });

  it('releases the socket when the consumer stops reading early', async () => {
    server.next((_req, res) => openSse(res, { task }, working));
    for await (const event of client.subscribeToTask({ id: 'T' })) {
      expect(event).toEqual({ task });
      break;
    }
    await server.allSocketsClosed();
  });

  it('times out the wait for response headers with connectTimeoutMs', async () => {
    server.next(() => {
      /* never answers */
    });
    const failure = consume(client.subscribeToTask({ id: 'T' }, { connectTimeoutMs: 100 }), []);
    await expect(failure).rejects.toBeInstanceOf(TransportTimeoutError);
    await server.allSocketsClosed();
  });

  it('reads a JSON error answer to a streaming call instead of SSE', async () => {
    server.next((_req, res) =>
      json(res, 400, {
        error: {
          code: 400,
          status: 'FAILED_PRECONDITION',
          message: 'Task T is in a terminal state',
          details: [
            {
              '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
              reason: 'UNSUPPORTED_OPERATION',
              domain: 'a2a-protocol.org',
            },
          ],
        },
      }),
    );
    await expect(consume(client.subscribeToTask({ id: 'T' }), [])).rejects.toMatchObject({
      code: 'UNSUPPORTED_OPERATION',
    });
  });

  it('reads a non-JSON answer to a streaming call as an invalid response', async () => {
    server.next((_req, res) => json(res, 200, 'hello', 'text/plain'));
    await expect(consume(client.subscribeToTask({ id: 'T' }), [])).rejects.toMatchObject({
      code: 'INVALID_AGENT_RESPONSE',
    });
  });
});
