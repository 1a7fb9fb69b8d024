/**
 * What an operator is told when the CLI or a worker meets a Temporal service that is not ready
 * for it: one sentence each, with the command that fixes it. Real server, real CLI processes.
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type Server } from 'node:tls';
import { promisify } from 'node:util';
import { msToTs } from '@temporalio/common/lib/time.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliProcess, SAMPLE_RELEASE_START } from '../../helpers/cli-process.js';
import { uniqueTaskQueue, useTemporal } from '../../helpers/temporal.js';
import { waitFor } from '../../helpers/wait.js';

const temporal = useTemporal();
const release = (namespace: string, ...more: string[]) =>
  runCliProcess([
    ...SAMPLE_RELEASE_START,
    '--namespace',
    namespace,
    '--task-queue',
    uniqueTaskQueue('nobody'),
    ...more,
  ]);

/** A namespace created behind the project's back: no search attributes, like a fresh cluster's. */
async function bareNamespace(): Promise<string> {
  const namespace = `bare-${randomUUID().slice(0, 8)}`;
  const { connection } = await temporal.client();
  await connection.workflowService.registerNamespace({
    namespace,
    workflowExecutionRetentionPeriod: msToTs('1 day'),
  });
  // The frontend's namespace cache learns of it a few seconds later.
  await waitFor(() => connection.operatorService.listSearchAttributes({ namespace }).then(() => true), {
    timeoutMs: 30_000,
    intervalMs: 200,
    what: `namespace ${namespace} to be served`,
  });
  return namespace;
}

describe('a namespace without the search attributes', () => {
  let namespace: string;
  beforeAll(async () => {
    namespace = await bareNamespace();
  });

  it('makes the worker refuse to start, naming them and the setup command that registers them', async () => {
    const worker = await runCliProcess([
      'worker',
      '--namespace',
      namespace,
      '--task-queue',
      uniqueTaskQueue('refused'),
    ]);
    expect(worker.code).toBe(1);
    expect(worker.stderr.trim()).toBe(
      `error: Namespace ${namespace} lacks the search attributes A2aAgent, A2aTaskState, A2aTaskId, ReleaseService, ReleasePhase that a2a-temporal's workflows set, so every release and delegation would fail to start: register them with \`a2a-temporal setup --namespace ${namespace}\`, then start the worker again.`,
    );
  });

  it('turns the failed start into one sentence, and `a2a-temporal setup` fixes it', async () => {
    const refused = await release(namespace);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      new RegExp(
        `^error: Namespace ${namespace} on \\S+ has no search attribute Release(Service|Phase), which a2a-temporal's workflows set: register them all with \`a2a-temporal setup --namespace ${namespace}\`\\.$`,
        'm',
      ),
    );

    const setup = await runCliProcess(['setup', '--namespace', namespace]);
    expect(setup.code, setup.stderr).toBe(0);
    expect(setup.stdout).toBe(
      `Namespace ${namespace}: exists on ${temporal.server.address}\nSearch attributes: registered A2aAgent, A2aTaskState, A2aTaskId, ReleaseService, ReleasePhase\n`,
    );
    const again = await runCliProcess(['setup', '--namespace', namespace]);
    expect(again.stdout).toMatch(/^Search attributes: all 5 present/m);

    const started = await release(namespace, '--json');
    expect(started.code, started.stderr).toBe(0);
    const { workflowId } = JSON.parse(started.stdout) as { workflowId: string };
    const client = await temporal.client();
    await client.workflowService.terminateWorkflowExecution({ namespace, workflowExecution: { workflowId } });
  });
});

describe('a2a-temporal setup', () => {
  it('creates a missing namespace with its search attributes, ready for workflows at once', async () => {
    const namespace = `made-${randomUUID().slice(0, 8)}`;
    const setup = await runCliProcess(['setup', '--namespace', namespace, '--retention', '2 days']);
    expect(setup.code, setup.stderr).toBe(0);
    expect(setup.stdout).toBe(
      `Namespace ${namespace}: created on ${temporal.server.address} (retention 2 days)\nSearch attributes: registered A2aAgent, A2aTaskState, A2aTaskId, ReleaseService, ReleasePhase\n`,
    );
    const { connection } = await temporal.client();
    const described = await connection.workflowService.describeNamespace({ namespace });
    expect(Number(described.config?.workflowExecutionRetentionTtl?.seconds)).toBe(2 * 86_400);
    const started = await release(namespace, '--json');
    expect(started.code, started.stderr).toBe(0);
    const { workflowId } = JSON.parse(started.stdout) as { workflowId: string };
    await connection.workflowService.terminateWorkflowExecution({ namespace, workflowExecution: { workflowId } });
  });

  it('with --no-create-namespace, names the missing namespace instead of creating it', async () => {
    const namespace = `absent-${randomUUID().slice(0, 8)}`;
    const setup = await runCliProcess(['setup', '--namespace', namespace, '--no-create-namespace']);
    expect(setup.code).toBe(1);
    expect(setup.stderr.trim()).toBe(
      `error: Namespace ${namespace} does not exist on ${temporal.server.address}: create it with \`a2a-temporal setup --namespace ${namespace}\`, or choose another with --namespace (env TEMPORAL_NAMESPACE).`,
    );
  });
});

