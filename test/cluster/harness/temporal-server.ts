/**
 * The production Temporal server on PostgreSQL, run from deploy/temporal-server.yaml (the file
 * the compose stack mounts) on free ports, kept alive by a supervisor the way a process manager
 * or compose's restart policy keeps it alive: when the process dies, a new one starts at once on
 * the same ports and database, and its pid is written to a file other processes read.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createServer } from 'node:net';
import { promisify } from 'node:util';
import { Connection } from '@temporalio/client';
import { freePort } from '../../../platform/free-port.js';
import { packageRoot } from '../../../platform/paths.js';
import type { ServerBinaries } from './binaries.js';
import { POSTGRES_PASSWORD, POSTGRES_USER, type PostgresInfo } from './postgres.js';

const run = promisify(execFile);

/** The one config file of the compose stack and of this test. */
export const SERVER_CONFIG = join(packageRoot, 'deploy', 'temporal-server.yaml');
export const DYNAMIC_CONFIG = join(packageRoot, 'deploy', 'dynamicconfig', 'development-sql.yaml');

const DATABASES = [
  { name: 'temporal', schema: 'temporal' },
  { name: 'temporal_visibility', schema: 'visibility' },
] as const;

/** Creates both databases and brings their schemas to the binaries' version, as deploy/scripts/setup-postgres.sh does. */
export async function createSchemas(binaries: ServerBinaries, pg: PostgresInfo): Promise<void> {
  const base = ['--plugin', 'postgres12', '--ep', '127.0.0.1', '-p', String(pg.port), '-u', POSTGRES_USER];
  const env = { ...process.env, SQL_PASSWORD: POSTGRES_PASSWORD };
  const sql = async (db: string, args: string[]) => {
    try {
      await run(binaries.sqlTool, [...base, '--db', db, ...args], { env, maxBuffer: 16 << 20 });
    } catch (err) {
      const e = err as { stderr?: string; message?: string };
      throw new Error(`the schema tool failed on ${db} (${args[0]}): ${(e.stderr || e.message || '').trim()}`);
    }
  };
  for (const { name, schema } of DATABASES) {
    await sql(name, ['create']);
    await sql(name, ['setup-schema', '-v', '0.0']);
    await sql(name, ['update-schema', '-d', join(binaries.postgresSchema, schema, 'versioned')]);
  }
}

export interface ServerEnv {
  /** Environment of the server process: the template variables of deploy/temporal-server.yaml. */
  env: Record<string, string>;
  address: string;
}

/**
 * Free ports for every service, and the database, as the config file's variables. `dbPort` is
 * where the server reaches PostgreSQL (the cluster run puts a Toxiproxy link there).
 */
export async function serverEnv(pg: PostgresInfo, dbPort = pg.port): Promise<ServerEnv> {
  const names = [
    'FRONTEND_GRPC_PORT',
    'FRONTEND_HTTP_PORT',
    'FRONTEND_MEMBERSHIP_PORT',
    'HISTORY_GRPC_PORT',
    'HISTORY_MEMBERSHIP_PORT',
    'MATCHING_GRPC_PORT',
    'MATCHING_MEMBERSHIP_PORT',
    'WORKER_GRPC_PORT',
    'WORKER_MEMBERSHIP_PORT',
    'PROMETHEUS_PORT',
  ];
  const ports: Record<string, string> = {};
  for (const name of names)
    ports[name] = String(name.endsWith('MEMBERSHIP_PORT') ? await freeSmallPort() : await freePort());
  return {
    address: `127.0.0.1:${ports.FRONTEND_GRPC_PORT}`,
    env: {
      ...ports,
      BIND_ON_IP: '127.0.0.1',
      POSTGRES_SEEDS: '127.0.0.1',
      DB_PORT: String(dbPort),
      POSTGRES_USER,
      POSTGRES_PWD: POSTGRES_PASSWORD,
      DYNAMIC_CONFIG_FILE_PATH: DYNAMIC_CONFIG,
      LOG_LEVEL: 'warn',
    },
  };
}

export interface SupervisedServer {
  address: string;
  pidFile: string;
  /** How many times the supervisor started the server (1 = never restarted). */
  starts(): number;
  /** Stops the server for good (SIGTERM, then SIGKILL after 15 s). */
  stop(): Promise<void>;
}

