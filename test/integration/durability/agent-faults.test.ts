import { createServer } from 'node:net';
import { WorkflowFailedError } from '@temporalio/client';
import { afterEach, describe, expect, it } from 'vitest';
import { startDependencyCompatAgent, type RunningAgent } from '../../../agents/index.js';
import { freePort } from '../../../platform/free-port.js';
import { a2aTemporalPlugin } from '../../../worker/plugin.js';
import type { DelegateResult } from '../../../contract/index.js';
import { compatRequest, registryOf, startDelegate, statusOf } from '../../helpers/delegations.js';
import { cardFor, json, startScriptedServer, type ScriptedServer } from '../../helpers/scripted-http.js';
import { uniqueTaskQueue, useTemporal } from '../../helpers/temporal.js';
import { waitFor } from '../../helpers/wait.js';

const temporal = useTemporal();
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((c) => c()));
});

async function failureOf(agents: Record<string, { baseUrl: string }>, agentName: string) {
  const client = await temporal.client();
  const taskQueue = uniqueTaskQueue('faults');
  const worker = await temporal.worker({ taskQueue, plugins: [a2aTemporalPlugin({ registry: registryOf(agents) })] });
  const error = await worker.runUntil(
    startDelegate(client, taskQueue, compatRequest({ agent: agentName, text: 'Check for Node.js 24' })).then((h) =>
      h.result().then(
        () => undefined,
        (err: unknown) => err,
      ),
    ),
  );
  expect(error).toBeInstanceOf(WorkflowFailedError);
  return { cause: (error as WorkflowFailedError).cause as { type?: string; message: string; nonRetryable?: boolean } };
}

describe('agent faults', () => {
  it('waits out an agent that is unreachable for a while, then completes', async () => {
    const client = await temporal.client();
    const port = await freePort();
    // Until the agent starts, its port drops every connection; counting them shows the retries.
    const attempts: number[] = [];
    const refusing = createServer((socket) => {
      attempts.push(Date.now());
      socket.destroy();
    });
    await new Promise<void>((resolve) => refusing.listen(port, '127.0.0.1', resolve));
    const taskQueue = uniqueTaskQueue('unreachable');
    const worker = await temporal.worker({
      taskQueue,
      plugins: [a2aTemporalPlugin({ registry: registryOf({ compat: { baseUrl: `http://127.0.0.1:${port}` } }) })],
    });
    const result = await worker.runUntil(async () => {
      const handle = await startDelegate(client, taskQueue, compatRequest({ text: 'Check for Node.js 24' }));
      await waitFor(() => attempts.length >= 2, { what: 'two failed attempts to reach the agent' });
      expect((await statusOf(handle)).phase).toBe('resolving');
      await new Promise<void>((resolve) => refusing.close(() => resolve()));
      const agent: RunningAgent = await startDependencyCompatAgent({ port, workDelayMs: 0, chunkDelayMs: 0 });
      cleanups.push(() => agent.close());
      return (await handle.result()) as DelegateResult;
    });
    expect(result.state).toBe('TASK_STATE_COMPLETED');
  });

  it('fails fast, naming the field, when the agent card is garbage', async () => {
    const server: ScriptedServer = await startScriptedServer({
      'GET /.well-known/agent-card.json': json(200, { name: 42, supportedInterfaces: 'nope' }),
    });
    cleanups.push(() => server.close());
    const { cause } = await failureOf({ broken: server }, 'broken');
    expect(cause.type).toBe('A2A_INVALID_AGENT_RESPONSE');
    expect(cause.nonRetryable).toBe(true);
    expect(cause.message).toMatch(/Agent "broken".*card/i);
    expect(server.requests).toEqual(['GET /.well-known/agent-card.json']); // one attempt: not retried
  });

  it('fails fast, naming the field and the value, when the agent returns a schema-invalid task', async () => {
    const server: ScriptedServer = await startScriptedServer({
      'GET /.well-known/agent-card.json': (req, res) => json(200, cardFor(server.baseUrl))(req, res, ''),
      'POST /a2a/rest/message:send': json(200, { task: { id: 'T1', contextId: 'C1', status: { state: 'done' } } }),
    });
    cleanups.push(() => server.close());
    const { cause } = await failureOf({ broken: server }, 'broken');
    expect(cause.type).toBe('A2A_INVALID_AGENT_RESPONSE');
    expect(cause.message).toMatch(/status\.state/);
    expect(cause.message).toMatch(/"done"/);
    expect(server.requests.filter((r) => r === 'POST /a2a/rest/message:send')).toHaveLength(1);
  });
});
