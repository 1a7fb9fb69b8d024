import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fetchAgentCard, parseAgentCard, selectInterface, type AgentCard } from '../../../a2a/index.js';
import { InvalidResponseError, NoUsableInterfaceError } from '../../../a2a/errors.js';
import { agentCardUrl, parseMaxAge } from '../../../a2a/agent-card.js';
import { CAPTURED_CARD, CAPTURED_V03_HYBRID_CARD } from './fixtures/wire-captures.js';
import { ORIGIN, mockAgent, type MockedAgent } from './helpers/mock-agent.js';

function card(interfaces: AgentCard['supportedInterfaces']): AgentCard {
  return parseAgentCard({ name: 'a', supportedInterfaces: interfaces });
}

const V03_CARD = {
  protocolVersion: '0.3.0',
  name: 'Legacy agent',
  description: 'speaks 0.3',
  version: '2.1.0',
  url: 'https://legacy.test/a2a',
  preferredTransport: 'JSONRPC',
  additionalInterfaces: [
    { url: 'https://legacy.test/a2a', transport: 'JSONRPC' },
    { url: 'https://legacy.test/rest', transport: 'HTTP+JSON' },
    { url: 'legacy.test:443', transport: 'GRPC' },
  ],
  capabilities: { streaming: true, stateTransitionHistory: true },
  supportsAuthenticatedExtendedCard: true,
  securitySchemes: {
    key: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
    bearer: { type: 'http', scheme: 'Bearer', bearerFormat: 'JWT' },
    oidc: { type: 'openIdConnect', openIdConnectUrl: 'https://id.test/.well-known/openid-configuration' },
    mtls: { type: 'mutualTLS' },
  },
  security: [{ oidc: ['openid'] }, { key: [] }],
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['text/plain'],
  skills: [{ id: 's', name: 'S', description: 'd', tags: ['t'], security: [{ bearer: [] }] }],
};

describe('parseAgentCard', () => {
  it('parses a 1.0 card', () => {
    expect(parseAgentCard(CAPTURED_CARD).supportedInterfaces).toHaveLength(2);
  });

  it('normalises a 0.3 card into 1.0 supportedInterfaces, schemes and requirements', () => {
    const parsed = parseAgentCard(V03_CARD);
    expect(parsed.supportedInterfaces).toEqual([
      { url: 'https://legacy.test/a2a', protocolBinding: 'JSONRPC', protocolVersion: '0.3' },
      { url: 'https://legacy.test/rest', protocolBinding: 'HTTP+JSON', protocolVersion: '0.3' },
      { url: 'legacy.test:443', protocolBinding: 'GRPC', protocolVersion: '0.3' },
    ]);
    expect(parsed.capabilities).toEqual({ streaming: true, extendedAgentCard: true });
    expect(parsed.securitySchemes).toEqual({
      key: { apiKeySecurityScheme: { location: 'header', name: 'X-API-Key' } },
      bearer: { httpAuthSecurityScheme: { scheme: 'Bearer', bearerFormat: 'JWT' } },
      oidc: { openIdConnectSecurityScheme: { openIdConnectUrl: 'https://id.test/.well-known/openid-configuration' } },
      mtls: { mtlsSecurityScheme: {} },
    });
    expect(parsed.securityRequirements).toEqual([
      { schemes: { oidc: { list: ['openid'] } } },
      { schemes: { key: { list: [] } } },
    ]);
    expect(parsed.skills[0]?.securityRequirements).toEqual([{ schemes: { bearer: { list: [] } } }]);
    expect(selectInterface(parsed)).toEqual({
      url: 'https://legacy.test/rest',
      binding: 'HTTP+JSON',
      protocolVersion: '0.3',
    });
  });

  it('reads the SDK hybrid card by its 1.0 supportedInterfaces', () => {
    const parsed = parseAgentCard(CAPTURED_V03_HYBRID_CARD);
    expect(parsed.supportedInterfaces).toHaveLength(4);
    expect(selectInterface(parsed)).toMatchObject({ binding: 'HTTP+JSON', protocolVersion: '1.0' });
    expect(selectInterface(parsed, { versions: ['0.3'] })).toMatchObject({
      binding: 'HTTP+JSON',
      protocolVersion: '0.3',
    });
  });

  it('rejects a card without interfaces, naming the field', () => {
    expect(() => parseAgentCard({ name: 'x' })).toThrow(InvalidResponseError);
    expect(() => parseAgentCard({ name: 'x' })).toThrow(/supportedInterfaces: missing, expected a list of interfaces/);
  });
});

