/**
 * One line to add a2a-temporal to any Temporal worker:
 *
 * ```ts
 * await Worker.create({ connection, taskQueue, workflowsPath, plugins: [a2aTemporalPlugin({ registry })] });
 * ```
 *
 * It registers the delegation activities. It also registers our workflows when the worker has
 * none of its own; a worker with its own workflows re-exports ours from its workflows file
 * (`export * from 'a2a-temporal/workflows'`), since a worker runs one workflow bundle.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SimplePlugin } from '@temporalio/plugin';
import type { ReplayWorkerOptions, WorkerOptions } from '@temporalio/worker';
import { createActivities, type CreateActivitiesOptions } from '../activities/index.js';

/** The folder of our workflow bundle's entry (sources under tsx/vitest, compiled JS from dist/). */
export const WORKFLOWS_PATH = join(dirname(fileURLToPath(import.meta.url)), '..', 'workflows');

class A2ATemporalPlugin extends SimplePlugin {
  override configureWorker(options: WorkerOptions): WorkerOptions {
    return withOurWorkflows(super.configureWorker(options));
  }

  override configureReplayWorker(options: ReplayWorkerOptions): ReplayWorkerOptions {
    return withOurWorkflows(super.configureReplayWorker(options));
  }
}

export type A2ATemporalPluginOptions = CreateActivitiesOptions;

/** The Temporal worker plugin: delegation activities (and our workflows when the worker has none). */
export function a2aTemporalPlugin(options: A2ATemporalPluginOptions = {}): SimplePlugin {
  return new A2ATemporalPlugin({ name: 'a2a-temporal', activities: createActivities(options) });
}

function withOurWorkflows<T extends { workflowsPath?: string; workflowBundle?: unknown }>(options: T): T {
  return options.workflowsPath || options.workflowBundle ? options : { ...options, workflowsPath: WORKFLOWS_PATH };
}
