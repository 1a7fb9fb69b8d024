import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bundleWorkflowCode } from '@temporalio/worker';
import { cacheDir, packageRoot } from './paths.js';

/**
 * Bundles the workflows of `workflowsPath` (relative to the package root) once and writes the
 * bundle under the ignored cache folder (`<cache>/<folder>/workflow-bundle-<pid>.js`), so that
 * several workers, or worker processes, share one bundle instead of each building its own.
 * @returns the bundle's path, for `workflowBundle: { codePath }`.
 */
export async function writeWorkflowBundle(workflowsPath: string, folder: string): Promise<string> {
  const { code } = await bundleWorkflowCode({
    workflowsPath: join(packageRoot, workflowsPath),
    logger: { trace() {}, debug() {}, info() {}, warn: console.warn, error: console.error, log() {} },
  });
  const dir = join(cacheDir, folder);
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `workflow-bundle-${process.pid}.js`);
  writeFileSync(path, code);
  return path;
}
