import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDependencyCompatAgent, type RunningAgent } from '../../../agents/index.js';
import { a2aTemporalPlugin } from '../../../worker/plugin.js';
import { answerUpdate, type DelegateResult } from '../../../contract/index.js';
import { compatRequest, registryOf, startDelegate, waitForQuestion } from '../../helpers/delegations.js';
import { historyText } from '../../helpers/history-text.js';
import { uniqueTaskQueue, useTemporal } from '../../helpers/temporal.js';

const temporal = useTemporal();
const token = `tok-${randomUUID()}`;
const tokenEnv = `A2A_TEST_TOKEN_${randomUUID().slice(0, 8).toUpperCase()}`;
let agent: RunningAgent;

beforeAll(async () => {
  process.env[tokenEnv] = token;
  agent = await startDependencyCompatAgent({ port: 0, workDelayMs: 0, chunkDelayMs: 0, bearerToken: token });
});
afterAll(async () => {
  delete process.env[tokenEnv];
  await agent?.close();
});

describe('agent credentials', () => {
  it('reach the agent on every request but never the workflow history', async () => {
    const client = await temporal.client();
    const taskQueue = uniqueTaskQueue('secrets');
    const registry = registryOf({ compat: agent }, { compat: { tokenEnv } });
    const worker = await temporal.worker({ taskQueue, plugins: [a2aTemporalPlugin({ registry })] });
    const handle = await worker.runUntil(async () => {
      const h = await startDelegate(client, taskQueue, compatRequest({ mode: 'stream' }));
      await waitForQuestion(h);
      await h.executeUpdate(answerUpdate, { args: [{ text: 'Node.js 24' }] });
      expect(((await h.result()) as DelegateResult).state).toBe('TASK_STATE_COMPLETED');
      return h;
    });
    // The agent refuses calls without the token, so completing proves it was sent.
    const text = historyText(await handle.fetchHistory());
    expect(text).toContain('payment-service'); // payloads were decoded: the request text is there
    expect(text).not.toContain(token);
    expect(text).not.toContain(Buffer.from(token).toString('base64'));
  });

  it('are refused by the agent when missing, with a failure that does not leak them', async () => {
    const client = await temporal.client();
    const taskQueue = uniqueTaskQueue('no-secret');
    const worker = await temporal.worker({
      taskQueue,
      plugins: [a2aTemporalPlugin({ registry: registryOf({ compat: agent }) })],
    });
    const error = await worker.runUntil(
      startDelegate(client, taskQueue, compatRequest({ text: 'Check for Node.js 24' })).then((h) =>
        h.result().then(
          () => undefined,
          (e: unknown) => e,
        ),
      ),
    );
    const cause = (error as { cause?: { type?: string; message: string } }).cause;
    expect(cause?.type).toBe('A2A_UNAUTHENTICATED');
    expect(cause?.message).not.toContain(token);
  });
});
