/**
 * Starts ONE Temporal dev server for the whole integration run (free ports, in memory, Web UI on)
 * and bundles the workflow code once; test files read both through `inject('temporal')`. The
 * server is the SDK's own test environment (`TestWorkflowEnvironment.createLocal`) running the
 * `temporal` binary that `npm test`'s setup obtained from a registry (`existing-path`: the SDK's
 * default download site is not reachable here).
 * A2A_TEST_TEMPORAL_ADDRESS=host:port runs the suite against that server instead (namespace
 * `default`, with the project's search attributes; its Web UI from A2A_TEMPORAL_UI_URL): this is
 * how `npm run test:cluster` points it at the production server on PostgreSQL.
 */
import { TestWorkflowEnvironment } from '@temporalio/testing';
import type { TestProject } from 'vitest/node';
import { searchAttributeKeys } from '../../contract/search-attributes.js';
import { freePort } from '../../platform/free-port.js';
import { writeWorkflowBundle } from '../../platform/workflow-bundle.js';
import { ensureTemporalCli } from '../../platform/temporal-cli.js';

export interface TemporalTestContext {
  address: string;
  namespace: string;
  uiUrl: string;
  cliPath: string;
  workflowBundlePath: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    temporal: TemporalTestContext;
  }
}

async function localServer(cliPath: string): Promise<{ env: TestWorkflowEnvironment; uiUrl: string }> {
  const ip = '127.0.0.1';
  const uiPort = await freePort(ip);
  const env = await TestWorkflowEnvironment.createLocal({
    server: {
      executable: { type: 'existing-path', path: cliPath },
      ip,
      searchAttributes: [...searchAttributeKeys],
      ui: true,
      uiPort,
      extraArgs: ['--ui-disable-news-fetch'],
      log: { format: 'pretty', level: 'error' },
    },
  });
  return { env, uiUrl: `http://${ip}:${uiPort}` };
}

export default async function setup(project: TestProject) {
  const cli = await ensureTemporalCli();
  const external = process.env.A2A_TEST_TEMPORAL_ADDRESS || undefined;
  const [local, workflowBundlePath] = await Promise.all([
    external ? undefined : localServer(cli.path),
    writeWorkflowBundle('test/fixtures/workflows.ts', 'test'),
  ]);
  project.provide('temporal', {
    address: local?.env.address ?? external!,
    namespace: 'default',
    uiUrl: (local ? local.uiUrl : process.env.A2A_TEMPORAL_UI_URL) ?? '',
    cliPath: cli.path,
    workflowBundlePath,
  });
  return () => local?.env.teardown();
}
