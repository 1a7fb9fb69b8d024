/**
 * A throw-away PostgreSQL cluster from the machine's PostgreSQL binaries (Debian's
 * postgresql package), on a free port on 127.0.0.1, with password authentication as in a real
 * deployment. PostgreSQL refuses to run as root, so as root every command runs as the `postgres`
 * user (`runuser -u postgres --`) on folders that user owns.
 */
import { execFile } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '../../../platform/free-port.js';

const run = promisify(execFile);

export const POSTGRES_USER = 'temporal';
export const POSTGRES_PASSWORD = 'temporal';

/** What it takes to drive a cluster from any process (the durability test restarts it). */
export interface PostgresInfo {
  binDir: string;
  dataDir: string;
  port: number;
  /** Runs as this user (root cannot run PostgreSQL). */
  runAs?: { user: string; uid: number; gid: number };
}

/** The folder of `initdb`/`pg_ctl`: PATH, else the newest /usr/lib/postgresql/<major>/bin. */
export async function findPostgres(): Promise<string | undefined> {
  try {
    const { stdout } = await run('pg_config', ['--bindir']);
    const dir = stdout.trim();
    if (existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl'))) return dir;
  } catch {
    // no pg_config on PATH; look where Debian installs the server
  }
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const majors = readdirSync(root)
    .filter((v) => /^\d+$/.test(v) && existsSync(join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return majors[0] ? join(root, majors[0], 'bin') : undefined;
}

/** Initialises a cluster in `<dir>/pgdata` and starts it. */
export async function startPostgres(binDir: string, dir: string): Promise<PostgresInfo> {
  const runAs = process.getuid?.() === 0 ? await postgresUser() : undefined;
  const dataDir = join(dir, 'pgdata');
  const pwfile = join(dir, 'pgpass');
  writeFileSync(pwfile, `${POSTGRES_PASSWORD}\n`, { mode: 0o600 });
  mkdirSync(dataDir, { mode: 0o700 });
  if (runAs) {
    chownSync(pwfile, runAs.uid, runAs.gid);
    chownSync(dataDir, runAs.uid, runAs.gid);
  }
  const info: PostgresInfo = { binDir, dataDir, port: await freePort(), runAs };
  await pg(info, 'initdb', [
    '-D',
    dataDir,
    '-U',
    POSTGRES_USER,
    `--pwfile=${pwfile}`,
    '--auth=scram-sha-256',
    '--encoding=UTF8',
    '--no-sync',
  ]);
  await startCluster(info);
  return info;
}

/** Stops fast (open sessions are ended, nothing is lost). */
export async function stopPostgres(info: PostgresInfo): Promise<void> {
  await pg(info, 'pg_ctl', ['-D', info.dataDir, '-m', 'fast', '-w', 'stop']);
}

/**
 * Restarts the cluster; `immediate` stops it the way a crash does (no checkpoint; the next start
 * replays the write-ahead log).
 */
export async function restartPostgres(info: PostgresInfo, mode: 'fast' | 'immediate' = 'immediate'): Promise<void> {
  await pg(info, 'pg_ctl', ['-D', info.dataDir, '-m', mode, '-w', 'stop']);
  await startCluster(info);
}

async function startCluster(info: PostgresInfo): Promise<void> {
  const options = `-c listen_addresses=127.0.0.1 -p ${info.port} -k ${info.dataDir} -c max_connections=200`;
  await pg(info, 'pg_ctl', ['-D', info.dataDir, '-o', options, '-l', join(info.dataDir, 'server.log'), '-w', 'start']);
}

async function pg(info: Pick<PostgresInfo, 'binDir' | 'dataDir' | 'runAs'>, tool: string, args: string[]) {
  const binary = join(info.binDir, tool);
  const [command, argv] = info.runAs ? ['runuser', ['-u', info.runAs.user, '--', binary, ...args]] : [binary, args];
  try {
    // cwd: the data folder's parent, which the postgres user can enter (it cannot enter /root).
    await run(command, argv, { cwd: join(info.dataDir, '..'), timeout: 120_000 });
  } catch (err) {
    const e = err as { stderr?: string; message?: string };
    throw new Error(`${tool} ${args[0] ?? ''} failed: ${(e.stderr || e.message || String(err)).trim()}`, {
      cause: err,
    });
  }
}

async function postgresUser() {
  try {
    const [uid, gid] = await Promise.all(
      ['-u', '-g'].map(async (flag) => Number((await run('id', [flag, 'postgres'])).stdout.trim())),
    );
    return { user: 'postgres', uid: uid!, gid: gid! };
  } catch {
    throw new Error('PostgreSQL cannot run as root, and there is no `postgres` user to run it as.');
  }
}