/**
 * A free port below 32768: the server stores membership ports in a PostgreSQL `smallint`
 * (cluster_membership.rpc_port), and the ports the OS hands out for port 0 lie above it.
 */
async function freeSmallPort(): Promise<number> {
  for (;;) {
    const port = 10_000 + Math.floor(Math.random() * 22_000);
    const free = await new Promise<boolean>((resolve) => {
      const probe = createServer();
      probe.once('error', () => resolve(false));
      probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
    });
    if (free) return port;
  }
}

/** Starts the server and restarts it whenever it exits, until `stop()`. Resolves once it serves. */
export async function startSupervisedServer(
  binaries: ServerBinaries,
  config: ServerEnv,
  runDir: string,
): Promise<SupervisedServer> {
  const pidFile = join(runDir, 'temporal-server.pid');
  const log = createWriteStream(join(runDir, 'temporal-server.log'), { flags: 'a' });
  let child: ChildProcess | undefined;
  let stopping = false;
  let starts = 0;
  const launch = () => {
    starts += 1;
    log.write(`--- start ${starts} at ${new Date().toISOString()}\n`);
    const proc = spawn(binaries.server, ['--config-file', SERVER_CONFIG, '--allow-no-auth', 'start'], {
      cwd: packageRoot,
      env: { ...process.env, ...config.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    proc.stdout!.pipe(log, { end: false });
    proc.stderr!.pipe(log, { end: false });
    writeFileSync(pidFile, String(proc.pid));
    proc.once('exit', (code, signal) => {
      log.write(`--- exited with ${signal ?? code}\n`);
      if (!stopping) launch();
    });
    child = proc;
  };
  const stop = async () => {
    stopping = true;
    const proc = child!;
    if (proc.exitCode === null && proc.signalCode === null) {
      const exited = new Promise((resolve) => proc.once('exit', resolve));
      proc.kill('SIGTERM');
      const timer = setTimeout(() => proc.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    }
    log.end();
  };
  launch();
  try {
    // A server that exits three times before it serves has a configuration problem, not bad luck.
    await waitForFrontend(config.address, 90_000, () => starts > 3);
  } catch (err) {
    await stop();
    throw new Error(`${(err as Error).message} (its log: ${join(runDir, 'temporal-server.log')})`, { cause: err });
  }
  return { address: config.address, pidFile, starts: () => starts, stop };
}

/** Resolves once the frontend answers `GetSystemInfo` (before any namespace exists). */
export async function waitForFrontend(address: string, timeoutMs: number, givenUp: () => boolean = () => false) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    let connection: Connection | undefined;
    try {
      connection = await Connection.connect({ address, connectTimeout: 1_000 });
      await connection.workflowService.getSystemInfo({});
      return;
    } catch (err) {
      if (Date.now() > deadline || givenUp()) {
        throw new Error(`the Temporal server did not answer on ${address}: ${(err as Error).message}`);
      }
    } finally {
      await connection?.close();
    }
    await sleep(100);
  }
}

/** The Web UI server against `address`, on a free port of 127.0.0.1. */
export async function startUiServer(binary: string, address: string, runDir: string) {
  const port = await freePort();
  const configDir = join(runDir, 'ui-config');
  mkdirSync(configDir, { recursive: true });
  writeFileSync(
    join(configDir, 'cluster.yaml'),
    [
      `temporalGrpcAddress: ${address}`,
      'host: 127.0.0.1',
      `port: ${port}`,
      'enableUi: true',
      'defaultNamespace: default',
      'disableNewsFetch: true',
      'refreshInterval: 0s',
      '',
    ].join('\n'),
  );
  const child = spawn(binary, ['--root', runDir, '--config', 'ui-config', '--env', 'cluster', 'start'], {
    stdio: ['ignore', 'ignore', 'ignore'],
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      if ((await fetch(url)).ok) break;
    } catch {
      if (child.exitCode !== null || Date.now() > deadline) throw new Error(`the UI server did not answer on ${url}`);
    }
    await sleep(100);
  }
  return {
    url,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
