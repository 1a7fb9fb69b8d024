import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { A2AError, bearerAuth, createA2AClient, parseAgentCard, type HttpObserver } from '../../../a2a/index.js';
import { collect, mockAgent, ORIGIN, SSE_HEADERS, sseBody, type MockedAgent } from './helpers/mock-agent.js';

const task = { id: 'T', contextId: 'C', status: { state: 'TASK_STATE_WORKING' } };

function recordingObserver() {
  const seen: Array<{
    method: string;
    url: string;
    operation?: string;
    outcome?: { status?: number; error?: unknown };
  }> = [];
  const observer: HttpObserver = {
    request(info) {
      const entry: (typeof seen)[number] = { ...info };
      seen.push(entry);
      return {
        headers: { traceparent: '00-abc-def-01', authorization: 'from-the-observer' },
        end: (o) => (entry.outcome = o),
      };
    },
  };
  return { seen, observer };
}

describe('the HTTP client observer hook', () => {
  let mock: MockedAgent;
  beforeEach(() => {
    mock = mockAgent();
  });
  afterEach(() => mock.close());

  const client = (observer: HttpObserver) =>
    createA2AClient(
      {
        card: parseAgentCard({
          name: 'a',
          supportedInterfaces: [{ url: `${ORIGIN}/rest`, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' }],
        }),
      },
      { dispatcher: mock.agent, observer, auth: bearerAuth('the-token') },
    );

  it('adds its headers under the credentials, sees the URL without its query and learns the status', async () => {
    mock.pool.intercept({ path: /\/rest\/tasks\/T/, method: 'GET' }).reply(200, task);
    const { seen, observer } = recordingObserver();
    await client(observer).getTask({ id: 'T', historyLength: 5 });
    const [call] = mock.calls();
    expect(call!.fullUrl).toContain('historyLength=5');
    expect(call!.headers.traceparent).toBe('00-abc-def-01');
    expect(call!.headers.authorization).toBe('Bearer the-token');
    expect(seen).toEqual([
      { method: 'GET', url: `${ORIGIN}/rest/tasks/T`, operation: 'GetTask', outcome: { status: 200 } },
    ]);
  });

  it('is told the status of a refused call and the error of a failed one', async () => {
    mock.pool.intercept({ path: /\/rest\/tasks\/T/, method: 'GET' }).reply(503, { error: { code: 503 } });
    mock.pool.intercept({ path: /\/rest\/tasks\/U/, method: 'GET' }).replyWithError(new Error('connection reset'));
    const { seen, observer } = recordingObserver();
    await expect(client(observer).getTask({ id: 'T' })).rejects.toBeInstanceOf(A2AError);
    await expect(client(observer).getTask({ id: 'U' })).rejects.toThrow();
    expect(seen[0]!.outcome).toEqual({ status: 503 });
    expect(seen[1]!.outcome?.error).toBeInstanceOf(Error);
  });

  it('learns the status of a stream once its headers are in', async () => {
    mock.pool.intercept({ path: /\/rest\/message:stream/, method: 'POST' }).reply(200, sseBody({ task }), SSE_HEADERS);
    const { seen, observer } = recordingObserver();
    const message = { messageId: 'm', role: 'ROLE_USER' as const, parts: [{ text: 'hi' }] };
    await collect(client(observer).sendStreamingMessage({ message }));
    expect(seen).toEqual([
      {
        method: 'POST',
        url: `${ORIGIN}/rest/message:stream`,
        operation: 'SendStreamingMessage',
        outcome: { status: 200 },
      },
    ]);
  });
});
