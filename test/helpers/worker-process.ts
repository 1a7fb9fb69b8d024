/**
 * A worker in a child process (the real CLI `worker` command), so a test can SIGKILL it the
 * way a crashing machine would. It uses the run's pre-built workflow bundle.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { packageRoot } from '../../platform/paths.js';
import type { AgentsFile } from '../../activities/index.js';
import { temporalServer } from './temporal.js';

export interface WorkerProcess {
  child: ChildProcess;
  /** Resolves when the process has exited. */
  exited: Promise<void>;
  kill(signal?: NodeJS.Signals): Promise<void>;
  /** What it wrote to stdout and stderr so far. */
  output(): string;
}

export async function spawnWorkerProcess(
  taskQueue: string,
  agents: AgentsFile,
  env: Record<string, string> = {},
  /** More `worker` flags (e.g. `--webhook-port`). */
  args: string[] = [],
): Promise<WorkerProcess> {
  const server = temporalServer();
  const agentsFile = join(mkdtempSync(join(tmpdir(), 'a2a-agents-')), 'agents.json');
  writeFileSync(agentsFile, JSON.stringify(agents));
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      join(packageRoot, 'client', 'cli.ts'),
      'worker',
      '--task-queue',
      taskQueue,
      '--agents-file',
      agentsFile,
      ...args,
    ],
    {
      cwd: packageRoot,
      env: {
        ...process.env,
        TEMPORAL_ADDRESS: server.address,
        TEMPORAL_NAMESPACE: server.namespace,
        A2A_WORKFLOW_BUNDLE: server.workflowBundlePath,
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Worker on task queue')) resolve();
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    void exited.then(() => reject(new Error(`the worker process exited before it was ready:\n${output}`)));
  });
  return {
    child,
    exited,
    output: () => output,
    async kill(signal = 'SIGKILL') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}
