import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDependencyCompatAgent, type RunningAgent } from '../../../agents/index.js';
import { freePort } from '../../../platform/free-port.js';
import type { WebhookStats } from '../../../worker/webhook-stats.js';
import { answerUpdate, type DelegateResult } from '../../../contract/index.js';
import { compatRequest, startDelegate, statusOf, waitForQuestion } from '../../helpers/delegations.js';
import { uniqueTaskQueue, useTemporal } from '../../helpers/temporal.js';
import { SECRET, spawnCli, withPushWorker } from './support.js';

const temporal = useTemporal();
let agent: RunningAgent;

beforeAll(async () => {
  agent = await startDependencyCompatAgent({ port: 0, workDelayMs: 100, chunkDelayMs: 5 });
});
afterAll(() => agent?.close());

async function statsAt(base: string): Promise<WebhookStats> {
  return (await (await fetch(`${base}/a2a/push/stats`)).json()) as WebhookStats;
}

describe('the push CLI', () => {
  it('`worker --webhook-port` runs the receiver in the worker process and push delegations complete through it', async () => {
    const client = await temporal.client();
    const [port, statsPort] = [await freePort(), await freePort()];
    const base = `http://127.0.0.1:${port}`;
    const taskQueue = uniqueTaskQueue('push-cli');
    const agentsFile = join(mkdtempSync(join(tmpdir(), 'a2a-agents-')), 'agents.json');
    writeFileSync(agentsFile, JSON.stringify({ agents: { compat: { url: agent.baseUrl } } }));
    const worker = await spawnCli(
      [
        'worker',
        ...['--task-queue', taskQueue, '--agents-file', agentsFile],
        ...['--webhook-port', String(port), '--webhook-stats-port', String(statsPort)],
      ],
      { A2A_WEBHOOK_URL: base, A2A_WEBHOOK_SECRET: SECRET },
      'Webhook counters:',
    );
    try {
      expect(worker.output()).toContain(`Push: agents deliver to ${base}`);
      const handle = await startDelegate(
        client,
        taskQueue,
        compatRequest({ tracking: { pushSafetyNetInterval: '1 hour' } }),
      );
      await waitForQuestion(handle);
      expect((await statusOf(handle)).mode).toBe('push'); // auto: the card can push and the worker has a receiver
      await handle.executeUpdate(answerUpdate, { args: [{ text: 'Node.js 24' }] });
      expect((await handle.result()) as DelegateResult).toMatchObject({ state: 'TASK_STATE_COMPLETED', rounds: 1 });
      expect((await statsAt(`http://127.0.0.1:${statsPort}`)).signaled).toBeGreaterThanOrEqual(1);
      expect((await fetch(`${base}/a2a/push/stats`)).status).toBe(404); // not on the public listener
    } finally {
      expect(await worker.stop()).toBe(0);
    }
  });

  it('`webhook` runs the receiver on its own and refuses unverified deliveries', async () => {
    const client = await temporal.client();
    const [port, statsPort] = [await freePort(), await freePort()];
    const base = `http://127.0.0.1:${port}`;
    const stats = `http://127.0.0.1:${statsPort}`;
    const receiver = await spawnCli(
      ['webhook', '--port', String(port), '--stats-port', String(statsPort)],
      { A2A_WEBHOOK_SECRET: SECRET },
      'Press Ctrl-C to stop.',
    );
    try {
      expect(receiver.output()).toContain(`Webhook receiver at ${base}/a2a/push/<workflowId>/<taskId>/<configId>`);
      const forged = await fetch(`${base}/a2a/push/some-workflow/some-task/some-config`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: '{}',
      });
      expect(forged.status).toBe(401);
      const result = await withPushWorker(temporal, agent, base, async (taskQueue) => {
        const handle = await startDelegate(
          client,
          taskQueue,
          compatRequest({
            mode: 'push',
            text: 'Check for Node.js 24',
            // Still working when the config is registered, so its completion arrives as a delivery.
            metadata: { workDelayMs: 1000 },
            tracking: { pushSafetyNetInterval: '1 hour' },
          }),
        );
        return (await handle.result()) as DelegateResult;
      });
      expect(result).toMatchObject({ state: 'TASK_STATE_COMPLETED' });
      expect(receiver.output()).toContain(`Counters: ${stats}/a2a/push/stats`);
      expect(await statsAt(stats)).toMatchObject({ rejected: { unauthenticated: 1 } });
      expect((await statsAt(stats)).signaled).toBeGreaterThanOrEqual(1);
      expect(receiver.output()).toMatch(
        /webhook: refused POST \(401 unauthenticated\) for workflow "some-workflow" task "some-task"/,
      );
    } finally {
      expect(await receiver.stop()).toBe(0);
    }
  });

  it('`webhook` without a secret says what to set', async () => {
    const receiver = spawnCli(['webhook'], { A2A_WEBHOOK_SECRET: '' }, 'never');
    await expect(receiver).rejects.toThrow(/exited \(2\)[\s\S]*needs A2A_WEBHOOK_SECRET/);
  });
});
