/**
 * deploy/scripts/create-namespace.sh, the compose-era script for stacks with Temporal's
 * admin-tools: run for real with the temporal CLI against the run's server.
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { dirname, join } from 'node:path';
import proto from '@temporalio/proto';
import { msToTs } from '@temporalio/common/lib/time.js';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../../platform/paths.js';
import { checkSearchAttributes } from '../../../platform/search-attributes-setup.js';
import { temporalServer, useTemporal } from '../../helpers/temporal.js';
import { waitFor } from '../../helpers/wait.js';

const temporal = useTemporal();

function createNamespace(namespace: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const server = temporalServer();
  return new Promise((resolve) => {
    execFile(
      'sh',
      [join(packageRoot, 'deploy', 'scripts', 'create-namespace.sh')],
      {
        env: {
          PATH: `${dirname(server.cliPath)}:${process.env.PATH ?? ''}`,
          HOME: process.env.HOME ?? '/tmp',
          TEMPORAL_ADDRESS: server.address,
          DEFAULT_NAMESPACE: namespace,
        },
        timeout: 120_000,
      },
      (error, stdout, stderr) =>
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('deploy/scripts/create-namespace.sh', () => {
  it('creates the namespace and registers every search attribute the workflows set, again without harm', async () => {
    const namespace = `compose-${randomUUID().slice(0, 8)}`;
    const first = await createNamespace(namespace);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toMatch(`create-namespace: created namespace ${namespace} (retention 72h)`);
    const { connection } = await temporal.client();
    expect(await checkSearchAttributes(connection, namespace)).toEqual({ missing: [], wrongType: [] });

    const second = await createNamespace(namespace);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toMatch(`create-namespace: namespace ${namespace} exists`);
  });

  it('fails loudly, naming the attribute, when one cannot be registered', async () => {
    const namespace = `clash-${randomUUID().slice(0, 8)}`;
    const { connection } = await temporal.client();
    await connection.workflowService.registerNamespace({
      namespace,
      workflowExecutionRetentionPeriod: msToTs('1 day'),
    });
    // Someone registered A2aTaskId as Text before: Keyword cannot be added under that name.
    const text = proto.temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_TEXT;
    await waitFor(
      () =>
        connection.operatorService
          .addSearchAttributes({ namespace, searchAttributes: { A2aTaskId: text } })
          .then(() => true),
      { timeoutMs: 30_000, intervalMs: 200, what: `namespace ${namespace} to take a search attribute` },
    );

    const run = await createNamespace(namespace);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      `create-namespace: could not register search attribute A2aTaskId (Keyword) in namespace ${namespace} (see the error above).`,
    );
    expect(await checkSearchAttributes(connection, namespace)).toMatchObject({
      wrongType: ['A2aTaskId (Text, needs Keyword)'],
    });
  });
});
