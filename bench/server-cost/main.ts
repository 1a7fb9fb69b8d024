/**
 * `npm run bench:server-cost [-- --count 40 --concurrency 10 --idle 15]`: what one delegation
 * costs the Temporal service, for capacity planning past one machine. It starts the production
 * Temporal server on PostgreSQL the way `npm run test:cluster` does (test/cluster/harness: the
 * cached server binary, a throw-away PostgreSQL cluster, deploy/temporal-server.yaml, the
 * project's `setup`), one bench worker (the product's worker options) and the sample compatibility
 * agent, then runs N delegations per mode (stream, poll) and reports per delegation: history
 * events and state transitions (DescribeWorkflowExecution), PostgreSQL's transactions, tuples and
 * WAL bytes (`pg_stat_database`, `pg_current_wal_lsn()`, before and after, the idle background
 * subtracted), and the CPU seconds of the server, PostgreSQL and the worker (/proc). Prints a
 * table; writes bench/results/server-cost.json (`--out` elsewhere). Without PostgreSQL or the
 * server binary (and no Go to build it) it says so in one sentence and exits 0.
 */
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client, Connection } from '@temporalio/client';
import { Runtime } from '@temporalio/worker';
import { startDependencyCompatAgent } from '../../agents/index.js';
import { findGo } from '../../platform/go-install.js';
import { packageRoot } from '../../platform/paths.js';
import { writeWorkflowBundle } from '../../platform/workflow-bundle.js';
import { ensureServerBinaries, serverBinariesCached } from '../../test/cluster/harness/binaries.js';
import { findPostgres, startPostgres, stopPostgres, type PostgresInfo } from '../../test/cluster/harness/postgres.js';
import { runSetup } from '../../test/cluster/harness/setup.js';
import { createSchemas, serverEnv, startSupervisedServer } from '../../test/cluster/harness/temporal-server.js';
import { visibilityListDelivery } from '../delivery/visibility-list.js';
import { describeMachine, finishMachine } from '../machine.js';
import { round } from '../stats.js';
import { mapLimit } from '../wait.js';
import { temporalDelegation, type TemporalRun } from '../variants/temporal.js';
import type { TemporalVariant } from '../variants/variant.js';
import { spawnBenchWorker, type BenchWorker } from '../worker-process.js';
import { cpuSeconds } from './cpu.js';
import { delta, perCore, perDelegation, type Counters, type Window } from './per-delegation.js';
import { PG_COUNTERS, readPgStats } from './pg-stats.js';

const log = (line: string) => console.error(`[server-cost ${new Date().toISOString().slice(11, 19)}] ${line}`);
const NAMESPACE = 'default';
const DATABASES = ['temporal', 'temporal_visibility'] as const;
const MODES: readonly TemporalVariant[] = ['delegate_stream', 'delegate_poll'];
const WARMUP = 3;

interface Options {
  count: number;
  concurrency: number;
  idleSeconds: number;
  out: string;
}

function parseOptions(argv: readonly string[]): Options {
  const o: Options = {
    count: 40,
    concurrency: 10,
    idleSeconds: 15,
    out: join(packageRoot, 'bench', 'results', 'server-cost.json'),
  };
  for (let i = 0; i < argv.length; i++) {
    const [arg, v] = [argv[i], argv[i + 1]];
    const n = Number(v);
    if (arg === '--out' && v) o.out = v;
    else if (arg === '--count' && Number.isInteger(n) && n > 0) o.count = n;
    else if (arg === '--concurrency' && Number.isInteger(n) && n > 0) o.concurrency = n;
    else if (arg === '--idle' && Number.isInteger(n) && n > 0) o.idleSeconds = n;
    else
      throw new Error(
        `unknown or invalid argument ${arg}; use --count <n>, --concurrency <n>, --idle <s>, --out <file>`,
      );
    i++;
  }
  return o;
}

