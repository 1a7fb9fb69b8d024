/**
 * Starts ONE Temporal dev server for the whole integration run (free ports, in memory, Web UI on)
 * and bundles the workflow code once; test files read both through `inject('temporal')`.
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
  const [server, workflowBundlePath] = await Promise.all([
    startDevServer({ port: 0, uiPort: 0, cliPath: cli.path }),
    writeWorkflowBundle('test/fixtures/workflows.ts', 'test'),
  ]);
  project.provide('temporal', {
    address: server.address,
    namespace: server.namespace,
    uiUrl: server.uiUrl ?? '',
    cliPath: cli.path,
    workflowBundlePath,
  });
  return () => server.stop();
}
