/**
 * `npm run bench [-- --quick]`: the same delegation through every variant, in one process tree
 * and one run (see bench/README.md). Figures go to bench/results/latest.json (a full run of
 * every phase; a quick or partial run: partial.json beside it) and markdown tables to stdout;
 * progress goes to stderr. Exits 0 whatever the targets say.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Runtime } from '@temporalio/worker';
import { packageRoot } from '../platform/paths.js';
import { writeWorkflowBundle } from '../platform/workflow-bundle.js';
import { loadWorkerConfig } from '../worker/config.js';
import { startBenchEnv, type BenchEnv, type BenchEnvOptions } from './bench-env.js';
import { parseArgs, type BenchSettings } from './bench-settings.js';
import { describePollDelivery } from './delivery/describe-poll.js';
import { visibilityListDelivery } from './delivery/visibility-list.js';
import { describeMachine, finishMachine } from './machine.js';
import { DEV_SERVER_DYNAMIC_CONFIG } from './dev-server-config.js';
import { historyShape, measureAllAtOnce, measureOneByOne } from './phases/history.js';
import { measureLatency } from './phases/latency.js';
import { measureParked, type ParkedVariant } from './phases/parked.js';
import { parkedMemory } from './figures.js';
import { HOSTILE_ALONGSIDE, measureHostility } from './phases/hostility.js';
import { measureRelease } from './phases/release.js';
import { measureResume } from './phases/resume.js';
import { measureThroughputLevel } from './phases/throughput.js';
import { cpuSeconds } from './server-cost/cpu.js';
import { measureTracing } from './phases/tracing.js';
import { startOtlpSink } from './otlp-sink.js';
import { Client, type WorkflowHandle } from '@temporalio/client';
import { tracingClientOptions } from '../telemetry/client-interceptors.js';
import { startTracing, stopTracing } from '../telemetry/tracing.js';
import { markdownReport } from './report.js';
import type { BenchResults } from './results.js';
import { checkTargets } from './targets.js';
import { directDelegation } from './variants/direct.js';
import { emptyWorkflowRun, temporalDelegation, type TemporalRun } from './variants/temporal.js';
import { untilQuiet } from './wait.js';
import { THROUGHPUT_VARIANTS, VARIANTS, type TemporalVariant, type Variant } from './variants/variant.js';

const log = (line: string) => console.error(`[bench ${new Date().toISOString().slice(11, 19)}] ${line}`);

async function main(): Promise<void> {
  const settings = parseArgs(process.argv.slice(2), join(packageRoot, 'bench', 'results', 'latest.json'));
  const began = performance.now();
  const startedAt = new Date().toISOString();
  Runtime.install({
    logger: { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error: (m) => console.error(m) },
  });
  log(
    `mode ${settings.mode}: ${settings.phases.join(', ')}; starting the dev server, the agent and the workflow bundle`,
  );
  const envOptions: BenchEnvOptions = {
    dynamicConfig: settings.defaultServerConfig ? {} : DEV_SERVER_DYNAMIC_CONFIG,
    cpuProfileDir: settings.cpuProfileDir,
    workerEnv: {
      ...settings.workerEnv,
      ...(settings.workerOptions ? { BENCH_WORKER_OPTIONS: settings.workerOptions } : {}),
    },
    log,
  };
  const env = await startBenchEnv(envOptions);
  const stop = () => void env.close().finally(() => process.exit(130));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  const results: BenchResults = {
    mode: settings.mode,
    started_at: startedAt,
    machine: describeMachine(env.cli.version),
    settings: { ...settings, dev_server_dynamic_config: settings.defaultServerConfig ? {} : DEV_SERVER_DYNAMIC_CONFIG },
  };
  try {
    await runPhases(env, () => startBenchEnv({ ...envOptions, bundlePath: env.bundlePath }), settings, results);
  } finally {
    await env.close();
  }
  results.machine = finishMachine(results.machine, performance.now() - began);
  results.targets = checkTargets(results);
  mkdirSync(dirname(settings.out), { recursive: true });
  writeFileSync(settings.out, `${JSON.stringify(results, null, 2)}\n`);
  log(`figures written to ${settings.out}`);
  console.log(markdownReport(results));
}

async function runPhases(
  env: BenchEnv,
  freshEnv: () => Promise<BenchEnv>,
  settings: BenchSettings,
  results: BenchResults,
): Promise<void> {
  const taskQueue = `bench-main-${process.pid}`;
  const needsMain = settings.phases.some(
    (p) => p === 'latency' || p === 'throughput' || p === 'history' || p === 'tracing',
  );
  if (needsMain) await env.spawnWorker(taskQueue);
  const direct = await directDelegation(env.agent.baseUrl);
  const oneAtATime: TemporalRun = {
    client: env.client,
    taskQueue,
    delivery: describePollDelivery(settings.latency.pollIntervalMs),
  };

  if (settings.phases.includes('latency')) {
    log(`latency: ${settings.latency.warmup} + ${settings.latency.count} delegations per variant, interleaved`);
    const runs = Object.fromEntries(
      VARIANTS.map((v) => [v, v === 'direct' ? () => direct() : () => temporalDelegation(oneAtATime, v)]),
    ) as Record<Variant, () => Promise<WorkflowHandle | void>>;
    Object.assign(
      results,
      await measureLatency({
        run: runs,
        agent: env.agent,
        warmup: settings.latency.warmup,
        count: settings.latency.count,
        log,
      }),
    );
    results.round_trips = {};
    for (const v of VARIANTS.filter((v): v is TemporalVariant => v !== 'direct')) {
      results.round_trips[v] = await historyShape(await temporalDelegation(oneAtATime, v));
    }
  }

  let longHistory: Promise<Record<string, number>> | undefined;
  if (settings.phases.includes('history')) {
    const { shortMs } = settings.history;
    log(`history: remote tasks of ${shortMs / 1000} s, one variant after another`);
    const short = await measureOneByOne(oneAtATime, direct, env.agent, shortMs);
    results.history_events = short.history;
    results.agent_requests_per_task_1s = short.requests;
  }

  if (settings.phases.includes('throughput')) {
    results.throughput_per_s = {};
    results.throughput_runs = {};
    for (const level of settings.throughput.levels) {
      // Each level on a dev server of its own: its store holds only the level's delegations (the
      // server slows as its store fills, by a third over the earlier phases' and levels' workflows).
      const levelEnv = await freshEnv();
      // Each Temporal variant on a task queue and worker of its own: the visibility list that
      // finds the questions costs the server more the more workflows its task queue has had,
      // which made every variant pay for those run before it.
      const measured = await measureThroughputLevel(
        THROUGHPUT_VARIANTS,
        level,
        async (v) => {
          const queue = `${taskQueue}-tp-c${level.concurrency}-${v}`;
          const worker = v === 'direct' ? undefined : await levelEnv.spawnWorker(queue);
          const delivery = visibilityListDelivery(levelEnv.client, queue, settings.throughput.listIntervalMs);
          const many: TemporalRun = { client: levelEnv.client, taskQueue: queue, delivery };
          return {
            run:
              v === 'direct'
                ? () => direct()
                : v === 'empty_workflow'
                  ? () => emptyWorkflowRun(many)
                  : () => temporalDelegation(many, v).then(() => {}),
            close: async () => {
              delivery.close();
              await worker?.stop();
            },
            settle: async () => {
              const waited = await untilQuiet(() => cpuSeconds(levelEnv.server.process.pid!, true));
              log(`throughput: ${v} c${level.concurrency}: the server was quiet ${waited} ms after`);
            },
            // What each delegation costs the server (CPU, requests by method) and the variant's worker.
            counters: async () => ({
              server_cpu_ms: cpuSeconds(levelEnv.server.process.pid!, true) * 1000,
              ...(worker ? { worker_cpu_ms: cpuSeconds(worker.pid) * 1000 } : {}),
              ...(await levelEnv.serverRequests()),
            }),
          };
        },
        (v, pass) =>
          log(`throughput: ${v} c${level.concurrency}, pass: ${pass.per_s}/s (${pass.completed} in ${pass.seconds} s)`),
      ).finally(() => levelEnv.close());
      for (const v of THROUGHPUT_VARIANTS) {
        log(
          `throughput: ${v} c${level.concurrency}: ${measured[v].per_s}/s (${measured[v].completed} in ${measured[v].seconds} s)`,
        );
        (results.throughput_per_s[v] ??= {})[`c${level.concurrency}`] = measured[v].per_s;
        (results.throughput_runs[v] ??= {})[`c${level.concurrency}`] = measured[v];
      }
    }
  }

  if (settings.phases.includes('history')) {
    // Mostly idle waiting on the agent (counts, not timings): runs while the next phases measure.
    log(`history: remote tasks of ${settings.history.longMs / 1000} s, all variants at once, in the background`);
    longHistory = measureAllAtOnce(oneAtATime, settings.history.longMs);
  }

  if (settings.phases.includes('resume')) {
    log('resume: SIGKILL of the worker while the report streams');
    results.resume_after_kill = await measureResume(env, () => oneAtATime.delivery, settings.resume.chunkDelayMs);
    results.resume_after_kill_s = results.resume_after_kill.resume_after_kill_s;
    log(`resume: ${results.resume_after_kill_s} s lost`);
  }

  if (settings.phases.includes('hostility')) {
    log(
      `hostility: 100 delegations beside ${HOSTILE_ALONGSIDE} hostile agents on one worker, then the largest attacks alone`,
    );
    const delivery = (queue: string) => visibilityListDelivery(env.client, queue, settings.throughput.listIntervalMs);
    results.hostility = await measureHostility(env, delivery);
    const h = results.hostility;
    log(`hostility: ${h.normal_completed}/${h.normal_total} completed, event loop max ${h.event_loop_max_ms} ms`);
  }

  if (settings.phases.includes('parked')) {
    const fromOptions = (JSON.parse(settings.workerOptions ?? '{}') as { maxCachedWorkflows?: number })
      .maxCachedWorkflows;
    const cache =
      fromOptions ??
      settings.parked.cache ??
      loadWorkerConfig({ ...process.env, ...settings.workerEnv }).maxCachedWorkflows;
    const park = async (variant: ParkedVariant, label: string) => {
      log(`parked: ${settings.parked.count} ${label} waiting for their answer on one worker (workflow cache ${cache})`);
      const figures = await measureParked(env, {
        ...settings.parked,
        variant,
        listIntervalMs: settings.throughput.listIntervalMs,
        maxCachedWorkflows: cache,
        log,
      });
      log(
        `parked (${variant}): ${figures.rss_mb_per_1000_cached} MB per 1000 cached, ${figures.rss_mb_per_1000} MB per 1000 parked, drained in ${figures.drain_s} s`,
      );
      return figures;
    };
    results.parked = await park('delegate_stream', 'delegations');
    results.parked_push = await park('delegate_push', 'delegations in push mode');
    results.parked_bare = await park('bare_sdk', 'minimal workflows of a bare-SDK worker');
    if (settings.parkedBaseline)
      results.parked_blocking_activity = await park('blocking_activity', 'blocking_activity workflows');
    results.parked_memory = parkedMemory(results.parked, results.parked_bare);
  }

  if (settings.phases.includes('release')) {
    const { warmup, count } = settings.release;
    log(`release: ${warmup} + ${count} releases with three agents, answered and approved by script`);
    results.release = await measureRelease(env, { warmup, count, log });
    log(`release: p50 ${results.release.release_ms.p50} ms`);
  }

  if (settings.phases.includes('tracing')) {
    log(`tracing: delegate_stream without telemetry, tracing off and on, ${settings.latency.count} each, interleaved`);
    const sink = await startOtlpSink();
    const otel = { OTEL_EXPORTER_OTLP_ENDPOINT: sink.endpoint };
    const tracedQueue = `${taskQueue}-traced`;
    const untracedQueue = `${taskQueue}-untraced`;
    const untracedBundle = await writeWorkflowBundle('bench/workflows/index.ts', 'bench', { tracing: false });
    await Promise.all([
      env.spawnWorker(tracedQueue, otel),
      env.spawnWorker(untracedQueue, { A2A_WORKFLOW_BUNDLE: untracedBundle, BENCH_TELEMETRY: 'none' }),
    ]);
    startTracing('a2a-temporal-bench', { ...process.env, ...otel });
    const traced = new Client({
      connection: env.client.connection,
      namespace: env.client.options.namespace,
      ...tracingClientOptions(),
    });
    results.tracing = await measureTracing({
      untraced: { ...oneAtATime, taskQueue: untracedQueue },
      off: oneAtATime,
      on: { client: traced, taskQueue: tracedQueue, delivery: oneAtATime.delivery },
      agent: env.agent,
      warmup: settings.latency.warmup,
      count: settings.latency.count,
      exported: () => ({ requests: sink.requests, bytes: sink.bytes }),
      log,
    });
    await stopTracing();
    await sink.close();
    const t = results.tracing;
    log(
      `tracing: p50 without telemetry ${t.tracing_ms.untraced.p50} ms, off ${t.tracing_ms.off.p50} ms (${t.tracing_off_overhead_p50_pct} %), on ${t.tracing_ms.on.p50} ms (${t.tracing_overhead_p50_pct} % over off)`,
    );
  }

  if (longHistory) {
    const long = await longHistory;
    results.history_events = Object.fromEntries(
      Object.keys(long).flatMap((k) => {
        const shortKey = k.replace(/_\d+s$/, `_${settings.history.shortMs / 1000}s`);
        return [
          [shortKey, results.history_events?.[shortKey] ?? Number.NaN],
          [k, long[k]!],
        ];
      }),
    );
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
