/**
 * Global setup of the `workflows` project (test/workflows/: the workflows against scripted
 * activities): bundles the workflow code once and obtains the two servers the files start for
 * themselves — Temporal's time-skipping test server (Maven Central, see
 * tooling/temporal-test-server.ts) and the `temporal` CLI's dev server, for the one thing the
 * test server never does: suggest continue-as-new.
 */
import type { TestProject } from 'vitest/node';
import { ensureTemporalCli } from '../../platform/temporal-cli.js';
import { writeWorkflowBundle } from '../../platform/workflow-bundle.js';
import { ensureTestServer } from '../../tooling/temporal-test-server.js';

export interface WorkflowTestsContext {
  testServerPath: string;
  cliPath: string;
  workflowBundlePath: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    workflowTests: WorkflowTestsContext;
  }
}

export default async function setup(project: TestProject): Promise<void> {
  const [testServer, cli, workflowBundlePath] = await Promise.all([
    ensureTestServer(),
    ensureTemporalCli(),
    writeWorkflowBundle('test/fixtures/workflows.ts', 'workflow-tests'),
  ]);
  project.provide('workflowTests', { testServerPath: testServer.path, cliPath: cli.path, workflowBundlePath });
}
