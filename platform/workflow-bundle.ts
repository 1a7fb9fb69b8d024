import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleWorkflowCode } from '@temporalio/worker';
import { cacheDir, packageRoot } from './paths.js';

/** The workflow interceptors of tracing (see workflows/tracing-interceptors.ts): in every bundle, as the plugin puts them. */
const TRACING_INTERCEPTORS = join(dirname(fileURLToPath(import.meta.url)), '..', 'workflows', 'tracing-interceptors');

/**
 * Bundles the workflows of `workflowsPath` (absolute) into one file at `out`, for
 * `workflowBundle: { codePath }`, with the tracing interceptors (a pre-built bundle ignores the
 * plugin's `workflowModules`) unless `tracing` is false (the bench's build without telemetry).
 */
export async function bundleWorkflowsTo(workflowsPath: string, out: string, tracing = true): Promise<string> {
  const { code } = await bundleWorkflowCode({
    workflowsPath,
    workflowInterceptorModules: tracing ? [TRACING_INTERCEPTORS] : [],
    logger: { trace() {}, debug() {}, info() {}, warn: console.warn, error: console.error, log() {} },
  });
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, code);
  return out;
}

/**
 * Bundles the workflows of `workflowsPath` (relative to the package root) once and writes the
 * bundle under the ignored cache folder (`<cache>/<folder>/workflow-bundle-<pid>.js`), so that
 * several workers, or worker processes, share one bundle instead of each building its own.
 * @returns the bundle's path, for `workflowBundle: { codePath }`.
 */
export function writeWorkflowBundle(workflowsPath: string, folder: string, tracing = true): Promise<string> {
  return bundleWorkflowsTo(
    join(packageRoot, workflowsPath),
    join(cacheDir, folder, `workflow-bundle-${tracing ? '' : 'untraced-'}${process.pid}.js`),
    tracing,
  );
}
