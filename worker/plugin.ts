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
import { createActivities, legacyActivityNames, type CreateActivitiesOptions } from '../activities/index.js';

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
  const ours = createActivities(options);
  return new A2ATemporalPlugin({
    name: 'a2a-temporal',
    activities: (theirs: object | undefined) => withOurActivities(theirs ?? {}, ours),
  });
}

/** Thrown when the worker already has an activity under one of our (prefixed) names. */
export class ActivityNameClashError extends Error {
  override readonly name = 'ActivityNameClashError';
}

/**
 * The worker's activities plus ours. Ours are prefixed (`a2a.sendMessage`) and never replace one
 * of the worker's: a clash is an error. Our 0.1 names (`sendMessage`, …), which runs started by
 * 0.1 still schedule, are added only where the worker has no activity of that name.
 */
export function withOurActivities(theirs: object, ours: ReturnType<typeof createActivities>): object {
  const clashes = Object.keys(ours).filter((name) => name in theirs);
  if (clashes.length) {
    throw new ActivityNameClashError(
      `The worker already registers ${clashes.join(', ')}, which a2a-temporal's plugin registers too; rename the worker's own activities.`,
    );
  }
  const legacy = Object.entries(legacyActivityNames(ours)).filter(([name]) => !(name in theirs));
  return { ...Object.fromEntries(legacy), ...theirs, ...ours };
}

function withOurWorkflows<T extends { workflowsPath?: string; workflowBundle?: unknown }>(options: T): T {
  return options.workflowsPath || options.workflowBundle ? options : { ...options, workflowsPath: WORKFLOWS_PATH };
}