describe('selectInterface', () => {
  it('prefers HTTP+JSON over JSONRPC, whatever the card order', () => {
    const c = card([
      { url: 'http://a/rpc', protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
      { url: 'http://a/rest', protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
    ]);
    expect(selectInterface(c)).toEqual({ url: 'http://a/rest', binding: 'HTTP+JSON', protocolVersion: '1.0' });
    expect(selectInterface(c, { bindings: ['JSONRPC'] })).toEqual({
      url: 'http://a/rpc',
      binding: 'JSONRPC',
      protocolVersion: '1.0',
    });
  });

  it('prefers protocol 1.0 over 0.3, even over a better binding', () => {
    const c = card([
      { url: 'http://a/rest03', protocolBinding: 'HTTP+JSON', protocolVersion: '0.3' },
      { url: 'http://a/rpc', protocolBinding: 'JSONRPC', protocolVersion: '1.0.1' },
    ]);
    expect(selectInterface(c)).toEqual({ url: 'http://a/rpc', binding: 'JSONRPC', protocolVersion: '1.0' });
  });

  it('keeps the card order among equals, and skips what it does not speak', () => {
    const c = card([
      { url: 'a:1', protocolBinding: 'GRPC', protocolVersion: '1.0' },
      { url: 'http://a/first', protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
      { url: 'http://a/second', protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
    ]);
    expect(selectInterface(c).url).toBe('http://a/first');
  });

  it('copies a non-empty tenant and drops an empty one', () => {
    expect(
      selectInterface(card([{ url: 'http://a', protocolBinding: 'HTTP+JSON', protocolVersion: '1.0', tenant: 'acme' }]))
        .tenant,
    ).toBe('acme');
    expect(
      selectInterface(card([{ url: 'http://a', protocolBinding: 'HTTP+JSON', protocolVersion: '1.0', tenant: '' }])),
    ).not.toHaveProperty('tenant');
  });

  it('puts gRPC after the HTTP bindings unless told otherwise, and speaks it in A2A 1.0 only', () => {
    const offers = card([
      { url: 'grpc.agent.test:443', protocolBinding: 'GRPC', protocolVersion: '1.0' },
      { url: 'https://agent.test/rpc', protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
    ]);
    expect(selectInterface(offers).binding).toBe('JSONRPC');
    expect(selectInterface(offers, { bindings: ['GRPC', 'JSONRPC'] })).toEqual({
      url: 'grpc.agent.test:443',
      binding: 'GRPC',
      protocolVersion: '1.0',
    });
    expect(selectInterface(card([offers.supportedInterfaces[0]!])).binding).toBe('GRPC');
    expect(() =>
      selectInterface(card([{ url: 'grpc.agent.test:443', protocolBinding: 'GRPC', protocolVersion: '0.3' }])),
    ).toThrow(NoUsableInterfaceError);
  });

  it('throws NoUsableInterfaceError listing what the card offers', () => {
    const c = card([
      { url: 'grpc.agent.test:443', protocolBinding: 'GRPC', protocolVersion: '0.3' },
      { url: 'https://agent.test/rpc?key=secret', protocolBinding: 'JSONRPC', protocolVersion: '0.2' },
    ]);
    expect(() => selectInterface(c)).toThrow(NoUsableInterfaceError);
    try {
      selectInterface(c);
    } catch (error) {
      expect((error as Error).message).toMatchInlineSnapshot(
        `"The agent card offers GRPC 0.3 at grpc.agent.test:443, JSONRPC 0.2 at https://agent.test/rpc; we speak HTTP+JSON or JSONRPC or GRPC, 1.0 or 0.3, so configure an agent interface we support."`,
      );
      expect(error).toMatchObject({ code: 'NO_USABLE_INTERFACE', retryable: false });
    }
  });
});

describe('fetchAgentCard', () => {
  let mock: MockedAgent;
  beforeEach(() => {
    mock = mockAgent();
  });
  afterEach(async () => {
    await mock.close();
  });

  it('appends the well-known path to a base URL and keeps a full card URL', () => {
    expect(agentCardUrl('http://agent.test')).toBe('http://agent.test/.well-known/agent-card.json');
    expect(agentCardUrl('http://agent.test/agents/x/')).toBe('http://agent.test/agents/x/.well-known/agent-card.json');
    expect(agentCardUrl('http://agent.test/cards/x.json')).toBe('http://agent.test/cards/x.json');
  });

  it('fetches with A2A-Version 1.0 and records ETag, Last-Modified and max-age', async () => {
    mock.pool.intercept({ path: '/.well-known/agent-card.json', method: 'GET' }).reply(200, CAPTURED_CARD, {
      headers: {
        'content-type': 'application/json',
        etag: 'W/"abc"',
        'last-modified': 'Wed, 21 Oct 2026 07:28:00 GMT',
        'cache-control': 'public, max-age=3600',
      },
    });
    const fetched = await fetchAgentCard(ORIGIN, { dispatcher: mock.agent });
    expect(fetched).toMatchObject({
      cardUrl: `${ORIGIN}/.well-known/agent-card.json`,
      etag: 'W/"abc"',
      lastModified: 'Wed, 21 Oct 2026 07:28:00 GMT',
      maxAgeSeconds: 3600,
    });
    expect(fetched.card.name).toBe('Node Setup Agent');
    expect(mock.calls()[0]?.headers['a2a-version']).toBe('1.0');
  });

  it('revalidates with If-None-Match / If-Modified-Since and returns the previous card on 304', async () => {
    mock.pool
      .intercept({ path: '/.well-known/agent-card.json' })
      .reply(200, CAPTURED_CARD, { headers: { etag: 'W/"abc"', 'last-modified': 'Wed, 21 Oct 2026 07:28:00 GMT' } });
    mock.pool
      .intercept({ path: '/.well-known/agent-card.json' })
      .reply(304, '', { headers: { 'cache-control': 'max-age=60' } });
    const first = await fetchAgentCard(ORIGIN, { dispatcher: mock.agent });
    const second = await fetchAgentCard(ORIGIN, { dispatcher: mock.agent, previous: first });
    expect(second.card).toBe(first.card);
    expect(second.maxAgeSeconds).toBe(60);
    expect(mock.calls()[1]?.headers).toMatchObject({
      'if-none-match': 'W/"abc"',
      'if-modified-since': 'Wed, 21 Oct 2026 07:28:00 GMT',
    });
  });

  it('normalises a 0.3 card served at the well-known path', async () => {
    mock.pool.intercept({ path: '/.well-known/agent-card.json' }).reply(200, V03_CARD);
    const { card: fetched } = await fetchAgentCard(ORIGIN, { dispatcher: mock.agent });
    expect(fetched.supportedInterfaces[0]).toEqual({
      url: 'https://legacy.test/a2a',
      protocolBinding: 'JSONRPC',
      protocolVersion: '0.3',
    });
  });

  it('reports a missing card as a non-retryable HTTP error and a broken one as an invalid response', async () => {
    mock.pool.intercept({ path: '/.well-known/agent-card.json' }).reply(404, 'Cannot GET');
    await expect(fetchAgentCard(ORIGIN, { dispatcher: mock.agent })).rejects.toMatchObject({
      code: 'HTTP_STATUS',
      status: 404,
      retryable: false,
    });
    mock.pool.intercept({ path: '/.well-known/agent-card.json' }).reply(200, '<html>');
    await expect(fetchAgentCard(ORIGIN, { dispatcher: mock.agent })).rejects.toThrow(
      'GetAgentCard from http://agent.test/.well-known/agent-card.json returned a body that is not JSON',
    );
  });

  it('refuses a card over maxCardBytes, non-retryably, naming the limit and A2A_MAX_CARD_BYTES', async () => {
    const big = { ...CAPTURED_CARD, description: 'd'.repeat(2 * 1024 * 1024) };
    mock.pool.intercept({ path: '/.well-known/agent-card.json' }).reply(200, big);
    await expect(fetchAgentCard(ORIGIN, { dispatcher: mock.agent })).rejects.toMatchObject({
      code: 'RESPONSE_TOO_LARGE',
      retryable: false,
      limit: 'maxCardBytes',
      message: expect.stringContaining('sent an agent card larger than 1 MiB') as unknown,
    });
    mock.pool.intercept({ path: '/.well-known/agent-card.json' }).reply(200, big);
    const fetched = await fetchAgentCard(ORIGIN, { dispatcher: mock.agent, limits: { maxCardBytes: 4 * 1024 * 1024 } });
    expect(fetched.card.name).toBe('Node Setup Agent');
  });

  it('parses Cache-Control', () => {
    expect(parseMaxAge('public, max-age=3600')).toBe(3600);
    expect(parseMaxAge('no-cache')).toBe(0);
    expect(parseMaxAge('no-store, max-age=5')).toBe(0);
    expect(parseMaxAge(undefined)).toBeUndefined();
  });
});
