/**
 * Everything one bench run stands on, started by the bench itself: a Temporal dev server on
 * free ports (in memory, headless), the sample compatibility agent in this process on port 0,
 * and the workflow bundle (product + baseline workflows), built once for every worker.
 */
import { randomBytes } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import { startDependencyCompatAgent, type RunningAgent } from '../agents/index.js';
import { DevServerStartError, startDevServer, type DevServer } from '../platform/dev-server.js';
import { freePort } from '../platform/free-port.js';
import { writeWorkflowBundle } from '../platform/workflow-bundle.js';
import { ensureTemporalCli, type TemporalCli } from '../platform/temporal-cli.js';
import { spawnBenchWorker, type BenchWorker, type BenchWorkerOptions } from './worker-process.js';

export interface BenchEnvOptions {
  /** `--dynamic-config-value` settings of the dev server. */
  dynamicConfig: Record<string, string | number | boolean>;
  /** More `start-dev` arguments. */
  extraServerArgs?: string[];
  /** Environment of every worker child (e.g. BENCH_WORKER_OPTIONS while investigating). */
  workerEnv?: Record<string, string>;
  /** Passed to every worker child (`--cpu-prof`). */
  cpuProfileDir?: string;
  /** A bench workflow bundle already written (by an earlier environment): not built again. */
  bundlePath?: string;
  log: (line: string) => void;
}

export interface BenchEnv {
  cli: TemporalCli;
  server: DevServer;
  client: Client;
  agent: RunningAgent;
  bundlePath: string;
  /** The dev server's frontend requests so far, by operation (from its Prometheus `service_requests`). */
  serverRequests(): Promise<Record<string, number>>;
  /** A worker child on `taskQueue` (the caller stops or kills it). */
  spawnWorker(taskQueue: string, env?: BenchWorkerOptions['env']): Promise<BenchWorker>;
  /**
   * A bare-SDK worker child (bench/bare/worker-main.ts) on `taskQueue`, on its own minimal
   * bundle (built on first use), with the product worker's cache size `maxCachedWorkflows`.
   */
  spawnBareWorker(taskQueue: string, maxCachedWorkflows: number): Promise<BenchWorker>;
  close(): Promise<void>;
}

export async function startBenchEnv(options: BenchEnvOptions): Promise<BenchEnv> {
  const cli = await ensureTemporalCli(options.log);
  const [{ server, metricsPort }, bundlePath, agent] = await Promise.all([
    startServer(cli, options),
    options.bundlePath ?? writeWorkflowBundle('bench/workflows/index.ts', 'bench'),
    startDependencyCompatAgent({ port: 0, workDelayMs: 0, chunkDelayMs: 0 }),
  ]);
  const connection = await Connection.connect({ address: server.address });
  const client = new Client({ connection, namespace: server.namespace });
  const workers = new Set<BenchWorker>();
  const webhookSecret = randomBytes(32).toString('base64url');
  let bareBundle: Promise<string> | undefined;
  const track = (worker: BenchWorker) => {
    workers.add(worker);
    return worker;
  };
  return {
    cli,
    server,
    client,
    agent,
    bundlePath,
    async serverRequests() {
      const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
      return frontendRequests(text);
    },
    async spawnWorker(taskQueue, env) {
      // Each worker hosts its own push receiver (its memory counts as push mode's cost).
      const webhookPort = await freePort();
      const worker = await spawnBenchWorker({
        address: server.address,
        namespace: server.namespace,
        taskQueue,
        bundlePath,
        agentUrl: agent.baseUrl,
        env: {
          A2A_WEBHOOK_URL: `http://127.0.0.1:${webhookPort}`,
          A2A_WEBHOOK_SECRET: webhookSecret,
          BENCH_WEBHOOK_PORT: String(webhookPort),
          ...options.workerEnv,
          ...env,
        },
        cpuProfileDir: options.cpuProfileDir,
      });
      return track(worker);
    },
    async spawnBareWorker(taskQueue, maxCachedWorkflows) {
      // No tracing interceptors: the SDK's bundle of one workflow, as a user's first worker has it.
      bareBundle ??= writeWorkflowBundle('bench/bare/workflows.ts', 'bench-bare', { tracing: false, shared: false });
      const worker = await spawnBenchWorker({
        address: server.address,
        namespace: server.namespace,
        taskQueue,
        bundlePath: await bareBundle,
        agentUrl: agent.baseUrl,
        env: { ...options.workerEnv, A2A_MAX_CACHED_WORKFLOWS: String(maxCachedWorkflows) },
        script: 'bench/bare/worker-main.ts',
      });
      return track(worker);
    },
    async close() {
      await Promise.allSettled([...workers].map((w) => w.stop()));
      await connection.close();
      await agent.close();
      await server.stop();
    },
  };
}

/**
 * The dev server on free ports, started again (at most 3 times) when one of them was taken
 * between our pick and its bind: a port free a moment ago may have become another
 * connection's (a full run lost its c200 level to its metrics port so).
 */
async function startServer(
  cli: TemporalCli,
  options: BenchEnvOptions,
): Promise<{ server: DevServer; metricsPort: number }> {
  for (let attempt = 1; ; attempt++) {
    const metricsPort = await freePort();
    const extraArgs = Object.entries(options.dynamicConfig)
      .flatMap(([key, value]) => ['--dynamic-config-value', `${key}=${JSON.stringify(value)}`])
      .concat(['--metrics-port', String(metricsPort)], options.extraServerArgs ?? []);
    try {
      return { server: await startDevServer({ port: 0, uiPort: false, cliPath: cli.path, extraArgs }), metricsPort };
    } catch (err) {
      if (!(err instanceof DevServerStartError && /address already in use/.test(err.message)) || attempt >= 3)
        throw err;
      options.log(`the dev server lost a port to another process (attempt ${attempt}); starting it on others`);
    }
  }
}

/** Sums `service_requests` of the frontend by operation, from Prometheus' text format. */
export function frontendRequests(metrics: string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const line of metrics.split('\n')) {
    if (!line.startsWith('service_requests{') || !line.includes('service_name="frontend"')) continue;
    const operation = /operation="([^"]+)"/.exec(line)?.[1];
    const value = Number(line.slice(line.lastIndexOf(' ') + 1));
    if (operation && Number.isFinite(value)) counts[operation] = (counts[operation] ?? 0) + value;
  }
  return counts;
}
