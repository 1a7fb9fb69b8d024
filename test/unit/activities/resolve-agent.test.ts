import { MockActivityEnvironment } from '@temporalio/testing';
import { ApplicationFailure } from '@temporalio/common';
import { MockAgent } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { createActivities, AgentRegistry, type AgentsFile } from '../../../activities/index.js';
import type { ResolvedAgent } from '../../../contract/delegation-types.js';

const ORIGIN = 'https://agent.example.com';

/** A valid card of about `bytes` bytes (its skills carry the bulk). */
function bigCard(bytes: number) {
  const skill = { id: 's', name: 'skill', description: 'x'.repeat(1000), tags: ['t'] };
  return {
    name: 'Big Agent',
    description: 'd'.repeat(1000),
    version: '1.0.0',
    supportedInterfaces: [{ url: `${ORIGIN}/a2a/rest`, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' }],
    capabilities: { streaming: true, pushNotifications: false, extensions: [{ uri: 'x'.repeat(2000) }] },
    securitySchemes: { key: { apiKeySecurityScheme: { location: 'header', name: 'X-API-Key' } } },
    securityRequirements: [{ schemes: { key: { list: [] } } }],
    skills: Array.from({ length: Math.ceil(bytes / 1050) }, (_, i) => ({ ...skill, id: `s${i}` })),
  };
}

let mock: MockAgent;
afterEach(async () => mock?.close());

async function resolve(
  card: unknown,
  file: AgentsFile,
  env: NodeJS.ProcessEnv = {},
  agent = 'big',
  extended?: { status: number; body: unknown },
) {
  mock = new MockAgent();
  mock.disableNetConnect();
  const json = { headers: { 'content-type': 'application/json' } };
  mock.get(ORIGIN).intercept({ path: '/.well-known/agent-card.json' }).reply(200, JSON.stringify(card), json);
  if (extended)
    mock
      .get(ORIGIN)
      .intercept({ path: '/a2a/rest/extendedAgentCard' })
      .reply(extended.status, JSON.stringify(extended.body), json);
  const activities = createActivities({
    registry: new AgentRegistry(file, env),
    dispatcher: mock,
    limits: { maxCardBytes: 4 * 1024 * 1024 },
  });
  return new MockActivityEnvironment().run(activities['a2a.resolveAgent'], { agent }) as Promise<ResolvedAgent>;
}

describe('resolveAgent', () => {
  it('records a 2.6 MB card as a few hundred bytes, keeping the paths workflows read', async () => {
    const card = bigCard(2.6 * 1024 * 1024);
    expect(JSON.stringify(card).length).toBeGreaterThan(2.6 * 1024 * 1024);
    const resolved = await resolve(
      card,
      {
        agents: { big: { url: ORIGIN, auth: { type: 'apiKey', name: 'X-API-Key', valueEnv: 'KEY' } } },
      },
      { KEY: 'key-value-1' },
    );
    expect(JSON.stringify(resolved).length).toBeLessThan(1024);
    expect(resolved.card).toEqual({ name: 'Big Agent', capabilities: { streaming: true, pushNotifications: false } });
    expect(resolved.card.capabilities.pushNotifications).toBe(false);
    expect(resolved.endpoint).toMatchObject({
      url: `${ORIGIN}/a2a/rest`,
      binding: 'HTTP+JSON',
      protocolVersion: '1.0',
    });
    expect(resolved.endpoint.security?.description).toBe('scheme "key" (API key X-API-Key in header)');
    expect(resolved).toMatchObject({ name: 'big', autoMode: 'stream' });
  });

  it('fails before sending anything when the card requires a scheme the entry does not provide', async () => {
    const err = await resolve(bigCard(1000), { agents: { big: { url: ORIGIN } } }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ApplicationFailure);
    expect((err as ApplicationFailure).type).toBe('A2A_SECURITY_REQUIREMENTS_UNMET');
    expect((err as ApplicationFailure).nonRetryable).toBe(true);
    expect((err as Error).message).toContain(
      'requires scheme "key" (API key X-API-Key in header), but the agents file provides no credentials',
    );
  });
});

describe('resolveAgent with an extended card', () => {
  const withExtended = { ...bigCard(1000), capabilities: { extendedAgentCard: true } };
  const file: AgentsFile = {
    agents: { big: { url: ORIGIN, auth: { type: 'apiKey', name: 'X-API-Key', valueEnv: 'KEY' } } },
  };

  it('uses the extended card in place of the public one', async () => {
    const extended = { ...withExtended, name: 'Big Agent (for members)', capabilities: { streaming: true } };
    const resolved = await resolve(withExtended, file, { KEY: 'key-value-1' }, 'big', { status: 200, body: extended });
    expect(resolved.card).toEqual({ name: 'Big Agent (for members)', capabilities: { streaming: true } });
    expect(resolved.autoMode).toBe('stream');
  });

  it('keeps the public card when the agent says it has no extended card after all', async () => {
    const notConfigured = {
      error: {
        code: 400,
        status: 'FAILED_PRECONDITION',
        message: 'no extended card',
        details: [
          {
            '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
            reason: 'EXTENDED_AGENT_CARD_NOT_CONFIGURED',
            domain: 'a2a-protocol.org',
          },
        ],
      },
    };
    const resolved = await resolve(withExtended, file, { KEY: 'key-value-1' }, 'big', {
      status: 400,
      body: notConfigured,
    });
    expect(resolved.card.name).toBe('Big Agent');
  });
});

describe('resolveAgent choosing a binding', () => {
  const card = {
    name: 'Both',
    supportedInterfaces: [
      { url: 'agent.example.com:50051', protocolBinding: 'GRPC', protocolVersion: '1.0' },
      { url: `${ORIGIN}/a2a/rest`, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
    ],
  };
  const grpcOrigin = 'https://agent.example.com:50051';

  it('keeps HTTP+JSON by default, and takes gRPC where the entry prefers it and allows its port', async () => {
    expect((await resolve(card, { agents: { big: { url: ORIGIN } } })).endpoint.binding).toBe('HTTP+JSON');
    const preferred = await resolve(card, {
      agents: { big: { url: ORIGIN, bindings: ['GRPC', 'HTTP+JSON'], allowOrigins: [grpcOrigin] } },
    });
    // A bare host:port speaks the card's scheme: TLS here.
    expect(preferred.endpoint).toMatchObject({ binding: 'GRPC', url: grpcOrigin, protocolVersion: '1.0' });
  });

  it('passes over a gRPC port the entry does not allow, and never uses gRPC for an agent named by URL', async () => {
    const unlisted = await resolve(card, { agents: { big: { url: ORIGIN, bindings: ['GRPC', 'HTTP+JSON'] } } });
    expect(unlisted.endpoint.binding).toBe('HTTP+JSON');
    const grpcOnly = { ...card, supportedInterfaces: [card.supportedInterfaces[0]!] };
    const refused = await resolve(grpcOnly, { agents: {} }, {}, ORIGIN).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(refused).toMatchObject({ type: 'A2A_OUTBOUND_REFUSED' });
    expect((refused as Error).message).toMatch(/offers only gRPC.*agents file/);
  });
});
