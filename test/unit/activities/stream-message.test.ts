import { MockActivityEnvironment } from '@temporalio/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { AgentRegistry, createActivities } from '../../../activities/index.js';
import type { TurnInput, TurnOutcome } from '../../../activities/turn.js';
import { mockAgent, ORIGIN, SSE_HEADERS, sseBody, type MockedAgent } from '../a2a/helpers/mock-agent.js';

let agent: MockedAgent;
afterEach(async () => agent?.close());

const input: TurnInput = {
  agent: { name: 'compat', endpoint: { url: `${ORIGIN}/a2a/rest`, binding: 'HTTP+JSON', protocolVersion: '1.0' } },
  message: { messageId: 'm-1', role: 'ROLE_USER', parts: [{ text: 'check payment-service' }] },
  roundMs: 60_000,
  pollInitialMs: 100,
  pollMaxMs: 1000,
};

describe('streamMessage', () => {
  it('asks the agent for the task without its message history', async () => {
    agent = mockAgent();
    const task = { id: 't-1', contextId: 'c-1', status: { state: 'TASK_STATE_COMPLETED' } };
    agent.pool
      .intercept({ path: '/a2a/rest/message:stream', method: 'POST' })
      .reply(200, sseBody({ task }), SSE_HEADERS);
    const activities = createActivities({
      registry: new AgentRegistry({ agents: { compat: { url: ORIGIN, allowInsecure: true } } }),
      dispatcher: agent.agent,
    });

    const outcome = (await new MockActivityEnvironment().run(activities['a2a.streamMessage'], input)) as TurnOutcome;

    expect(outcome).toMatchObject({ kind: 'task', phase: 'completed', task: { id: 't-1' } });
    const [send] = agent.calls();
    expect(send?.body).toMatchObject({ message: { messageId: 'm-1' }, configuration: { historyLength: 0 } });
  });
});
