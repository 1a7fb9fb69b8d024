import { MockAgent } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { HttpClient } from '../../../a2a/http.js';
import { OutboundPolicy } from '../../../a2a/index.js';
import { TokenRequestError } from '../../../a2a/security-errors.js';
import { ClientCredentialsTokens } from '../../../a2a/client-credentials.js';

const AS = 'https://login.example.com';
const AGENT = 'https://agent.example.com';

let mock: MockAgent;
afterEach(async () => mock?.close());

/** A token endpoint answering with tokens t1, t2, … (lifetime `expiresIn`), counting requests and the secrets sent. */
function tokenEndpoint(expiresIn = 60) {
  const seen = { requests: 0, authorization: [] as string[] };
  mock
    .get(AS)
    .intercept({ path: '/token', method: 'POST' })
    .reply((opts) => {
      seen.requests++;
      seen.authorization.push(String((opts.headers as Record<string, string>).authorization));
      return {
        statusCode: 200,
        data: JSON.stringify({ access_token: `t${seen.requests}`, token_type: 'Bearer', expires_in: expiresIn }),
        responseOptions: { headers: { 'content-type': 'application/json' } },
      };
    })
    .persist();
  return seen;
}

function tokens(now: () => number, secret = 'client-secret-1') {
  return new ClientCredentialsTokens({
    clientId: 'worker',
    clientSecret: async () => secret,
    endpoint: { tokenUrl: `${AS}/token` },
    endpointFrom: 'config',
    dispatcher: mock,
    now,
  });
}

describe('ClientCredentialsTokens', () => {
  it('requests one token per lifetime and renews it a tenth of the lifetime before it expires', async () => {
    mock = new MockAgent();
    mock.disableNetConnect();
    const seen = tokenEndpoint(100);
    let clock = 0;
    const source = tokens(() => clock);
    expect(await Promise.all([source.token(), source.token(), source.token()])).toEqual(['t1', 't1', 't1']);
    clock = 89_000;
    expect(await source.token()).toBe('t1');
    clock = 90_500; // within the last 10 s of 100
    expect(await source.token()).toBe('t2');
    expect(seen.requests).toBe(2);
    // client_secret_basic: id and secret form-encoded (RFC 6749 §2.3.1), then base64.
    const basic = Buffer.from(seen.authorization[0]!.slice('Basic '.length), 'base64').toString();
    expect(decodeURIComponent(basic)).toBe('worker:client-secret-1');
  });

  it('sends a request once more with a new token when the agent answers 401 invalid_token', async () => {
    mock = new MockAgent();
    mock.disableNetConnect();
    const seen = tokenEndpoint();
    const sent: string[] = [];
    mock
      .get(AGENT)
      .intercept({ path: '/a2a' })
      .reply((opts) => {
        const auth = String((opts.headers as Record<string, string>).authorization);
        sent.push(auth);
        return auth === 'Bearer t1'
          ? {
              statusCode: 401,
              data: '',
              responseOptions: { headers: { 'www-authenticate': 'Bearer error="invalid_token"' } },
            }
          : { statusCode: 200, data: 'ok' };
      })
      .persist();
    const http = new HttpClient({ dispatcher: mock, auth: tokens(() => 0).resolver() });
    const res = await http.unary({ method: 'GET', url: `${AGENT}/a2a`, headers: {}, context: {} });
    expect(res.status).toBe(200);
    expect(sent).toEqual(['Bearer t1', 'Bearer t2']);
    expect(seen.requests).toBe(2);
  });

  it('does not renew on a 401 that does not say the token is invalid (one request, one token)', async () => {
    mock = new MockAgent();
    mock.disableNetConnect();
    const seen = tokenEndpoint();
    mock
      .get(AGENT)
      .intercept({ path: '/a2a' })
      .reply(401, '', { headers: { 'www-authenticate': 'Bearer realm="agents"' } });
    const http = new HttpClient({ dispatcher: mock, auth: tokens(() => 0).resolver() });
    expect((await http.unary({ method: 'GET', url: `${AGENT}/a2a`, headers: {}, context: {} })).status).toBe(401);
    expect(seen.requests).toBe(1);
  });

  it('fails non-retryably when the server refuses the client, without the secret in the message', async () => {
    mock = new MockAgent();
    mock.disableNetConnect();
    mock
      .get(AS)
      .intercept({ path: '/token', method: 'POST' })
      .reply(400, JSON.stringify({ error: 'invalid_client', error_description: 'bad secret client-secret-1' }), {
        headers: { 'content-type': 'application/json' },
      });
    const err = await tokens(() => 0)
      .token()
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(err).toBeInstanceOf(TokenRequestError);
    expect((err as TokenRequestError).retryable).toBe(false);
    expect((err as Error).message).toContain('HTTP 400 invalid_client (bad secret [redacted])');
  });

  it('keeps the decodable client:secret out of its message when the endpoint echoes the Basic header', async () => {
    mock = new MockAgent();
    mock.disableNetConnect();
    const secret = 'cl!ent s3cret/+&=%';
    let header = '';
    mock
      .get(AS)
      .intercept({ path: '/token', method: 'POST' })
      .reply((opts) => {
        header = String((opts.headers as Record<string, string>).authorization);
        const echo = {
          error: 'invalid_client',
          error_description: `refused ${header} (${Buffer.from(header).toString('base64')})`,
        };
        return {
          statusCode: 400,
          data: JSON.stringify(echo),
          responseOptions: { headers: { 'content-type': 'application/json' } },
        };
      });
    const err = (await tokens(() => 0, secret)
      .token()
      .catch((e: unknown) => e)) as Error;
    expect(err).toBeInstanceOf(TokenRequestError);
    const basic = header.slice('Basic '.length);
    expect(err.message).toContain('invalid_client (refused [redacted] ([redacted]');
    for (const leak of [basic, Buffer.from(header).toString('base64').slice(4, 40), secret, encodeURIComponent(secret)])
      expect(err.message).not.toContain(leak);
    // Nothing left decodes to the pair: every base64 run in the message is searched.
    for (const run of err.message.match(/[A-Za-z0-9+/=]{12,}/g) ?? [])
      expect(Buffer.from(run, 'base64').toString('latin1')).not.toMatch(/s3cret|s3cr/);
  });

  it('refuses to send the client secret to a token endpoint the card names outside the trusted origins', async () => {
    mock = new MockAgent();
    mock.disableNetConnect();
    const seen = tokenEndpoint();
    const source = new ClientCredentialsTokens({
      clientId: 'worker',
      clientSecret: async () => 'client-secret-1',
      endpoint: { tokenUrl: `${AS}/token` },
      endpointFrom: 'card',
      policy: new OutboundPolicy({ origin: AGENT }),
      dispatcher: mock,
    });
    await expect(source.token()).rejects.toThrow(/outside the agent's origins \(https:\/\/agent.example.com\)/);
    expect(seen.requests).toBe(0);
  });
});
