/**
 * The worker → Temporal link: each cell is a worker of its own whose connection to the server
 * goes through a Toxiproxy proxy, on a task queue of its own, delegating to an agent of its own
 * (so its tasks and sends are counted alone). All cells run at once in this test process. Where
 * the link never comes back, a second worker with a healthy connection joins the task queue and
 * must finish the delegation without sending twice.
 */
import { NativeConnection, Worker } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startDependencyCompatAgent, type RunningAgent } from '../../agents/index.js';
import type { DelegateResult } from '../../contract/index.js';
import { a2aTemporalPlugin } from '../../worker/plugin.js';
import { registryOf } from '../helpers/delegations.js';
import { uniqueTaskQueue, useTemporal } from '../helpers/temporal.js';
import { startToxiproxy, type RunningToxiproxy } from '../helpers/toxiproxy.js';
import { writeCells, type CellRecord } from './fault-matrix.js';
import { FAULTS } from './faults.js';
import { AGENT_PACE, cellRequest, runCell, settle, startDelegation, underWay } from './support.js';

const MODE = 'stream';
/**
 * Seconds of latency between a worker and Temporal delay the activity task itself: its first
 * heartbeat reaches the server 2-3.5 s after the attempt started. A user on such a link raises the
 * heartbeat timeout above that round trip (docs/network-faults.md); every cell here does.
 */
const SLOW_LINK_TRACKING = { heartbeatTimeout: '5 seconds' };

const temporal = useTemporal();
const records: CellRecord[] = [];
const cleanups: Array<() => Promise<unknown>> = [];
let toxiproxy: RunningToxiproxy;
let reference: DelegateResult;

vi.setConfig({ maxConcurrency: 50 });

/** A worker on `taskQueue` whose Temporal connection goes to `address`; it stops when the file ends. */
async function startWorker(address: string, taskQueue: string, agent: RunningAgent): Promise<void> {
  const connection = await NativeConnection.connect({ address });
  const worker = await Worker.create({
    connection,
    namespace: temporal.server.namespace,
    taskQueue,
    workflowBundle: { codePath: temporal.server.workflowBundlePath },
    plugins: [a2aTemporalPlugin({ registry: registryOf({ compat: agent }) })],
  });
  const running = worker.run();
  cleanups.push(async () => {
    if (worker.getState() === 'RUNNING') worker.shutdown();
    await running.catch(() => undefined);
    await connection.close();
  });
}

beforeAll(async () => {
  toxiproxy = await startToxiproxy();
  const client = await temporal.client();
  const agent = await startDependencyCompatAgent({ port: 0, ...AGENT_PACE, chunkDelayMs: 100 });
  cleanups.push(() => agent.close());
  const taskQueue = uniqueTaskQueue('faults-temporal-reference');
  await startWorker(temporal.server.address, taskQueue, agent);
  const settled = await settle(await startDelegation(client, taskQueue, taskQueue, cellRequest('compat', MODE)));
  if (!settled.result) throw new Error(`the undisturbed delegation failed: ${settled.failure}`);
  reference = settled.result;
});

afterAll(async () => {
  writeCells('temporal-link', records);
  for (const cleanup of cleanups.reverse()) await cleanup();
  await toxiproxy?.stop();
});

describe('worker → Temporal', () => {
  for (const fault of FAULTS) {
    it.concurrent(fault.label, async () => {
      const client = await temporal.client();
      const taskQueue = uniqueTaskQueue(`faults-temporal-${fault.id}`);
      const agent = await startDependencyCompatAgent({ port: 0, ...AGENT_PACE });
      cleanups.push(() => agent.close());
      const link = await toxiproxy.link(`temporal-${fault.id}`, temporal.server.address);
      await startWorker(link.listen, taskQueue, agent);
      const record = await runCell(
        {
          client,
          link: 'worker → Temporal',
          mode: MODE,
          fault,
          faulty: link,
          agent,
          // A worker cut off for good does not fail the delegation: another worker finishes it.
          endless: { expect: 'completed', rescue: () => startWorker(temporal.server.address, taskQueue, agent) },
          start: () =>
            startDelegation(
              client,
              taskQueue,
              taskQueue,
              cellRequest('compat', MODE, { tracking: SLOW_LINK_TRACKING }),
            ),
          underWay: (handle) => underWay(handle, MODE),
        },
        reference,
      );
      records.push(record);
      expect(record.problems ?? []).toEqual([]);
    });
  }
});
