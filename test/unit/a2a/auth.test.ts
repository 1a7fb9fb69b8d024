import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  apiKeyAuth,
  bearerAuth,
  createA2AClient,
  fetchAgentCard,
  parseAgentCard,
  type AuthResolver,
} from '../../../a2a/index.js';
import { scrubSecrets, secretsOf, urlSecrets } from '../../../a2a/auth.js';
import { CAPTURED_CARD } from './fixtures/wire-captures.js';
import { ORIGIN, SSE_HEADERS, collect, mockAgent, sseBody, type MockedAgent } from './helpers/mock-agent.js';

const task = { id: 'T', status: { state: 'TASK_STATE_WORKING' } };
const card = parseAgentCard(CAPTURED_CARD);
const rest = { url: `${ORIGIN}/a2a/rest`, binding: 'HTTP+JSON' as const, protocolVersion: '1.0' as const };

async function failureOf(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected the call to fail');
}

describe('auth', () => {
  let mock: MockedAgent;
  beforeEach(() => {
    mock = mockAgent();
  });
  afterEach(async () => {
    await mock.close();
  });

  it('sends the bearer token on every request, streams and card fetches included', async () => {
    const auth = bearerAuth('tok-123');
    mock.pool.intercept({ path: '/.well-known/agent-card.json' }).reply(200, CAPTURED_CARD);
    mock.pool.intercept({ path: '/a2a/rest/tasks/T' }).reply(200, task);
    mock.pool
      .intercept({ path: '/a2a/rest/tasks/T:subscribe', method: 'POST' })
      .reply(200, sseBody({ task }), SSE_HEADERS);
    await fetchAgentCard(ORIGIN, { dispatcher: mock.agent, auth });
    const client = createA2AClient({ card, endpoint: rest }, { dispatcher: mock.agent, auth });
    await client.getTask({ id: 'T' });
    await collect(client.subscribeToTask({ id: 'T' }));
    expect(mock.calls().map((c) => c.headers.authorization)).toEqual([
      'Bearer tok-123',
      'Bearer tok-123',
      'Bearer tok-123',
    ]);
  });

  it('sends an API key as a header or as a query parameter', async () => {
    mock.pool.intercept({ path: '/a2a/rest/tasks/T' }).reply(200, task);
    mock.pool.intercept({ path: '/a2a/rest/tasks/T?historyLength=1&api_key=k-9' }).reply(200, task);
    await createA2AClient(
      { card, endpoint: rest },
      { dispatcher: mock.agent, auth: apiKeyAuth('X-API-Key', 'k-1') },
    ).getTask({ id: 'T' });
    await createA2AClient(
      { card, endpoint: rest },
      { dispatcher: mock.agent, auth: apiKeyAuth('api_key', 'k-9', 'query') },
    ).getTask({
      id: 'T',
      historyLength: 1,
    });
    const [header, query] = mock.calls();
    expect(header?.headers['x-api-key']).toBe('k-1');
    expect(query?.fullUrl).toContain('api_key=k-9');
    expect(query?.headers).not.toHaveProperty('x-api-key');
  });

  it('resolves credentials before every request, so rotated tokens are picked up', async () => {
    let n = 0;
    const rotating: AuthResolver = async () => ({ headers: { authorization: `Bearer t${++n}` } });
    mock.pool.intercept({ path: '/a2a/rest/tasks/T' }).reply(200, task).times(2);
    const client = createA2AClient({ card, endpoint: rest }, { dispatcher: mock.agent, auth: rotating });
    await client.getTask({ id: 'T' });
    await client.getTask({ id: 'T' });
    expect(mock.calls().map((c) => c.headers.authorization)).toEqual(['Bearer t1', 'Bearer t2']);
  });

  it('keeps credentials out of error messages, even when the agent echoes them or they sit in the URL', async () => {
    mock.pool.intercept({ path: /\/a2a\/rest\/tasks\/T.*/ }).reply(500, 'invalid key k-secret-42 for tenant');
    mock.pool.intercept({ path: '/a2a/rest/message:send', method: 'POST' }).reply(400, {
      error: { code: 400, status: 'INVALID_ARGUMENT', message: 'token Bearer s3cr3t-bearer is malformed' },
    });
    const byQuery = createA2AClient(
      { card, endpoint: rest },
      { dispatcher: mock.agent, auth: apiKeyAuth('key', 'k-secret-42', 'query') },
    );
    const byHeader = createA2AClient(
      { card, endpoint: rest },
      { dispatcher: mock.agent, auth: bearerAuth('s3cr3t-bearer') },
    );
    const first = await failureOf(byQuery.getTask({ id: 'T' }));
    const second = await failureOf(
      byHeader.sendMessage({ message: { messageId: 'm', role: 'ROLE_USER', parts: [{ text: 'x' }] } }),
    );
    for (const error of [first, second]) {
      expect(error.message).not.toMatch(/k-secret-42|s3cr3t-bearer/);
      expect(JSON.stringify(error)).not.toMatch(/k-secret-42|s3cr3t-bearer/);
    }
    expect(first.message).toContain('[redacted]');
    expect(first.message).toContain('http://agent.test/a2a/rest');
  });

  it('scrubs the password of an interface URL and its key-like query values too', async () => {
    mock.pool.intercept({ path: /\/a2a\/rest\/tasks\/T.*/ }).reply(500, 'echo pa55word-xyz k3y-in-the-url');
    const endpoint = { ...rest, url: 'http://user:pa55word-xyz@agent.test/a2a/rest?key=k3y-in-the-url' };
    const error = await failureOf(createA2AClient({ card, endpoint }, { dispatcher: mock.agent }).getTask({ id: 'T' }));
    expect(error.message).not.toMatch(/pa55word|k3y-in/);
    expect(error.message).toContain('http://agent.test/a2a/rest');
  });
});

describe('scrubSecrets', () => {
  it('replaces every echoed form of every secret, longest first', () => {
    const secrets = secretsOf({ headers: { authorization: 'Basic dXNlcjpwYXNzd29yZA==' }, query: { k: 'a b&c' } });
    expect(secrets).toEqual(expect.arrayContaining(['dXNlcjpwYXNzd29yZA==', 'user:password', 'password']));
    expect(scrubSecrets('auth user:password, key a+b%26c or a%20b%26c, raw a b&c', secrets)).toBe(
      'auth [redacted], key [redacted] or [redacted], raw [redacted]',
    );
    expect(urlSecrets(new URL('http://u:pw-1234@h/?v=1&api_key=abcdefgh'))).toEqual(['abcdefgh', 'pw-1234', 'pw-1234']);
  });
});
