/**
 * A long push delegation continues as new when Temporal suggests it, and the next run follows
 * the same task with the same push config. Runs on a dev server of its own that suggests
 * continue-as-new after a few events (the shared one uses the default of thousands).
 */
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDependencyCompatAgent, type RunningAgent } from '../../../agents/index.js';
import { startDevServer, type DevServer } from '../../../platform/dev-server.js';
import { a2aTemporalPlugin } from '../../../worker/plugin.js';
import type { RunningWebhookReceiver } from '../../../worker/webhook-receiver.js';
import type { DelegateResult } from '../../../contract/index.js';
import { compatRequest, registryOf } from '../../helpers/delegations.js';
import { temporalServer, uniqueTaskQueue } from '../../helpers/temporal.js';
import { activitiesIn, pushConfigsAt, registrationsIn, type HistoryEvent, SECRET, startReceiver } from './support.js';

let server: DevServer;
let connection: Connection;
let native: NativeConnection;
let client: Client;
let agent: RunningAgent;
let receiver: RunningWebhookReceiver;

beforeAll(async () => {
  server = await startDevServer({
    port: 0,
    uiPort: false,
    cliPath: temporalServer().cliPath,
    extraArgs: ['--dynamic-config-value', 'limit.historyCount.suggestContinueAsNew=40'],
  });
  connection = await Connection.connect({ address: server.address });
  native = await NativeConnection.connect({ address: server.address });
  client = new Client({ connection, namespace: server.namespace });
  agent = await startDependencyCompatAgent({ port: 0, workDelayMs: 0, chunkDelayMs: 0 });
  receiver = await startReceiver(client);
});
afterAll(async () => {
  await receiver?.close();
  await agent?.close();
  await native?.close();
  await connection?.close();
  await server?.stop();
});

describe('a long push delegation', () => {
  it('continues as new between reads and keeps following the task with the same push config', async () => {
    const taskQueue = uniqueTaskQueue('push-can');
    const worker = await Worker.create({
      connection: native,
      namespace: server.namespace,
      taskQueue,
      workflowBundle: { codePath: temporalServer().workflowBundlePath },
      plugins: [
        a2aTemporalPlugin({
          registry: registryOf({ compat: agent }),
          webhook: { publicUrl: receiver.url, secret: SECRET },
        }),
      ],
    });
    const { result, runs, registrations } = await worker.runUntil(async () => {
      // The agent works for 8 s; the safety net reads about once a second (the dev server's timers
      // fire on the second), six events a read, so history passes 40 events on the way.
      const request = compatRequest({
        mode: 'push',
        text: 'Check for Node.js 24',
        metadata: { workDelayMs: 8_000 },
        tracking: { pushSafetyNetInterval: '200 milliseconds' },
      });
      const handle = await client.workflow.start('delegate', {
        taskQueue,
        workflowId: `${taskQueue}-delegate`,
        args: [request],
      });
      const result = (await handle.result()) as DelegateResult;
      // Every run, from the first along the continued-as-new chain.
      const runs: string[][] = [];
      let registrations = 0;
      for (let runId: string | undefined = handle.firstExecutionRunId; runId;) {
        const events: HistoryEvent[] =
          (await client.workflow.getHandle(handle.workflowId, runId).fetchHistory()).events ?? [];
        runs.push(activitiesIn(events));
        registrations += registrationsIn(events);
        runId =
          events.find((e: HistoryEvent) => e.workflowExecutionContinuedAsNewEventAttributes)
            ?.workflowExecutionContinuedAsNewEventAttributes?.newExecutionRunId ?? undefined;
      }
      return { result, runs, registrations };
    });
    expect(result).toMatchObject({ state: 'TASK_STATE_COMPLETED', kind: 'task' });
    expect(runs.length).toBeGreaterThan(1);
    const all = runs.flat();
    expect(all.filter((a) => a === 'sendMessage')).toHaveLength(1);
    // One config across every run, registered by the send; it ended with the task (nothing deletes it).
    expect(registrations).toBe(1);
    expect(all.filter((a) => a === 'registerPushConfig' || a === 'deletePushConfig')).toEqual([]);
    expect(await pushConfigsAt(agent, result.taskId!)).toHaveLength(1);
  });
});
