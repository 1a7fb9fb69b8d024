import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { bundleWorkflowCode, type BundleOptions } from '@temporalio/worker';
import { SHARED_WORKFLOW_MODULES, TRACING_INTERCEPTORS_PATH } from '../worker/workflow-modules.js';
import { cacheDir, packageRoot } from './paths.js';

/** What a bundle holds besides its workflows: tracing's interceptors, our modules shared by every workflow. */
export interface BundleParts {
  /** The tracing interceptors (default true; false: the bench's build without telemetry). */
  tracing?: boolean;
  /** Preload {@link SHARED_WORKFLOW_MODULES} (default true; false: the bench's bare-SDK baseline). */
  shared?: boolean;
}

/**
 * Bundles the workflows of `workflowsPath` (absolute) into one file at `out`, for
 * `workflowBundle: { codePath }`, with what the plugin adds to a bundle the SDK builds (a
 * pre-built bundle ignores the plugin's `workflowModules` and `bundlerOptions`).
 */
export async function bundleWorkflowsTo(
  workflowsPath: string,
  out: string,
  { tracing = true, shared = true }: BundleParts = {},
): Promise<string> {
  const { code } = await bundleWorkflowCode({
    workflowsPath,
    workflowInterceptorModules: tracing ? [TRACING_INTERCEPTORS_PATH] : [],
    preloadModules: shared ? [...SHARED_WORKFLOW_MODULES] : [],
    webpackConfigHook: compileAsTsc,
    logger: { trace() {}, debug() {}, info() {}, warn: console.warn, error: console.error, log() {} },
  });
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, code);
  return out;
}

type WebpackConfig = Parameters<NonNullable<BundleOptions['webpackConfigHook']>>[0];
/** The SDK's rule for `.ts` files, as far as this hook reads it. */
interface SwcRule {
  use?: { loader?: string; options?: { jsc?: object } };
}

/**
 * Our TypeScript compiled for tsconfig.json's target (ES2022), as `dist/` is, rather than the
 * SDK's default es2017: that turns every object spread and class field into a helper call, which
 * makes a bundle built from sources (tsx, the tests, the bench) slower than the one users run.
 */
function compileAsTsc(config: WebpackConfig): WebpackConfig {
  for (const rule of (config.module?.rules ?? []) as (SwcRule | undefined)[]) {
    const use = rule?.use;
    if (use?.loader?.includes('swc-loader') && use.options)
      use.options = { ...use.options, jsc: { ...use.options.jsc, target: 'es2022' } };
  }
  return config;
}

/**
 * Bundles the workflows of `workflowsPath` (relative to the package root) once and writes the
 * bundle under the ignored cache folder (`<cache>/<folder>/workflow-bundle-<pid>.js`), so that
 * several workers, or worker processes, share one bundle instead of each building its own. The
 * bundles of processes that have exited are removed first (a few MB each).
 * @returns the bundle's path, for `workflowBundle: { codePath }`.
 */
export function writeWorkflowBundle(workflowsPath: string, folder: string, parts: BundleParts = {}): Promise<string> {
  const dir = join(cacheDir, folder);
  removeBundlesOfExitedProcesses(dir);
  const untraced = parts.tracing === false ? 'untraced-' : '';
  return bundleWorkflowsTo(
    join(packageRoot, workflowsPath),
    join(dir, `workflow-bundle-${untraced}${process.pid}.js`),
    parts,
  );
}

function removeBundlesOfExitedProcesses(dir: string): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return; // no folder yet
  }
  for (const name of names) {
    const pid = /^workflow-bundle-(?:untraced-)?(\d+)\.js$/.exec(name)?.[1];
    if (pid && !isRunning(Number(pid))) rmSync(join(dir, name), { force: true });
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'; // alive, someone else's
  }
}
