/**
 * Starts bench workers as child processes (see worker-main.ts) and watches them: readiness, RSS
 * from /proc/<pid>/status, a SIGKILL like a crashing machine, or a graceful stop.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../platform/paths.js';
import { EVENT_LOOP_REQUEST, GC_REQUEST, WORKER_READY_LINE } from './worker-ipc.js';

export interface BenchWorkerOptions {
  address: string;
  namespace: string;
  taskQueue: string;
  bundlePath: string;
  agentUrl: string;
  /** Extra environment (A2A_MAX_CACHED_WORKFLOWS…). */
  env?: Record<string, string>;
  /** Write a V8 CPU profile here when the worker exits gracefully. */
  cpuProfileDir?: string;
  /** The worker's main module, relative to the package root. @default 'bench/worker-main.ts' */
  script?: string;
}

export interface BenchWorker {
  pid: number;
  taskQueue: string;
  /** Resident set size now, in MB (VmRSS). */
  rssMb(): number;
  /** Peak resident set size so far, in MB (VmHWM). */
  peakRssMb(): number;
  /** The longest and the 99th-percentile event-loop delay since the last call (ms); resets it. */
  eventLoopDelay(): Promise<{ maxMs: number; p99Ms: number }>;
  /** Runs a full garbage collection in the worker's main thread; resolves with its memoryUsage() before and after. */
  collectGarbage(): Promise<{ before: NodeJS.MemoryUsage; after: NodeJS.MemoryUsage }>;
  kill(signal?: NodeJS.Signals): Promise<void>;
  /**
   * Ends the worker at the end of a phase: SIGKILL (a graceful shutdown measures nothing and took
   * 30 s here, until the SIGKILL that follows it), or SIGTERM when a CPU profile is to be written
   * (the SDK then shuts down gracefully and Node writes the profile on exit).
   */
  stop(): Promise<void>;
}

export async function spawnBenchWorker(options: BenchWorkerOptions): Promise<BenchWorker> {
  const args = [
    ...(options.cpuProfileDir ? ['--cpu-prof', '--cpu-prof-dir', options.cpuProfileDir] : []),
    '--expose-gc',
    '--import',
    'tsx',
    join(packageRoot, options.script ?? 'bench/worker-main.ts'),
  ];
  const child = spawn(process.execPath, args, {
    cwd: packageRoot,
    env: {
      ...process.env,
      TEMPORAL_ADDRESS: options.address,
      TEMPORAL_NAMESPACE: options.namespace,
      A2A_TASK_QUEUE: options.taskQueue,
      A2A_WORKFLOW_BUNDLE: options.bundlePath,
      BENCH_AGENT_URL: options.agentUrl,
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await ready(child, exited);
  const pid = child.pid!;
  const alive = () => child.exitCode === null && child.signalCode === null;
  return {
    pid,
    taskQueue: options.taskQueue,
    rssMb: () => procStatusMb(pid, 'VmRSS'),
    peakRssMb: () => procStatusMb(pid, 'VmHWM'),
    eventLoopDelay: () =>
      new Promise((resolve) => {
        const onMessage = (message: unknown) => {
          const loop = (message as { eventLoop?: { maxMs: number; p99Ms: number } } | null)?.eventLoop;
          if (!loop) return;
          child.off('message', onMessage);
          resolve(loop);
        };
        child.on('message', onMessage);
        child.send(EVENT_LOOP_REQUEST);
      }),
    collectGarbage: () =>
      new Promise((resolve) => {
        const onMessage = (message: unknown) => {
          const gc = (message as { gc?: { before: NodeJS.MemoryUsage; after: NodeJS.MemoryUsage } } | null)?.gc;
          if (!gc) return;
          child.off('message', onMessage);
          resolve(gc);
        };
        child.on('message', onMessage);
        child.send(GC_REQUEST);
      }),
    async kill(signal = 'SIGKILL') {
      if (alive()) child.kill(signal);
      await exited;
    },
    async stop() {
      if (alive()) child.kill(options.cpuProfileDir ? 'SIGTERM' : 'SIGKILL');
      const force = setTimeout(() => alive() && child.kill('SIGKILL'), 30_000);
      await exited;
      clearTimeout(force);
    },
  };
}

function ready(child: ChildProcess, exited: Promise<void>): Promise<void> {
  let output = '';
  let isReady = false;
  // Both pipes are drained for the child's whole life (a full pipe would block it). Until the
  // worker is ready its output is kept, to show it if the worker dies; then its errors go to ours.
  const keep = (chunk: Buffer) => {
    if (!isReady) output = (output + chunk.toString()).slice(-20_000);
  };
  child.stderr!.on('data', (chunk: Buffer) =>
    isReady ? process.stderr.write(`[worker ${child.pid}] ${chunk.toString()}`) : keep(chunk),
  );
  return new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      keep(chunk);
      if (!isReady && output.includes(WORKER_READY_LINE)) {
        isReady = true;
        resolve();
      }
    });
    void exited.then(() => reject(new Error(`the bench worker exited before it was ready:\n${output}`)));
  });
}

/** A `kB` field of /proc/<pid>/status, in MB. */
export function procStatusMb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
  if (!match) throw new Error(`no ${field} in /proc/${pid}/status`);
  return Number(match[1]) / 1024;
}