describe('connection profiles (--profile)', () => {
  let configFile: string;
  beforeAll(() => {
    configFile = join(mkdtempSync(join(tmpdir(), 'a2a-profile-')), 'temporal.toml');
    writeFileSync(
      configFile,
      [
        '[profile.local]',
        `address = "${temporal.server.address}"`,
        `namespace = "${temporal.server.namespace}"`,
        '',
        '[profile.elsewhere]',
        `address = "${temporal.server.address}"`,
        'namespace = "no-such-namespace"',
        '',
      ].join('\n'),
    );
  });
  const withProfiles = { TEMPORAL_CONFIG_FILE: '', TEMPORAL_ADDRESS: undefined, TEMPORAL_NAMESPACE: undefined };

  it('selects the address and namespace of the named profile, on any command', async () => {
    const env = { ...withProfiles, TEMPORAL_CONFIG_FILE: configFile };
    const listed = await runCliProcess(['list', '--json', '--profile', 'local'], env);
    expect(listed.code, listed.stderr).toBe(0);
    expect(Array.isArray(JSON.parse(listed.stdout))).toBe(true);

    const elsewhere = await runCliProcess(['--profile', 'elsewhere', 'list'], env);
    expect(elsewhere.code).toBe(1);
    expect(elsewhere.stderr.trim()).toBe(
      `error: Namespace no-such-namespace does not exist on ${temporal.server.address}: create it with \`a2a-temporal setup --profile elsewhere --namespace no-such-namespace\`, or choose another with --namespace (env TEMPORAL_NAMESPACE).`,
    );
  });

  it('names a profile that the config file does not have', async () => {
    const run = await runCliProcess(['status', 'x', '--profile', 'staging'], {
      ...withProfiles,
      TEMPORAL_CONFIG_FILE: configFile,
    });
    expect(run.code).toBe(1);
    expect(run.stderr.trim()).toBe(
      `error: Cannot read the Temporal connection profile "staging" from ${configFile} (Profile 'staging' not found in config data): list its profiles with \`temporal config list\`, or choose another with --profile (env TEMPORAL_PROFILE, file TEMPORAL_CONFIG_FILE).`,
    );
  });
});

describe('TLS mismatches', () => {
  let tlsServer: Server;
  let tlsAddress: string;
  beforeAll(async () => {
    // A TLS endpoint with a self-signed certificate (made by openssl, as an operator would).
    const dir = mkdtempSync(join(tmpdir(), 'a2a-tls-'));
    await promisify(execFile)('openssl', [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=temporal.test',
      '-keyout',
      join(dir, 'key.pem'),
      '-out',
      join(dir, 'cert.pem'),
    ]);
    tlsServer = createServer(
      { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) },
      (s) => s.end(),
    );
    await new Promise<void>((resolve) => tlsServer.listen(0, '127.0.0.1', resolve));
    tlsAddress = `127.0.0.1:${(tlsServer.address() as { port: number }).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => (tlsServer ? tlsServer.close(() => resolve()) : resolve())));

  it('says the handshake failed, and why, when TLS meets a server without it', async () => {
    const run = await runCliProcess(['list'], { TEMPORAL_TLS: 'true' });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      new RegExp(
        `^error: The TLS handshake with the Temporal server at ${temporal.server.address} failed \\(wrong version number\\): check the TLS settings of your environment or --profile .*, or set TEMPORAL_TLS=false for a server without TLS\\.$`,
        'm',
      ),
    );
  });

  it('names the certificate problem when the server presents a certificate nobody vouches for', async () => {
    const run = await runCliProcess(['list', '--address', tlsAddress], { TEMPORAL_TLS: 'true' });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      new RegExp(
        `^error: The TLS handshake with the Temporal server at ${tlsAddress} failed \\(self-signed certificate\\)`,
        'm',
      ),
    );
  });

  it('says so when the server speaks TLS and the connection is plain', async () => {
    const run = await runCliProcess(['list', '--address', tlsAddress]);
    expect(run.code).toBe(1);
    expect(run.stderr.trim()).toBe(
      `error: The Temporal server at ${tlsAddress} speaks TLS, but this connection is plain: set TEMPORAL_TLS=true (with TEMPORAL_API_KEY or a client certificate), or choose a profile that has them with --profile.`,
    );
  });
});
