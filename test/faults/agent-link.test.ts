/**
 * The worker → agent link, for every binding and tracking mode: each cell is one sample agent
 * behind a Toxiproxy proxy of its own, one fault, one delegation, all cells at once on one worker
 * process (the real CLI `worker`, with the push receiver in it). Beside them, canary delegations
 * to an undisturbed agent prove the worker keeps serving the others.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AgentsFile } from '../../activities/index.js';
import { startDependencyCompatAgent, type RunningAgent } from '../../agents/index.js';
import type { DelegateResult } from '../../contract/index.js';
import { freePort } from '../../platform/free-port.js';
import { uniqueTaskQueue, useTemporal } from '../helpers/temporal.js';
import { startToxiproxy, type FaultyLink, type RunningToxiproxy } from '../helpers/toxiproxy.js';
import { spawnWorkerProcess, type WorkerProcess } from '../helpers/worker-process.js';
import { writeCells, type CellRecord } from './fault-matrix.js';
import { FAULTS, type Fault } from './faults.js';
import { AGENT_PACE, cellRequest, runCanaries, runCell, settle, startDelegation, underWay } from './support.js';

const MODES = ['stream', 'poll', 'push'] as const;
const BINDINGS = ['HTTP+JSON', 'JSONRPC', 'GRPC'] as const;
/** How long the agent may stay silent before a cell whose link never comes back must fail. */
const UNREACHABLE_S = 15;
/** On top: the poll that first finds the link broken (poll mode waits up to 5 s between reads), and the workflow's end. */
const UNREACHABLE_SLACK_S = 10;
/** Push mode's first try of a read, a local activity (workflows/delegate/activity-proxies.ts). */
const LOCAL_READ_S = 5;

interface Cell {
  name: string;
  binding: (typeof BINDINGS)[number];
  mode: (typeof MODES)[number];
  fault: Fault;
  agent: RunningAgent;
  link: FaultyLink;
}

const temporal = useTemporal();
const taskQueue = uniqueTaskQueue('faults-agent');
const cells: Cell[] = [];
const records: CellRecord[] = [];
let toxiproxy: RunningToxiproxy;
let healthy: RunningAgent;
let worker: WorkerProcess;
let reference: DelegateResult;
let remaining = 0;

vi.setConfig({ maxConcurrency: 200 });

beforeAll(async () => {
  toxiproxy = await startToxiproxy();
  healthy = await startDependencyCompatAgent({ port: 0, ...AGENT_PACE, chunkDelayMs: 100 });
  for (const binding of BINDINGS)
    for (const mode of MODES)
      for (const fault of FAULTS) {
        const name = `${binding}-${mode}-${fault.id}`.toLowerCase().replace(/[^a-z0-9-]/g, '');
        // The card lists the one binding, behind the faulty link; a gRPC card is read over a healthy one.
        const port = await freePort();
        const http = await toxiproxy.link(`${name}-http`, `127.0.0.1:${port}`);
        const grpcPort = binding === 'GRPC' ? await freePort() : undefined;
        const grpc = grpcPort ? await toxiproxy.link(`${name}-grpc`, `127.0.0.1:${grpcPort}`) : undefined;
        const agent = await startDependencyCompatAgent({
          port,
          publicUrl: `http://${http.listen}`,
          bindings: [binding],
          ...(grpc ? { grpcPort, publicGrpcAddress: grpc.listen } : {}),
          ...AGENT_PACE,
        });
        cells.push({ name, binding, mode, fault, agent, link: grpc ?? http });
      }
  remaining = cells.length;
  const file: AgentsFile = {
    agents: {
      healthy: { url: healthy.baseUrl },
      ...Object.fromEntries(
        cells.map((c) => [
          c.name,
          { url: c.agent.baseUrl, ...(c.binding === 'GRPC' ? { allowOrigins: [`http://${c.link.listen}`] } : {}) },
        ]),
      ),
    },
  };
  const secret = randomUUID() + randomUUID();
  const webhookPort = await freePort();
  worker = await spawnWorkerProcess(
    taskQueue,
    file,
    { A2A_WEBHOOK_URL: `http://127.0.0.1:${webhookPort}`, A2A_WEBHOOK_SECRET: secret },
    ['--webhook-port', String(webhookPort)],
  );
  const client = await temporal.client();
  const handle = await startDelegation(client, taskQueue, `${taskQueue}-reference`, cellRequest('healthy', 'stream'));
  const settled = await settle(handle);
  if (!settled.result) throw new Error(`the undisturbed delegation failed: ${settled.failure}`);
  reference = settled.result;
});

afterAll(async () => {
  writeCells('agent-link', records);
  await worker?.kill('SIGTERM');
  await Promise.all(cells.map((c) => c.agent.close()));
  await healthy?.close();
  await toxiproxy?.stop();
});

describe('worker → agent', () => {
  for (const binding of BINDINGS)
    for (const mode of MODES)
      for (const fault of FAULTS) {
        it.concurrent(`${binding} ${mode}: ${fault.label}`, async () => {
          const cell = cells.find((c) => c.binding === binding && c.mode === mode && c.fault === fault)!;
          const client = await temporal.client();
          try {
            const record = await runCell(
              {
                client,
                link: `worker → agent (${binding})`,
                mode,
                fault,
                faulty: cell.link,
                agent: cell.agent,
                // Push mode tries a read as a local activity first (at most 5 s), which status cannot
                // see and the unreachable budget does not count, before the activity that follows
                // is scheduled and heartbeats. And it reads only when the agent delivers news worth a
                // read (not its chunks, one per AGENT_PACE.chunkDelayMs), so it learns of a fault on
                // the link later than the modes that hold it open: it is allowed a chunk interval more.
                endless: {
                  expect: 'A2A_AGENT_UNREACHABLE',
                  withinS: UNREACHABLE_S + UNREACHABLE_SLACK_S + (mode === 'push' ? LOCAL_READ_S : 0),
                },
                ...(mode === 'push' && fault.noticeWithinS
                  ? { noticeWithinS: fault.noticeWithinS + LOCAL_READ_S + AGENT_PACE.chunkDelayMs / 1000 + 0.5 }
                  : {}),
                start: () =>
                  startDelegation(
                    client,
                    taskQueue,
                    `${taskQueue}-${cell.name}`,
                    cellRequest(cell.name, mode, {
                      tracking: { unreachableTimeout: fault.ends ? '5 minutes' : `${UNREACHABLE_S} seconds` },
                    }),
                  ),
                underWay: (handle) => underWay(handle, mode),
              },
              reference,
            );
            records.push(record);
            expect(record.problems ?? []).toEqual([]);
          } finally {
            remaining -= 1;
          }
        });
      }

  it.concurrent('keeps serving an undisturbed agent while every fault runs', async () => {
    const client = await temporal.client();
    const { seconds, failures, slowest } = await runCanaries(
      client,
      taskQueue,
      cellRequest('healthy', 'stream'),
      () => remaining > 0,
    );
    records.push({
      link: 'worker → agent',
      fault: 'none (beside every cell above)',
      mode: 'stream',
      expected: 'completed',
      outcome: failures.length === 0 ? 'completed' : failures[0]!,
      seconds: slowest,
      ok: failures.length === 0 && slowest < 15,
      statusSaid: `${seconds.length} canaries, slowest ${slowest.toFixed(1)} s`,
    });
    expect(failures).toEqual([]);
    expect(slowest).toBeLessThan(15);
  });
});
