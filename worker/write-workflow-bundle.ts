/**
 * `node dist/worker/write-workflow-bundle.js <file>`: bundles the worker's workflows once, at image
 * build time (see the Dockerfile), so workers started with A2A_WORKFLOW_BUNDLE=<file> skip the
 * few seconds of bundling at every start and all run byte-identical workflow code.
 */
import { resolve } from 'node:path';
import { bundleWorkflowsTo } from '../platform/workflow-bundle.js';
import { SHOWCASE_WORKFLOWS_PATH } from './workflow-modules.js';

const out = process.argv[2];
if (!out) {
  console.error('usage: write-workflow-bundle <file>   (then run workers with A2A_WORKFLOW_BUNDLE=<file>)');
  process.exitCode = 2;
} else {
  const started = Date.now();
  const path = await bundleWorkflowsTo(SHOWCASE_WORKFLOWS_PATH, resolve(out));
  console.log(`Workflow bundle written to ${path} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
