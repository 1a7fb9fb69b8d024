import { TaskState } from '@a2a-js/sdk';
import type { Client } from '@a2a-js/sdk/client';
import { ClientFactory, JsonRpcTransportFactory, RestTransportFactory } from '@a2a-js/sdk/client';
import { parseLegacyAgentCard } from '@a2a-js/sdk/compat/v0_3/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAMPLE_MANIFEST, startDependencyCompatAgent, type RunningAgent } from '../../../agents/index.js';
import {
  assembleArtifacts,
  connect,
  sendForTask,
  statusStates,
  statusText,
  streamAll,
  TRANSPORTS,
  userMessage,
  type TransportName,
} from './support/sdk-client.js';

/** A client the way a 0.3 peer finds the agent: the card fetched without `A2A-Version`, 0.3 transports only. */
async function connectLegacy(agent: RunningAgent, transport: TransportName): Promise<Client> {
  const raw: unknown = await (await fetch(agent.cardUrl)).json();
  const legacyCompat = { enabled: true };
  const factory = new ClientFactory({
    transports: [new JsonRpcTransportFactory({ legacyCompat }), new RestTransportFactory({ legacyCompat })],
    preferredTransports: [transport],
  });
  return factory.createFromAgentCard(parseLegacyAgentCard(raw));
}

describe('a sample agent with legacy: true', () => {
  let agent: RunningAgent;

  beforeAll(async () => {
    agent = await startDependencyCompatAgent({ legacy: true, workDelayMs: 0, chunkDelayMs: 0 });
  });
  afterAll(() => agent.close());

  it('serves a 0.3 card to clients that send no A2A-Version', async () => {
    const card = (await (await fetch(agent.cardUrl)).json()) as Record<string, unknown>;
    expect(card).toMatchObject({
      protocolVersion: '0.3',
      url: `${agent.baseUrl}/a2a/jsonrpc`,
      preferredTransport: 'JSONRPC',
    });
  });

  it.each(TRANSPORTS)('runs the input-required flow with the SDK 0.3 client over %s', async (transport) => {
    const client = await connectLegacy(agent, transport);
    expect(client.protocolVersion).toBe('0.3');
    agent.resetStats();

    const first = await sendForTask(client, userMessage({ text: 'Analyse payment-service', data: SAMPLE_MANIFEST }));
    expect(first.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(statusText(first)).toContain('Which Node.js version should payment-service target?');

    const events = await streamAll(
      client,
      userMessage({ text: 'Node.js 24', taskId: first.id, contextId: first.contextId }),
    );
    expect(statusStates(events).at(-1)).toBe(TaskState.TASK_STATE_COMPLETED);
    const updates = events.flatMap((e) => (e.payload?.$case === 'artifactUpdate' ? [e.payload.value] : []));
    expect(updates.length).toBeGreaterThanOrEqual(3);
    expect(updates.at(-1)?.lastChunk).toBe(true);
    if (transport === 'JSONRPC')
      expect(assembleArtifacts(events).get('compatibility-report')?.chunks).toBe(updates.length);
    // (The SDK's 0.3 REST client drops `append` while translating events, so reassembly is only
    // checked over JSON-RPC here; the raw 0.3 REST wire is checked below.)
    const stored = await client.getTask({ tenant: '', id: first.id });
    expect(stored.artifacts[0]?.parts).toHaveLength(updates.length + 1);

    // The wire really was 0.3: 0.3 method names on JSON-RPC, the /v1 routes on REST.
    expect(Object.keys(agent.stats.byRoute)).toEqual(
      transport === 'JSONRPC'
        ? ['POST /a2a/jsonrpc message/send', 'POST /a2a/jsonrpc message/stream', 'POST /a2a/jsonrpc tasks/get']
        : ['POST /a2a/rest/v1/message:send', 'POST /a2a/rest/v1/message:stream', 'GET /a2a/rest/v1/tasks/:id'],
    );
    expect(agent.stats.messageIds).toHaveLength(2);
  });

  it('sends append and lastChunk on the 0.3 HTTP+JSON stream', async () => {
    const response = await fetch(`${agent.baseUrl}/a2a/rest/v1/message:stream`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({
        request: {
          messageId: 'legacy-raw-1',
          role: 'ROLE_USER',
          content: [{ text: 'Node.js 24' }, { data: { data: SAMPLE_MANIFEST } }],
        },
      }),
    });
    const events = (await response.text())
      .split('\n')
      .filter((line) => line.startsWith('data: '))
      .map(
        (line) =>
          JSON.parse(line.slice('data: '.length)) as { artifactUpdate?: { append?: boolean; lastChunk?: boolean } },
      );
    const flags = events.flatMap((e) =>
      e.artifactUpdate ? [[e.artifactUpdate.append ?? false, e.artifactUpdate.lastChunk ?? false]] : [],
    );
    expect(flags).toEqual([
      [false, false],
      [true, false],
      [true, true],
    ]);
  });

  it('still serves 1.0 clients', async () => {
    const client = await connect(agent, 'JSONRPC');
    expect(client.protocolVersion).toBe('1.0');
    const task = await sendForTask(client, userMessage({ text: 'Node.js 24', data: SAMPLE_MANIFEST }));
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
  });
});
