/** Discovery against the sample agent: fetch, validate, revalidate, select. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDependencyCompatAgent, type RunningAgent } from '../../../agents/index.js';
import { fetchAgentCard, selectInterface } from '../../../a2a/index.js';

let agent: RunningAgent;
let legacyAgent: RunningAgent;

beforeAll(async () => {
  [agent, legacyAgent] = await Promise.all([
    startDependencyCompatAgent({ port: 0 }),
    startDependencyCompatAgent({ port: 0, legacy: true }),
  ]);
});

afterAll(async () => {
  await Promise.all([agent?.close(), legacyAgent?.close()]);
});

describe('fetchAgentCard against the official SDK', () => {
  it('fetches and validates the card from the base URL, and picks HTTP+JSON 1.0', async () => {
    const fetched = await fetchAgentCard(agent.baseUrl);
    expect(fetched.cardUrl).toBe(agent.cardUrl);
    expect(fetched.card.capabilities).toMatchObject({ streaming: true, pushNotifications: true });
    expect(fetched.maxAgeSeconds).toBe(3600);
    expect(fetched.etag).toMatch(/^W\//);
    expect(selectInterface(fetched.card)).toEqual({
      url: `${agent.baseUrl}/a2a/rest`,
      binding: 'HTTP+JSON',
      protocolVersion: '1.0',
    });
  });

  it('revalidates with the ETag and keeps the previous card on 304', async () => {
    const first = await fetchAgentCard(agent.cardUrl);
    const second = await fetchAgentCard(agent.cardUrl, { previous: first });
    expect(second.card).toBe(first.card);
  });

  it('lists the 0.3 interfaces of an agent in legacy mode, and still prefers 1.0', async () => {
    const { card } = await fetchAgentCard(legacyAgent.baseUrl);
    expect(card.supportedInterfaces.map((i) => `${i.protocolBinding} ${i.protocolVersion}`)).toEqual([
      'JSONRPC 1.0',
      'HTTP+JSON 1.0',
      'JSONRPC 0.3',
      'HTTP+JSON 0.3',
    ]);
    expect(selectInterface(card).protocolVersion).toBe('1.0');
    expect(selectInterface(card, { versions: ['0.3'], bindings: ['JSONRPC'] })).toEqual({
      url: `${legacyAgent.baseUrl}/a2a/jsonrpc`,
      binding: 'JSONRPC',
      protocolVersion: '0.3',
    });
  });
});
