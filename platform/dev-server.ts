/**
 * The embedded default: `temporal server start-dev` with the Web UI, the project's search
 * attributes and (optionally) a SQLite file so workflows survive a restart.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Connection } from '@temporalio/client';
import { searchAttributeKeys } from '../contract/search-attributes.js';
import { freePort } from './free-port.js';
import { CLI_TYPE_NAME } from './search-attributes-setup.js';
import { ensureTemporalCli } from './temporal-cli.js';

export interface DevServerOptions {
  /** @default '127.0.0.1' */
  ip?: string;
  /** gRPC port; 0 picks a free one. @default 7233 */
  port?: number;
  /** Web UI port; 0 picks a free one, `false` runs headless. @default port + 1000 */
  uiPort?: number | false;
  /** SQLite file; omitted = in memory (gone when the server stops). */
  dbFile?: string;
  /** @default 'default' */
  namespace?: string;
  /** Server log level. @default 'warn' */
  logLevel?: 'debug' | 'info' | 'warn' | 'error';
  /** Where the server's own output goes. @default 'ignore' (the last lines are kept for errors) */
  output?: 'inherit' | 'ignore';
  /** Extra `start-dev` arguments. */
  extraArgs?: string[];
  /** A `temporal` binary to use instead of {@link ensureTemporalCli}'s. */
  cliPath?: string;
  /** How long to wait for the frontend to answer. @default 60_000 */
  readyTimeoutMs?: number;
  /** Let the server outlive this process (the demo's `--keep`); its output is then discarded. */
  detached?: boolean;
}

export interface DevServer {
  /** `host:port` of the frontend, for `Connection.connect({ address })`. */
  address: string;
  namespace: string;
  /** `http://host:port` of the Web UI, when it runs. */
  uiUrl?: string;
  process: ChildProcess;
  /** Stops the server (SIGTERM, then SIGKILL after 10 s) and waits for it to exit. */
  stop(): Promise<void>;
}

/** Thrown when the server process exits or does not answer in time; carries its last output. */
export class DevServerStartError extends Error {
  override readonly name = 'DevServerStartError';
}

/** Starts `temporal server start-dev` and resolves once the frontend answers gRPC calls. */
export async function startDevServer(options: DevServerOptions = {}): Promise<DevServer> {
  const ip = options.ip ?? '127.0.0.1';
  const port = options.port === 0 ? await freePort(ip) : (options.port ?? 7233);
  const uiPort =
    options.uiPort === false ? undefined : options.uiPort === 0 ? await freePort(ip) : (options.uiPort ?? port + 1000);
  const namespace = options.namespace ?? 'default';
  const cli = options.cliPath ?? (await ensureTemporalCli()).path;

  const args = [
    'server',
    'start-dev',
    '--ip',
    ip,
    '--port',
    String(port),
    '--namespace',
    namespace,
    '--log-level',
    options.logLevel ?? 'warn',
    ...searchAttributeKeys.flatMap((key) => ['--search-attribute', `${key.name}=${CLI_TYPE_NAME[key.type]}`]),
    ...(uiPort === undefined
      ? ['--headless']
      : ['--ui-port', String(uiPort), '--ui-ip', ip, '--ui-disable-news-fetch']),
    ...(options.dbFile ? ['--db-filename', options.dbFile] : []),
    ...(options.extraArgs ?? []),
  ];
  if (options.dbFile) mkdirSync(dirname(options.dbFile), { recursive: true });

  const output = options.detached ? 'ignore' : options.output === 'inherit' ? 'inherit' : 'pipe';
  const child = spawn(cli, args, { stdio: ['ignore', output, output], detached: options.detached ?? false });
  const tail: string[] = [];
  const keepTail = (chunk: Buffer) => {
    tail.push(...chunk.toString().split('\n').filter(Boolean));
    tail.splice(0, Math.max(0, tail.length - 20));
  };
  child.stdout?.on('data', keepTail);
  child.stderr?.on('data', keepTail);
  let exited: string | undefined;
  const exit = new Promise<void>((resolve) =>
    child.once('exit', (code, signal) => ((exited = `exited with ${signal ?? code}`), resolve())),
  );

  const address = `${ip}:${port}`;
  const stop = async () => {
    if (exited) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exit;
    clearTimeout(timer);
  };

  try {
    await waitUntilServing(address, namespace, options.readyTimeoutMs ?? 60_000, () => exited);
  } catch (err) {
    await stop();
    throw new DevServerStartError(`${(err as Error).message}. Server output:\n${tail.join('\n')}`);
  }
  if (options.detached) child.unref();
  return {
    address,
    namespace,
    uiUrl: uiPort === undefined ? undefined : `http://${ip}:${uiPort}`,
    process: child,
    stop,
  };
}

/** True when a Temporal frontend answers at `address` (used to reuse a running server). */
export async function isServing(address: string, namespace = 'default'): Promise<boolean> {
  let connection: Connection | undefined;
  try {
    connection = await Connection.connect({ address, connectTimeout: 1_000 });
    await connection.workflowService.describeNamespace({ namespace });
    return true;
  } catch {
    return false;
  } finally {
    await connection?.close();
  }
}

async function waitUntilServing(
  address: string,
  namespace: string,
  timeoutMs: number,
  exited: () => string | undefined,
) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const why = exited();
    if (why) throw new Error(`temporal server start-dev ${why} before it was ready`);
    if (await isServing(address, namespace)) return;
    await sleep(200);
  }
  throw new Error(`temporal server start-dev did not answer on ${address} within ${timeoutMs / 1000} s`);
}
