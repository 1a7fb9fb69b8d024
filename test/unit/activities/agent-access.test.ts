import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MockAgent } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { HttpClient } from '../../../a2a/http.js';
import { AgentAccess } from '../../../activities/agent-access.js';
import { AgentRegistry, AgentsFileSchema } from '../../../activities/agent-registry.js';

const AGENT = 'https://agent.example.com';
let mock: MockAgent | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

describe('AgentAccess', () => {
  it('reads a secret file on every request, so a rotated token is sent without a restart', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'a2a-secret-')), 'token');
    writeFileSync(file, 'first-token\n');
    const registry = new AgentRegistry(
      { agents: { a: { url: AGENT, auth: { type: 'bearer', tokenFile: file } } } },
      {},
    );
    mock = new MockAgent();
    mock.disableNetConnect();
    const sent: string[] = [];
    mock
      .get(AGENT)
      .intercept({ path: '/a2a' })
      .reply((opts) => {
        sent.push(String((opts.headers as Record<string, string>).authorization));
        return { statusCode: 200, data: 'ok' };
      })
      .persist();
    const access = new AgentAccess({ dispatcher: mock, env: {}, timeoutMs: 5000 });
    const location = registry.locate('a');
    const { auth } = await access.connection(location, 'interface');
    const http = new HttpClient({ dispatcher: mock, ...(auth ? { auth } : {}), policy: location.policy });
    await http.unary({ method: 'GET', url: `${AGENT}/a2a`, headers: {}, context: {} });
    writeFileSync(file, 'rotated-token\n');
    await http.unary({ method: 'GET', url: `${AGENT}/a2a`, headers: {}, context: {} });
    expect(sent).toEqual(['Bearer first-token', 'Bearer rotated-token']);
  });

  it('names the missing file and what it should hold', async () => {
    const registry = new AgentRegistry(
      { agents: { a: { url: AGENT, auth: { type: 'apiKey', name: 'X-API-Key', valueFile: '/nonexistent/key' } } } },
      {},
    );
    const access = new AgentAccess({ dispatcher: new MockAgent(), env: {}, timeoutMs: 5000 });
    const { auth } = await access.connection(registry.locate('a'), 'card');
    await expect(Promise.resolve(auth?.())).rejects.toThrow(
      'Agent "a" needs the file /nonexistent/key (API key X-API-Key), which cannot be read (ENOENT); mount the secret there.',
    );
  });

  it('describes what an entry provides, as the card requirements are matched', () => {
    const registry = new AgentRegistry(
      {
        agents: {
          o: {
            url: AGENT,
            auth: { type: 'oauth2', clientId: 'c', clientSecretEnv: 'S', issuer: 'https://login.example.com' },
            tls: { certFile: '/c', keyFile: '/k' },
          },
          n: { url: AGENT },
        },
      },
      {},
    );
    const access = new AgentAccess({ dispatcher: new MockAgent(), env: {}, timeoutMs: 5000 });
    expect(access.held(registry.locate('o'))).toEqual({
      held: { oauth2: true, mtls: true },
      provided: 'OAuth 2.0 client credentials and a client certificate (mutual TLS)',
    });
    expect(access.held(registry.locate('n')).provided).toBe('no credentials');
  });
});

describe('the agents file', () => {
  it.each([
    [{ type: 'bearer', tokenEnv: 'A', tokenFile: '/b' }, 'set exactly one of tokenEnv and tokenFile'],
    [{ type: 'oauth2', clientId: 'c' }, 'set exactly one of clientSecretEnv and clientSecretFile'],
  ])('refuses an ambiguous or missing secret: %j', (auth, message) => {
    const parsed = AgentsFileSchema.safeParse({ agents: { a: { url: AGENT, auth } } });
    expect(parsed.error?.issues[0]?.message).toBe(message);
  });

  it('refuses requireSignedCard without a key, and a client certificate without its key', () => {
    expect(
      AgentsFileSchema.safeParse({ agents: { a: { url: AGENT, requireSignedCard: true } } }).error?.issues[0]?.message,
    ).toMatch(/requireSignedCard needs cardSigning/);
    expect(
      AgentsFileSchema.safeParse({ agents: { a: { url: AGENT, tls: { certFile: '/c' } } } }).error?.issues[0]?.message,
    ).toBe('a client certificate needs its key, and a key its certificate');
  });
});
