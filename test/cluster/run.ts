/**
 * `npm run test:cluster`: the production Temporal server on PostgreSQL, set up the way an
 * operator sets it up, and the project's tests against it.
 *
 * 1. the server, its schema tool and the Web UI server, `go install`ed by module name into
 *    `.cache/go-bin/<name>-<version>/` (only the first run builds; later runs take them from there);
 * 2. a throw-away PostgreSQL cluster on a free port; both databases created by the schema tool;
 * 3. the server from deploy/temporal-server.yaml (the compose stack's config) on free ports, under
 *    a supervisor that restarts it when it dies, reaching PostgreSQL through a Toxiproxy link
 *    (test/helpers/toxiproxy.ts) that the durability test disturbs; the UI server next to it;
 * 4. `a2a-temporal setup`: the namespace and the search attributes, by the project's own command;
 * 5. an S3-compatible server, versitygw (test/helpers/s3-server.ts: built once from the Go module
 *    proxy, cached in `.cache/go-bin/`), whose settings (A2A_BLOB_STORE=s3, A2A_S3_*, AWS_*)
 *    every test process gets: every worker and CLI that reads the environment stores blobs there,
 *    and the storage tests use it (test/helpers/test-blob-store.ts);
 * 6. the integration suite against it (one switch: A2A_TEST_TEMPORAL_ADDRESS), then the cluster
 *    durability test (test/cluster/durability.test.ts), which kills workers, the server and PostgreSQL.
 *
 * Prints the time of each step. `--only integration|cluster` runs one of the two test steps, and
 * further arguments filter the test files by name. Without Go (and no cached server) or without PostgreSQL it says so
 * in one sentence and exits 0, unless A2A_REQUIRE_CLUSTER=1 (CI) makes that a failure.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findGo } from '../../platform/go-install.js';
import { packageRoot } from '../../platform/paths.js';
import {
  ensureServerBinaries,
  ensureUiServer,
  serverBinariesCached,
  TEMPORAL_SERVER_VERSION,
  UI_SERVER_VERSION,
  uiServerCached,
} from './harness/binaries.js';
import type { ClusterState } from './harness/cluster-state.js';
import { findPostgres, startPostgres, stopPostgres, type PostgresInfo } from './harness/postgres.js';
import { runSetup } from './harness/setup.js';
import { createSchemas, serverEnv, startSupervisedServer, startUiServer } from './harness/temporal-server.js';
import { startS3Server, VERSITYGW_VERSION } from '../helpers/s3-server.js';
import { startToxiproxy, TOXIPROXY_VERSION } from '../helpers/toxiproxy.js';

const NAMESPACE = 'default';
/** `--only integration` or `--only cluster` runs one of the two test steps (for working on one). */
const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : undefined;
/** Anything else on the command line filters the test files (`-- --only integration receiver-attacks`). */
const fileFilters = process.argv.slice(2).filter((arg, i, all) => !arg.startsWith('--') && all[i - 1] !== '--only');
if (only !== undefined && only !== 'integration' && only !== 'cluster') {
  console.error(`test:cluster: --only takes integration or cluster, not "${only}".`);
  process.exit(2);
}
const exitNote = (code: number) => `exit ${code}`;
const started = Date.now();
const timings: Array<[string, number, string]> = [];
const cleanups: Array<() => Promise<unknown>> = [];
let child: ChildProcess | undefined;

async function step<T>(name: string, fn: () => Promise<T>, note: (value: T) => string = () => ''): Promise<T> {
  const t0 = Date.now();
  console.log(`cluster: ${name} …`);
  const value = await fn();
  const seconds = (Date.now() - t0) / 1000;
  const detail = note(value);
  timings.push([name, seconds, detail]);
  console.log(`cluster: ${name}: ${seconds.toFixed(1)} s${detail ? ` (${detail})` : ''}`);
  return value;
}

function skip(reason: string): never {
  if (process.env.A2A_REQUIRE_CLUSTER === '1') {
    console.error(`test:cluster failed: ${reason}, and A2A_REQUIRE_CLUSTER=1 says this machine must run it.`);
    process.exit(1);
  }
  console.log(`test:cluster skipped: ${reason}.`);
  process.exit(0);
}

async function cleanup() {
  child?.kill('SIGTERM');
  for (const fn of cleanups.reverse()) await fn().catch((err: unknown) => console.error(`cluster: ${String(err)}`));
  cleanups.length = 0;
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void cleanup().finally(() => process.exit(130)));
}

/** Runs one vitest project of vitest.cluster.config.ts against the cluster. */
function vitest(project: string, env: Record<string, string>): Promise<number> {
  const bin = join(packageRoot, 'node_modules', 'vitest', 'vitest.mjs');
  const args = [bin, 'run', '--config', 'vitest.cluster.config.ts', '--project', project, ...fileFilters];
  child = spawn(process.execPath, args, {
    cwd: packageRoot,
    env: { ...process.env, ...env },
    stdio: 'inherit',
  });
  return new Promise((resolve) => child!.once('exit', (code) => resolve(code ?? 1)));
}

