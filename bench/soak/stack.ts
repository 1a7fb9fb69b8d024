/**
 * The soak's stack: a Temporal dev server on a SQLite file under a temp dir (so workflows survive
 * its restart), the push receiver in this process (like `a2a-temporal webhook`), and one worker
 * at a time in a child process (the real `a2a-temporal worker`), which the soak SIGKILLs and
 * replaces the way a process manager would.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { freePort } from '../../platform/free-port.js';
import { startDevServer, type DevServer } from '../../platform/dev-server.js';
import { packageRoot } from '../../platform/paths.js';
import { ensureTemporalCli } from '../../platform/temporal-cli.js';
import { bundleWorkflowsTo } from '../../platform/workflow-bundle.js';
import { temporalNotifier } from '../../worker/webhook-notifier.js';
import { startWebhookReceiver, type RunningWebhookReceiver } from '../../worker/webhook-receiver.js';

export const TASK_QUEUE = 'a2a-temporal-soak';

export interface SoakStack {
  dir: string;
  address: string;
  uiUrl?: string;
  client: Client;
  receiver: RunningWebhookReceiver;
  /** SIGKILLs the worker and starts its replacement at once; resolves when the new one polls. */
  killWorker(): Promise<{ killedAt: number; readyAt: number }>;
  /** Stops the Temporal server and starts it again on the same ports and SQLite file. */
  restartServer(): Promise<{ stoppedAt: number; readyAt: number }>;
  close(): Promise<void>;
}

/** `agents`: base URL by name, written into the worker's agents file. */
export async function startSoakStack(log: (line: string) => void, agents: Record<string, string>): Promise<SoakStack> {
  const dir = mkdtempSync(join(tmpdir(), 'a2a-soak-'));
  const agentsFile = join(dir, 'agents.json');
  writeFileSync(
    agentsFile,
    JSON.stringify({ agents: Object.fromEntries(Object.entries(agents).map(([name, url]) => [name, { url }])) }),
  );
  const cli = await ensureTemporalCli();
  const [port, uiPort] = [await freePort(), await freePort()];
  const dbFile = join(dir, 'temporal.sqlite');
  const serve = () => startDevServer({ port, uiPort, dbFile, cliPath: cli.path });
  const [first, bundlePath] = await Promise.all([
    serve(),
    bundleWorkflowsTo(join(packageRoot, 'workflows', 'index.ts'), join(dir, 'workflow-bundle.js')),
  ]);
  let server: DevServer = first;
  log(`Temporal dev server at ${server.address} (Web UI ${server.uiUrl}), SQLite ${dbFile}`);

  const connection = await Connection.connect({ address: server.address });
  const client = new Client({ connection, namespace: server.namespace });
  const secret = randomBytes(32).toString('base64');
  const receiver = await startWebhookReceiver({
    secret,
    port: 0,
    notify: temporalNotifier(client),
    logger: { warn() {}, error: (line) => log(`receiver: ${line}`) },
  });

  let workers = 0;
  const startWorker = () =>
    spawnWorker(join(dir, `worker-${++workers}.log`), {
      TEMPORAL_ADDRESS: server.address,
      TEMPORAL_NAMESPACE: server.namespace,
      A2A_TASK_QUEUE: TASK_QUEUE,
      A2A_AGENTS_FILE: agentsFile,
      A2A_WORKFLOW_BUNDLE: bundlePath,
      A2A_WEBHOOK_URL: receiver.url,
      A2A_WEBHOOK_SECRET: secret,
    });
  let worker = await startWorker();
  log(`worker 1 (pid ${worker.pid}) on task queue ${TASK_QUEUE}; logs in ${dir}`);

  return {
    dir,
    address: server.address,
    uiUrl: server.uiUrl,
    client,
    receiver,
    async killWorker() {
      const killedAt = Date.now();
      await worker.kill('SIGKILL');
      worker = await startWorker();
      return { killedAt, readyAt: Date.now() };
    },
    async restartServer() {
      const stoppedAt = Date.now();
      await server.stop();
      server = await serve();
      return { stoppedAt, readyAt: Date.now() };
    },
    async close() {
      await worker.kill('SIGTERM');
      await receiver.close();
      await connection.close();
      await server.stop();
    },
  };
}

interface WorkerProcess {
  pid: number;
  kill(signal: NodeJS.Signals): Promise<void>;
}

/** The real CLI worker; resolves once it says it polls. Its output goes to `logFile`. */
async function spawnWorker(logFile: string, env: Record<string, string>): Promise<WorkerProcess> {
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', join(packageRoot, 'client', 'cli.ts'), 'worker'],
    { cwd: packageRoot, env: { ...process.env, ...env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const logStream = createWriteStream(logFile);
  child.stdout!.pipe(logStream);
  child.stderr!.pipe(logStream);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let output = '';
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Worker on task queue')) resolve();
    });
    void exited.then(() => reject(new Error(`the worker exited before it was ready; see ${logFile}`)));
  });
  return {
    pid: child.pid!,
    async kill(signal) {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}
