/**
 * Starts ONE Temporal dev server for the whole integration run (free ports, in memory, Web UI on)
 * and bundles the workflow code once; test files read both through `inject('temporal')`.
 * A2A_TEST_TEMPORAL_ADDRESS=host:port runs the suite against that server instead (namespace
 * `default`, with the project's search attributes; its Web UI from A2A_TEMPORAL_UI_URL): this is
 * how `npm run test:cluster` points it at the production server on PostgreSQL.
 */
import type { TestProject } from 'vitest/node';
import { startDevServer } from '../../platform/dev-server.js';
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

export default async function setup(project: TestProject) {
  const cli = await ensureTemporalCli();
  const external = process.env.A2A_TEST_TEMPORAL_ADDRESS || undefined;
  const [server, workflowBundlePath] = await Promise.all([
    external ? undefined : startDevServer({ port: 0, uiPort: 0, cliPath: cli.path }),
    writeWorkflowBundle('test/fixtures/workflows.ts', 'test'),
  ]);
  project.provide('temporal', {
    address: server?.address ?? external!,
    namespace: server?.namespace ?? 'default',
    uiUrl: (server ? server.uiUrl : process.env.A2A_TEMPORAL_UI_URL) ?? '',
    cliPath: cli.path,
    workflowBundlePath,
  });
  return () => server?.stop();
}
