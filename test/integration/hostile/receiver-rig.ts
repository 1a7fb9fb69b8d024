/**
 * The rig of the receiver attacks: one real worker process (`a2a-temporal worker --webhook-port`,
 * the receiver in it, its counters on a stats listener, its spans exported to a real OTLP
 * receiver) started with a 1024 open-file limit, as many machines have, so a descriptor leak
 * shows. Its agents file names the sample agent several ways: plainly, by a host name that needs
 * a DNS lookup, and with secret files that are a FIFO and a 200 MB file.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client, WorkflowHandle } from '@temporalio/client';
import { Pool } from 'undici';
import { expect } from 'vitest';
import type { AgentsFile } from '../../../activities/index.js';
import { startDependencyCompatAgent, type RunningAgent } from '../../../agents/index.js';
import type { DelegateInput, DelegateResult } from '../../../contract/delegation-types.js';
import { freePort } from '../../../platform/free-port.js';
import { openFileLimit } from '../../../worker/webhook-limits.js';
import type { WebhookStats } from '../../../worker/webhook-stats.js';
import { compatRequest } from '../../helpers/delegations.js';
import { startOtlpReceiver, type OtlpReceiver } from '../../helpers/otlp-receiver.js';
import { uniqueTaskQueue, type useTemporal } from '../../helpers/temporal.js';
import { SECRET, spawnCli, type CliProcess } from '../push/support.js';

/** The worker's open-file limit (soft and hard). */
export const OPEN_FILE_LIMIT = 1024;

export interface ReceiverRig {
  client: Client;
  taskQueue: string;
  worker: CliProcess;
  agent: RunningAgent;
  otlp: OtlpReceiver;
  /** `http://127.0.0.1:<port>`: the receiver. */
  receiverUrl: string;
  /** Where the secret files of the `fifo` and `big` agents are. */
  files: { fifo: string; big: string };
  alive(): boolean;
  /** The receiver's counters (with the process's memory and event-loop delay). */
  stats(): Promise<WebhookStats>;
  /** Restarts the peak memory and the event-loop delay the counters show. */
  resetGauges(): Promise<void>;
  /** The worker's open file descriptors now. */
  openFiles(): number;
  close(): Promise<void>;
}

export async function startReceiverRig(temporal: ReturnType<typeof useTemporal>): Promise<ReceiverRig> {
  const client = await temporal.client();
  const agent = await startDependencyCompatAgent({ port: 0, workDelayMs: 0, chunkDelayMs: 0 });
  const otlp = await startOtlpReceiver();
  const dir = mkdtempSync(join(tmpdir(), 'a2a-receiver-attacks-'));
  const files = { fifo: join(dir, 'token.fifo'), big: join(dir, 'token.big') };
  execFileSync('mkfifo', [files.fifo]);
  writeFileSync(files.big, '');
  truncateSync(files.big, 200 * 1024 * 1024); // sparse: 200 MB to stat, nothing written
  const agents: AgentsFile = {
    agents: {
      compat: { url: agent.baseUrl },
      // getaddrinfo runs on libuv's thread pool: a hung secret read there would stop it.
      'compat-by-name': { url: agent.baseUrl.replace('127.0.0.1', 'localhost'), allowOrigins: [agent.baseUrl] },
      fifo: { url: agent.baseUrl, auth: { type: 'bearer', tokenFile: files.fifo } },
      big: { url: agent.baseUrl, auth: { type: 'bearer', tokenFile: files.big } },
    },
  };
  const agentsFile = join(dir, 'agents.json');
  writeFileSync(agentsFile, JSON.stringify(agents));
  const taskQueue = uniqueTaskQueue('receiver-attacks');
  const [port, statsPort] = [await freePort(), await freePort()];
  const worker = await spawnCli(
    [
      'worker',
      '--task-queue',
      taskQueue,
      '--agents-file',
      agentsFile,
      '--webhook-port',
      String(port),
      '--webhook-stats-port',
      String(statsPort),
    ],
    {
      A2A_WEBHOOK_URL: `http://127.0.0.1:${port}`,
      A2A_WEBHOOK_SECRET: SECRET,
      OTEL_EXPORTER_OTLP_ENDPOINT: otlp.endpoint,
      OTEL_BSP_SCHEDULE_DELAY: '100',
    },
    'Webhook counters:',
    // POSIX sh sets both limits; exec keeps the process id node's.
    ['sh', '-c', `ulimit -n ${OPEN_FILE_LIMIT} && exec "$@"`, 'sh'],
  );
  expect(openFileLimit(readFileSync(`/proc/${worker.pid}/limits`, 'utf8')), "the worker's open-file limit").toBe(
    OPEN_FILE_LIMIT,
  );
  let exited = false;
  void worker.exited.then(() => (exited = true));
  const stats = `http://127.0.0.1:${statsPort}/a2a/push/stats`;
  return {
    client,
    taskQueue,
    worker,
    agent,
    otlp,
    receiverUrl: `http://127.0.0.1:${port}`,
    files,
    alive: () => !exited,
    stats: async () => (await (await fetch(stats)).json()) as WebhookStats,
    async resetGauges() {
      expect((await fetch(`${stats}/reset`, { method: 'POST' })).status).toBe(200);
    },
    openFiles: () => readdirSync(`/proc/${worker.pid}/fd`).length,
    async close() {
      await worker.stop();
      await agent.close();
      await otlp.close();
    },
  };
}

/** What an attack cost, for the record (printed at the end of the run). */
export interface Measurement {
  attack: string;
  outcome: string;
  seconds: number;
  peakRssMb: number;
  eventLoopDelayMs: { p99: number; max: number };
}