const pgBin = await findPostgres();
if (!pgBin) {
  skip(
    'PostgreSQL is not installed (no initdb/pg_ctl on PATH or under /usr/lib/postgresql; Debian package postgresql)',
  );
}
if (!serverBinariesCached() && !(await findGo())) {
  skip(
    `Go is not installed, and the Temporal server ${TEMPORAL_SERVER_VERSION} is not cached in .cache/go-bin/ (it is built once with go install)`,
  );
}

const runDir = mkdtempSync(join(tmpdir(), 'a2a-cluster-'));
chmodSync(runDir, 0o755); // PostgreSQL runs as its own user and must reach its folder
let failed = true;
try {
  const binaries = await step(
    `temporal server ${TEMPORAL_SERVER_VERSION} and schema tool`,
    ensureServerBinaries,
    (b) => (b.built ? 'built with go install' : 'cached'),
  );
  const ui = await step(
    `ui server ${UI_SERVER_VERSION}`,
    async () => (uiServerCached() || (await findGo()) ? ensureUiServer() : undefined),
    (u) => (u ? (u.built ? 'built with go install' : 'cached') : 'no Go: running without the Web UI'),
  );
  const pg: PostgresInfo = await step(
    'postgresql',
    () => startPostgres(pgBin, runDir),
    (p) => `127.0.0.1:${p.port}`,
  );
  cleanups.push(() => stopPostgres(pg));
  await step('schemas (temporal, temporal_visibility)', () => createSchemas(binaries, pg));
  // The server reaches PostgreSQL through a Toxiproxy link, which the durability test disturbs.
  const toxiproxy = await step(`toxiproxy ${TOXIPROXY_VERSION}`, startToxiproxy, (t) => t.apiUrl);
  cleanups.push(() => toxiproxy.stop());
  const postgresLink = await toxiproxy.link('temporal-postgres', `127.0.0.1:${pg.port}`);
  const config = await serverEnv(pg, Number(postgresLink.listen.split(':').at(-1)));
  const server = await step(
    'temporal server',
    () => startSupervisedServer(binaries, config, runDir),
    (s) => `${s.address}, deploy/temporal-server.yaml`,
  );
  cleanups.push(() => server.stop());
  const uiServer = ui
    ? await step(
        'ui server',
        () => startUiServer(ui.path, server.address, runDir),
        (u) => u.url,
      )
    : undefined;
  if (uiServer) cleanups.push(() => uiServer.stop());

  await step(
    'a2a-temporal setup',
    () => runSetup(server.address, NAMESPACE),
    (out) => out,
  );

  const s3 = await step(
    `s3 server (versitygw ${VERSITYGW_VERSION})`,
    () => startS3Server({ bucket: 'a2a-cluster' }),
    (s) => `${s.endpoint}, bucket ${s.bucket}`,
  );
  cleanups.push(() => s3.stop());

  const state: ClusterState = {
    address: server.address,
    namespace: NAMESPACE,
    uiUrl: uiServer?.url,
    serverPidFile: server.pidFile,
    postgres: pg,
    postgresLink: { apiUrl: toxiproxy.apiUrl, name: postgresLink.name },
    figuresFile: join(runDir, 'durability.json'),
  };
  const stateFile = join(runDir, 'cluster.json');
  writeFileSync(stateFile, JSON.stringify(state, null, 2));
  const env = {
    A2A_TEST_TEMPORAL_ADDRESS: server.address,
    ...(uiServer ? { A2A_TEMPORAL_UI_URL: uiServer.url } : {}),
    A2A_TEST_CLUSTER: stateFile,
    // npm test resumes a 200 MB file; on the S3 store a 6 MB one takes the same paths.
    A2A_TEST_FILE_MB: process.env.A2A_TEST_FILE_MB ?? '6',
    ...s3.env,
  };
  const suite = only === 'cluster' ? 0 : await step('integration suite', () => vitest('integration', env), exitNote);
  const durability =
    only === 'integration' ? 0 : await step('cluster durability test', () => vitest('cluster', env), exitNote);
  if (existsSync(state.figuresFile)) {
    console.log(`cluster: durability figures ${readFileSync(state.figuresFile, 'utf8').trim()}`);
  }
  console.log(`cluster: the server was started ${server.starts()} times (restarts by the supervisor included)`);
  failed = suite !== 0 || durability !== 0;
} catch (err) {
  console.error(`cluster: ${(err as Error).message}`);
} finally {
  await cleanup();
  const total = (Date.now() - started) / 1000;
  console.log('cluster: step times');
  for (const [name, seconds, detail] of timings) {
    console.log(`  ${seconds.toFixed(1).padStart(6)} s  ${name}${detail ? ` (${detail})` : ''}`);
  }
  console.log(`  ${total.toFixed(1).padStart(6)} s  in all`);
  if (failed) console.error(`cluster: FAILED; the server's and PostgreSQL's logs are in ${runDir}`);
  else rmSync(runDir, { recursive: true, force: true });
  process.exitCode = failed ? 1 : 0;
}