/** Everything the figures count, flat: `temporal.xact_commit`…, `wal_bytes`, `cpu_s.server`…. */
async function readCounters(pg: PostgresInfo, pids: { server: () => number; worker: number }): Promise<Counters> {
  const stats = await readPgStats(pg, DATABASES);
  const counters: Counters = { wal_bytes: stats.wal_bytes };
  for (const [db, values] of Object.entries(stats.databases))
    for (const c of PG_COUNTERS) counters[`${db}.${c}`] = values[c];
  const postmaster = Number(readFileSync(join(pg.dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  counters['cpu_s.server'] = cpuSeconds(pids.server());
  counters['cpu_s.postgres'] = cpuSeconds(postmaster, true);
  counters['cpu_s.worker'] = cpuSeconds(pids.worker);
  return counters;
}

async function measureWindow(read: () => Promise<Counters>, body: () => Promise<void>): Promise<Window> {
  const before = await read();
  const began = performance.now();
  await body();
  // PostgreSQL's backends flush their statistics at most once a second: let the last ones land.
  await sleep(2_000);
  const after = await read();
  return { counters: delta(before, after), seconds: (performance.now() - began) / 1000 };
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const pgBin = await findPostgres();
  if (!pgBin) return void console.log('server-cost skipped: PostgreSQL is not installed (Debian package postgresql).');
  if (!serverBinariesCached() && !(await findGo()))
    return void console.log(
      'server-cost skipped: Go is not installed and the Temporal server is not cached in .cache/go-bin/.',
    );
  Runtime.install({
    logger: { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error: (m) => console.error(m) },
  });
  const began = performance.now();
  const startedAt = new Date().toISOString();
  const runDir = mkdtempSync(join(tmpdir(), 'a2a-server-cost-'));
  chmodSync(runDir, 0o755); // PostgreSQL runs as its own user and must reach its folder
  const cleanups: Array<() => Promise<unknown>> = [];
  try {
    log('starting PostgreSQL, the Temporal server (deploy/temporal-server.yaml), the agent and a worker');
    const binaries = await ensureServerBinaries();
    const pg = await startPostgres(pgBin, runDir);
    cleanups.push(() => stopPostgres(pg));
    await createSchemas(binaries, pg);
    const config = await serverEnv(pg);
    const server = await startSupervisedServer(binaries, config, runDir);
    cleanups.push(() => server.stop());
    await runSetup(server.address, NAMESPACE);
    const [bundlePath, agent] = await Promise.all([
      writeWorkflowBundle('bench/workflows/index.ts', 'bench'),
      startDependencyCompatAgent({ port: 0, workDelayMs: 0, chunkDelayMs: 0 }),
    ]);
    cleanups.push(() => agent.close());
    const taskQueue = `bench-server-cost-${process.pid}`;
    const worker: BenchWorker = await spawnBenchWorker({
      address: server.address,
      namespace: NAMESPACE,
      taskQueue,
      bundlePath,
      agentUrl: agent.baseUrl,
    });
    cleanups.push(() => worker.stop());
    const connection = await Connection.connect({ address: server.address });
    cleanups.push(() => connection.close());
    const client = new Client({ connection, namespace: NAMESPACE });
    // One visibility list every 200 ms finds every waiting delegation: little load beside theirs.
    const run: TemporalRun = { client, taskQueue, delivery: visibilityListDelivery(client, taskQueue, 200) };
    const serverPid = () => Number(readFileSync(server.pidFile, 'utf8').trim());
    const read = () => readCounters(pg, { server: serverPid, worker: worker.pid });

    for (const mode of MODES) for (let i = 0; i < WARMUP; i++) await temporalDelegation(run, mode);
    log(`idle: ${options.idleSeconds} s with nothing running, for the background to subtract`);
    const idle = await measureWindow(read, () => sleep(options.idleSeconds * 1000));

    const modes: Record<string, unknown> = {};
    for (const mode of MODES) {
      log(`${mode}: ${options.count} delegations, ${options.concurrency} at a time`);
      let handles: Awaited<ReturnType<typeof temporalDelegation>>[] = [];
      const window = await measureWindow(read, async () => {
        handles = await mapLimit(options.count, options.concurrency, () => temporalDelegation(run, mode));
      });
      const described = await mapLimit(handles.length, 10, (i) => handles[i]!.describe());
      const info = described.map((d) => d.raw.workflowExecutionInfo!);
      const mean = (values: number[]) => round(values.reduce((a, b) => a + b, 0) / values.length, 2);
      const per = perDelegation(window, idle, options.count, 4);
      modes[mode] = {
        n: options.count,
        seconds: round(window.seconds, 2),
        per_s: round(options.count / window.seconds, 2),
        history_events: mean(info.map((i) => Number(i.historyLength))),
        state_transitions: mean(info.map((i) => Number(i.stateTransitionCount))),
        per_delegation: per,
        per_core_per_s: {
          worker: perCore(per['cpu_s.worker']!),
          server: perCore(per['cpu_s.server']!),
          postgres: perCore(per['cpu_s.postgres']!),
        },
      };
      log(`${mode}: ${JSON.stringify(modes[mode])}`);
    }
    const results = {
      started_at: startedAt,
      machine: finishMachine(describeMachine(`server ${binaries.server}`), performance.now() - began),
      settings: { ...options, warmup: WARMUP, databases: DATABASES, history_shards: 4 },
      idle: { seconds: round(idle.seconds, 2), counters: idle.counters },
      modes,
    };
    mkdirSync(dirname(options.out), { recursive: true });
    writeFileSync(options.out, `${JSON.stringify(results, null, 2)}\n`);
    run.delivery.close();
    log(`figures written to ${options.out}`);
    console.log(serverCostReport(modes as Record<string, ModeFigures>));
  } finally {
    for (const fn of cleanups.reverse()) await fn().catch((err: unknown) => log(String(err)));
    rmSync(runDir, { recursive: true, force: true });
  }
}

interface ModeFigures {
  n: number;
  per_s: number;
  history_events: number;
  state_transitions: number;
  per_delegation: Counters;
  per_core_per_s: Record<string, number | null>;
}

function serverCostReport(modes: Record<string, ModeFigures>): string {
  const rows: Array<[string, (m: ModeFigures) => number | null | undefined]> = [
    ['history events', (m) => m.history_events],
    ['state transitions', (m) => m.state_transitions],
    ['PostgreSQL commits (temporal)', (m) => m.per_delegation['temporal.xact_commit']],
    ['PostgreSQL commits (visibility)', (m) => m.per_delegation['temporal_visibility.xact_commit']],
    ['rows inserted (temporal)', (m) => m.per_delegation['temporal.tup_inserted']],
    ['rows updated (temporal)', (m) => m.per_delegation['temporal.tup_updated']],
    ['rows deleted (temporal)', (m) => m.per_delegation['temporal.tup_deleted']],
    ['rows fetched (temporal)', (m) => m.per_delegation['temporal.tup_fetched']],
    [
      'rows inserted + updated + deleted (visibility)',
      (m) => sum(m.per_delegation, 'temporal_visibility', ['tup_inserted', 'tup_updated', 'tup_deleted']),
    ],
    ['WAL KB', (m) => round((m.per_delegation.wal_bytes ?? 0) / 1024, 1)],
    ['CPU ms: server', (m) => ms(m.per_delegation['cpu_s.server'])],
    ['CPU ms: PostgreSQL', (m) => ms(m.per_delegation['cpu_s.postgres'])],
    ['CPU ms: worker', (m) => ms(m.per_delegation['cpu_s.worker'])],
    ['delegations/s per server core', (m) => m.per_core_per_s.server],
    ['delegations/s per PostgreSQL core', (m) => m.per_core_per_s.postgres],
    ['delegations/s per worker core', (m) => m.per_core_per_s.worker],
  ];
  const names = Object.keys(modes);
  return [
    `| per delegation | ${names.join(' | ')} |`,
    `| --- | ${names.map(() => '---').join(' | ')} |`,
    ...rows.map(([label, get]) => `| ${label} | ${names.map((n) => fmt(get(modes[n]!))).join(' | ')} |`),
  ].join('\n');
}

function fmt(v: number | null | undefined): string {
  return v === null || v === undefined || Number.isNaN(v) ? '—' : String(round(v, 1));
}

function sum(c: Counters, db: string, keys: string[]): number {
  return round(
    keys.reduce((a, k) => a + (c[`${db}.${k}`] ?? 0), 0),
    2,
  );
}

function ms(seconds: number | undefined): number | undefined {
  return seconds === undefined ? undefined : round(seconds * 1000, 1);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
