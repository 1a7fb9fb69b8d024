/**
 * Load while faults happen (issue 26): `LOAD` delegations at once on one worker in this process,
 * first all to healthy agents (the fault-free run), then again with a tenth of them going to
 * agents behind a faulty link: +2 s latency for good, half-open for 20 s, resets for 3 s (both
 * starting a second into the run). Every healthy delegation completes with a p95 within 2× of the
 * fault-free run's; every faulty one completes (each fault ends), each message sent once, one
 * task per delegation; the worker's event-loop delay stays under 100 ms at p99 and its memory is
 * bounded. The figures are printed and go into the matrix.
 *
 * `A2A_FAULTS_LOAD` sets the count. The default, 50, is what a shared 2-core machine runs in about
 * a minute within the event-loop bound: at 100 (load average 15) the p99 was about 200 ms in the
 * fault-free run as much as under faults, the machine's doing, not the faults'. 1,000 belongs to
 * `npm run soak`'s family.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDependencyCompatAgent, type RunningAgent } from '../../agents/index.js';
import { freePort } from '../../platform/free-port.js';
import { startProcessGauges } from '../../worker/process-gauges.js';
import { a2aTemporalPlugin } from '../../worker/plugin.js';
import { registryOf } from '../helpers/delegations.js';
import { uniqueTaskQueue, useTemporal } from '../helpers/temporal.js';
import { startToxiproxy, type FaultyLink, type RunningToxiproxy } from '../helpers/toxiproxy.js';
import { historyOf } from '../integration/push/support.js';
import { writeCells, type CellRecord } from './fault-matrix.js';
import { cellRequest, settle, startDelegation } from './support.js';

const LOAD = Number(process.env.A2A_FAULTS_LOAD ?? 50);
const PACE = { workDelayMs: 200, chunkDelayMs: 200 };
const HEALTHY = ['healthy-0', 'healthy-1'] as const;
/** The faulty agents and what their links do once the run is a second old. */
const FAULTY = {
  latency: async (link: FaultyLink) => {
    await link.add({ type: 'latency', attributes: { latency: 2_000, jitter: 0 } }, 'downstream');
  },
  'half-open': async (link: FaultyLink) => {
    await sleep(1_000);
    await link.add({ type: 'timeout', attributes: { timeout: 0 } }, 'downstream');
    await link.add({ type: 'timeout', attributes: { timeout: 0 } }, 'upstream');
    await sleep(20_000);
    await link.heal();
  },
  reset: async (link: FaultyLink) => {
    await sleep(1_000);
    await link.add({ type: 'reset_peer', attributes: { timeout: 0 } }, 'downstream');
    await sleep(3_000);
    await link.heal();
  },
} satisfies Record<string, (link: FaultyLink) => Promise<void>>;
type FaultyName = keyof typeof FAULTY;

const temporal = useTemporal();
const taskQueue = uniqueTaskQueue('faults-load');
const agents = new Map<string, RunningAgent>();
const links = new Map<FaultyName, FaultyLink>();
let toxiproxy: RunningToxiproxy;
let stopWorker: (() => void) | undefined;
let running: Promise<void> | undefined;

beforeAll(async () => {
  toxiproxy = await startToxiproxy();
  for (const name of HEALTHY) agents.set(name, await startDependencyCompatAgent({ port: 0, ...PACE }));
  for (const name of Object.keys(FAULTY) as FaultyName[]) {
    const port = await freePort();
    const link = await toxiproxy.link(`load-${name}`, `127.0.0.1:${port}`);
    links.set(name, link);
    agents.set(name, await startDependencyCompatAgent({ port, publicUrl: `http://${link.listen}`, ...PACE }));
  }
  const worker = await temporal.worker({
    taskQueue,
    maxConcurrentActivityTaskExecutions: LOAD * 2,
    maxCachedWorkflows: LOAD * 2,
    plugins: [a2aTemporalPlugin({ registry: registryOf(Object.fromEntries(agents)) })],
  });
  running = worker.run();
  stopWorker = () => worker.shutdown();
});

afterAll(async () => {
  stopWorker?.();
  await running;
  for (const agent of agents.values()) await agent.close();
  await toxiproxy?.stop();
});

interface Ended {
  agent: string;
  seconds: number;
  failure?: string;
  events: number;
}

/** `count` delegations at once, the i-th to `agentOf(i)`; how each ended and how long it took. */
async function run(name: string, agentOf: (i: number) => string, count = LOAD): Promise<Ended[]> {
  const client = await temporal.client();
  for (const agent of agents.values()) agent.resetStats();
  return Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const agent = agentOf(i);
      const started = Date.now();
      const handle = await startDelegation(
        client,
        taskQueue,
        `${taskQueue}-${name}-${i}`,
        cellRequest(agent, 'stream', { tracking: { unreachableTimeout: '5 minutes' } }),
      );
      const settled = await settle(handle);
      const seconds = (Date.now() - started) / 1000;
      return { agent, seconds, failure: settled.failure, events: (await historyOf(handle)).length };
    }),
  );
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

const figures = (ended: Ended[]) => {
  const seconds = ended.map((e) => e.seconds);
  return { n: ended.length, p50: percentile(seconds, 50), p95: percentile(seconds, 95), max: Math.max(...seconds) };
};

