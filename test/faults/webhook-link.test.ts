/**
 * The agent → webhook receiver link (push mode): each cell is a sample agent whose deliveries
 * reach the receiver through a Toxiproxy proxy of their own (the worker registers the proxy's
 * address as the webhook URL), one fault, one push delegation. One receiver serves every cell and
 * a canary that delivers to it directly; every worker runs in this test process, on a task queue
 * of its own.
 *
 * A delivery lost on the link is lost for good (the SDK's sender does not retry), so the worker's
 * own safety net, a GetTask every `SAFETY_NET_S` when no push arrives, must finish the delegation:
 * every cell completes (also where the link never comes back), with one remote task, the message
 * sent once and every chunk once. The canary's pushes must keep waking it (its safety net is an
 * hour away) while every fault runs.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startDependencyCompatAgent, type RunningAgent } from '../../agents/index.js';
import type { DelegateResult } from '../../contract/index.js';
import type { RunningWebhookReceiver } from '../../worker/webhook-receiver.js';
import { a2aTemporalPlugin } from '../../worker/plugin.js';
import { registryOf } from '../helpers/delegations.js';
import { uniqueTaskQueue, useTemporal } from '../helpers/temporal.js';
import { startToxiproxy, type RunningToxiproxy } from '../helpers/toxiproxy.js';
import { historyOf, SECRET, startReceiver, taskUpdatedSignals } from '../integration/push/support.js';
import { writeCells, type CellRecord } from './fault-matrix.js';
import { FAULTS } from './faults.js';
import { AGENT_PACE, cellRequest, runCanaries, runCell, settle, startDelegation, underWay } from './support.js';

/** The delegations' safety net: how long a push delegation waits for a delivery before it reads the task itself. */
const SAFETY_NET_S = 10;
/** On top of the safety net, where the link never comes back: the read, and the workflow's end on a loaded machine. */
const SAFETY_NET_SLACK_S = 10;
/**
 * The canary's safety net is an hour away, so ending within this means its pushes woke it (on a
 * machine at load average 40 a canary took 17 s).
 */
const CANARY_WITHIN_S = 60;

const temporal = useTemporal();
const records: CellRecord[] = [];
const cleanups: Array<() => Promise<unknown>> = [];
let toxiproxy: RunningToxiproxy;
let receiver: RunningWebhookReceiver;
let reference: DelegateResult;
let remaining = FAULTS.length;

vi.setConfig({ maxConcurrency: 50 });

/** A worker on `taskQueue` delegating to `agent`, registering `publicUrl` as the webhook; it stops when the file ends. */
async function startPushWorker(taskQueue: string, agent: RunningAgent, publicUrl: string): Promise<void> {
  const worker = await temporal.worker({
    taskQueue,
    plugins: [a2aTemporalPlugin({ registry: registryOf({ compat: agent }), webhook: { publicUrl, secret: SECRET } })],
  });
  const running = worker.run();
  cleanups.push(async () => {
    if (worker.getState() === 'RUNNING') worker.shutdown();
    await running.catch(() => undefined);
  });
}

beforeAll(async () => {
  toxiproxy = await startToxiproxy();
  const client = await temporal.client();
  receiver = await startReceiver(client);
  cleanups.push(() => receiver.close());
  const agent = await startDependencyCompatAgent({ port: 0, ...AGENT_PACE, chunkDelayMs: 100 });
  cleanups.push(() => agent.close());
  const taskQueue = uniqueTaskQueue('faults-webhook-reference');
  await startPushWorker(taskQueue, agent, receiver.url);
  const settled = await settle(
    await startDelegation(
      client,
      taskQueue,
      taskQueue,
      cellRequest('compat', 'push', { tracking: { pushSafetyNetInterval: '1 hour' } }),
    ),
  );
  if (!settled.result) throw new Error(`the undisturbed delegation failed: ${settled.failure}`);
  reference = settled.result;
});

afterAll(async () => {
  writeCells('webhook-link', records);
  for (const cleanup of cleanups.reverse()) await cleanup();
  await toxiproxy?.stop();
});

describe('agent → webhook receiver', () => {
  for (const fault of FAULTS) {
    it.concurrent(fault.label, async () => {
      try {
        const client = await temporal.client();
        const taskQueue = uniqueTaskQueue(`faults-webhook-${fault.id}`);
        const agent = await startDependencyCompatAgent({ port: 0, ...AGENT_PACE });
        cleanups.push(() => agent.close());
        const link = await toxiproxy.link(`webhook-${fault.id}`, `127.0.0.1:${receiver.port}`);
        await startPushWorker(taskQueue, agent, `http://${link.listen}`);
        const record = await runCell(
          {
            client,
            link: 'agent → webhook receiver',
            mode: 'push',
            // The worker cannot see a delivery that never came: nothing is wrong for `status` to show.
            fault: { ...fault, breaks: false },
            faulty: link,
            agent,
            endless: { expect: 'completed', withinS: SAFETY_NET_S + SAFETY_NET_SLACK_S },
            start: () =>
              startDelegation(
                client,
                taskQueue,
                taskQueue,
                cellRequest('compat', 'push', { tracking: { pushSafetyNetInterval: `${SAFETY_NET_S} seconds` } }),
              ),
            underWay: (handle) => underWay(handle, 'push'),
          },
          reference,
        );
        const signals = taskUpdatedSignals(await historyOf(client.workflow.getHandle(taskQueue))).length;
        record.note = `${signals} push signal${signals === 1 ? '' : 's'} reached it`;
        records.push(record);
        expect(record.problems ?? []).toEqual([]);
      } finally {
        remaining -= 1;
      }
    });
  }

  it.concurrent("keeps serving the canary's pushes while every fault runs", async () => {
    const client = await temporal.client();
    const agent = await startDependencyCompatAgent({ port: 0, ...AGENT_PACE, chunkDelayMs: 100 });
    cleanups.push(() => agent.close());
    const taskQueue = uniqueTaskQueue('faults-webhook-canary');
    await startPushWorker(taskQueue, agent, receiver.url);
    const { seconds, failures, slowest } = await runCanaries(
      client,
      taskQueue,
      cellRequest('compat', 'push', { tracking: { pushSafetyNetInterval: '1 hour' } }),
      () => remaining > 0,
      CANARY_WITHIN_S,
    );
    const stats = receiver.stats();
    records.push({
      link: 'agent → webhook receiver',
      fault: 'none (beside every cell above)',
      mode: 'push',
      expected: 'completed',
      outcome: failures.length === 0 ? 'completed' : failures[0]!,
      seconds: slowest,
      ok: failures.length === 0,
      note: `${seconds.length} canaries woken by their pushes, slowest ${slowest.toFixed(1)} s; receiver: ${stats.received} received, ${stats.signaled} signalled, ${stats.coalesced} coalesced, ${stats.connections.timedOut} connections timed out`,
    });
    expect(failures).toEqual([]);
  });
});