/**
 * Runs `attack` while an ordinary delegation (`ordinary`, poll mode by default) shares the
 * worker; both must end well. Returns the attack's result and what it cost the worker.
 */
/**
 * Prints what the delegations and the receiver were doing if `work` has not ended after `afterMs`
 * (a test about to time out says where it stood: the workflow's status, its pending activities and
 * last events, the receiver's counters), then returns what `work` returns.
 */
export async function reportingStall<T>(
  rig: ReceiverRig,
  handles: () => WorkflowHandle[],
  work: Promise<T>,
  afterMs = 75_000,
): Promise<T> {
  const timer = setTimeout(() => {
    void (async () => {
      const lines = await Promise.all(
        handles().map(async (handle) => {
          const described = await handle.describe().catch((err: unknown) => String(err));
          const history = (await handle.fetchHistory().catch(() => undefined))?.events ?? [];
          const last = history.slice(-8).map((e) => String(e.eventType));
          const state =
            typeof described === 'string'
              ? described
              : `${described.status.name}, pending ${JSON.stringify(described.raw.pendingActivities?.map((a) => [a.activityType?.name, a.attempt, a.lastFailure?.message]))}`;
          return `${handle.workflowId}: ${state}; ${history.length} events, last ${last.join(',')}`;
        }),
      );
      console.error(
        `stalled after ${afterMs} ms:\n${lines.join('\n')}\nreceiver: ${JSON.stringify(await rig.stats().catch(String))}`,
      );
    })();
  }, afterMs);
  try {
    return await work;
  } finally {
    clearTimeout(timer);
  }
}

export async function beside<T>(
  rig: ReceiverRig,
  name: string,
  attack: () => Promise<{ outcome: string; result: T }>,
  ordinary: Partial<DelegateInput>[] = [{ mode: 'poll' }],
): Promise<{ result: T; measurement: Measurement }> {
  await rig.resetGauges();
  const started = performance.now();
  const handles: WorkflowHandle[] = [];
  const delegations = ordinary.map(async (input, i) => {
    const handle = await rig.client.workflow.start('delegate', {
      taskQueue: rig.taskQueue,
      workflowId: `${name}-ordinary-${i}-${Date.now()}`,
      // The agent works a second, so the delegation is under way while the attack runs.
      args: [compatRequest({ text: 'Check for Node.js 24', metadata: { workDelayMs: 1000 }, ...input })],
    });
    handles.push(handle);
    return (await handle.result()) as DelegateResult;
  });
  const [done, ...results] = await reportingStall(rig, () => handles, Promise.all([attack(), ...delegations]));
  const seconds = (performance.now() - started) / 1000;
  for (const result of results)
    expect(result.state, 'the ordinary delegation beside the attack').toBe('TASK_STATE_COMPLETED');
  expect(rig.alive(), 'the worker process is alive').toBe(true);
  const gauges = (await rig.stats()).process!;
  return {
    result: done.result,
    measurement: {
      attack: name,
      outcome: done.outcome,
      seconds: Math.round(seconds * 100) / 100,
      peakRssMb: Math.round(gauges.peakRssBytes / 2 ** 20),
      eventLoopDelayMs: { p99: gauges.eventLoopDelayMs.p99, max: gauges.eventLoopDelayMs.max },
    },
  };
}

/** A valid delivery of a status the delegation has not seen: a new question, `n` its number. */
export function question(taskId: string, n: number): string {
  return JSON.stringify({
    statusUpdate: {
      taskId,
      status: {
        state: 'TASK_STATE_INPUT_REQUIRED',
        message: { messageId: `flood-${n}`, role: 'ROLE_AGENT', parts: [{ text: `Question ${n}?` }] },
        timestamp: new Date(1_700_000_000_000 + n).toISOString(),
      },
    },
  });
}

/**
 * Someone holding a delegation's webhook URL and credential delivers `total` valid deliveries,
 * each a new question (so none is a duplicate), from 32 requests at a time, as fast as the
 * receiver answers or at most `perSecond`. Returns how many got each status.
 *
 * From an address of its own (127.0.0.2): the agents are 127.0.0.1, and the limits are per
 * source. (A Pool's `localAddress` is a top-level option: undici's connector overwrites one given
 * in `connect`, so the flood came from 127.0.0.1 and took the agent's own deliveries' budget — a
 * delivery the SDK does not retry, so a delegation waited an hour.)
 */
export async function floodDeliveries(
  target: { url: string; credential: string },
  taskId: string,
  { total, perSecond = Infinity }: { total: number; perSecond?: number },
): Promise<Record<number, number>> {
  const statuses: Record<number, number> = {};
  const url = new URL(target.url);
  const pool = new Pool(url.origin, { connections: 16, localAddress: '127.0.0.2' });
  const started = performance.now();
  let next = 0;
  const sender = async () => {
    while (next < total) {
      const n = (next += 1);
      const due = started + ((n - 1) * 1000) / perSecond;
      if (due > performance.now()) await new Promise((resolve) => setTimeout(resolve, due - performance.now()));
      const response = await pool.request({
        path: `${url.pathname}${url.search}`,
        method: 'POST',
        headers: { authorization: `Bearer ${target.credential}`, 'content-type': 'application/a2a+json' },
        body: question(taskId, 1000 + n),
      });
      await response.body.dump();
      statuses[response.statusCode] = (statuses[response.statusCode] ?? 0) + 1;
    }
  };
  try {
    await Promise.all(Array.from({ length: 32 }, sender));
  } finally {
    await pool.close();
  }
  return statuses;
}