describe('load while faults happen', () => {
  it(`${LOAD} delegations at once, a tenth behind faulty links: healthy p95 within 2× of the fault-free run, every one completes, the event loop keeps up`, async () => {
    // Warm up first (module loading, JIT, the workflow threads' first activations): not what is measured.
    await run('warm-up', (i) => HEALTHY[i % HEALTHY.length]!, 10);
    const quiet = startProcessGauges();
    const faultFree = await run('fault-free', (i) => HEALTHY[i % HEALTHY.length]!);
    const quietLoop = quiet.read().eventLoopDelayMs;
    quiet.stop();
    const faultyNames = Object.keys(FAULTY) as FaultyName[];
    // Every tenth delegation goes to a faulty agent, in turn.
    const agentOf = (i: number) =>
      i % 10 === 9 ? faultyNames[Math.floor(i / 10) % faultyNames.length]! : HEALTHY[i % HEALTHY.length]!;
    const gauges = startProcessGauges();
    const rssBefore = process.memoryUsage.rss();
    const faults = Promise.all(faultyNames.map((name) => FAULTY[name](links.get(name)!)));
    const underFaults = await run('under-faults', agentOf);
    await faults;
    const { peakRssBytes, eventLoopDelayMs } = gauges.read();
    gauges.stop();
    for (const link of links.values()) await link.heal();

    const healthy = underFaults.filter((e) => HEALTHY.includes(e.agent as (typeof HEALTHY)[number]));
    const faulty = underFaults.filter((e) => !HEALTHY.includes(e.agent as (typeof HEALTHY)[number]));
    const free = figures(faultFree);
    const busy = figures(healthy);
    const hurt = figures(faulty);
    const perDelegation = figures(underFaults.map((e) => ({ ...e, seconds: e.events })));
    const tasks = faultyNames.map((name) => {
      const stats = agents.get(name)!.stats;
      return {
        name,
        delegations: faulty.filter((e) => e.agent === name).length,
        tasks: stats.tasksCreated,
        sends: stats.messageIds.length,
        distinct: new Set(stats.messageIds).size,
      };
    });
    const failures = underFaults.filter((e) => e.failure).map((e) => `${e.agent}: ${e.failure}`);
    const rssMb = { before: Math.round(rssBefore / 2 ** 20), peak: Math.round(peakRssBytes / 2 ** 20) };
    const summary =
      `fault-free p50 ${free.p50.toFixed(1)} s / p95 ${free.p95.toFixed(1)} s; under faults healthy p50 ${busy.p50.toFixed(1)} s / p95 ${busy.p95.toFixed(1)} s, ` +
      `faulty p50 ${hurt.p50.toFixed(1)} s / p95 ${hurt.p95.toFixed(1)} s; event-loop delay p50 ${eventLoopDelayMs.p50} / p99 ${eventLoopDelayMs.p99} / max ${eventLoopDelayMs.max} ms ` +
      `(fault-free: p99 ${quietLoop.p99} / max ${quietLoop.max} ms); ` +
      `RSS ${rssMb.before} → peak ${rssMb.peak} MB; history events per delegation p50 ${perDelegation.p50} / max ${perDelegation.max}`;
    console.info(`load under faults (${LOAD} delegations): ${summary}; faulty agents ${JSON.stringify(tasks)}`);
    const record: CellRecord = {
      link: 'worker → agent, under load',
      fault: `${LOAD} at once; a tenth behind latency +2 s, half-open 20 s, resets 3 s`,
      mode: 'stream',
      expected: 'completed',
      outcome: failures[0] ?? 'completed',
      seconds: Math.max(busy.max, hurt.max),
      remoteTasks: tasks.reduce((sum, t) => sum + t.tasks, 0),
      sends: {
        received: tasks.reduce((sum, t) => sum + t.sends, 0),
        distinct: tasks.reduce((sum, t) => sum + t.distinct, 0),
      },
      ok: false,
      note: summary,
    };
    const problems = [
      ...failures,
      ...(busy.p95 > 2 * free.p95 ? [`healthy p95 ${busy.p95} s, more than 2 × ${free.p95} s`] : []),
      ...(eventLoopDelayMs.p99 >= 100 ? [`event-loop delay p99 ${eventLoopDelayMs.p99} ms`] : []),
      ...tasks
        .filter((t) => t.tasks !== t.delegations || t.sends !== t.delegations)
        .map((t) => `${t.name}: ${JSON.stringify(t)}`),
    ];
    record.ok = problems.length === 0;
    if (problems.length > 0) record.problems = problems;
    writeCells('load', [record]);

    expect(failures).toEqual([]);
    expect(faultFree.filter((e) => e.failure)).toEqual([]);
    expect(busy.p95).toBeLessThanOrEqual(2 * free.p95);
    expect(eventLoopDelayMs.p99).toBeLessThan(100);
    // Bounded: the run adds less than a megabyte a delegation.
    expect(rssMb.peak - rssMb.before).toBeLessThan(LOAD);
    // One task and one send per delegation to a faulty agent.
    expect(tasks.filter((t) => t.tasks !== t.delegations || t.sends !== t.delegations)).toEqual([]);
  });
});
