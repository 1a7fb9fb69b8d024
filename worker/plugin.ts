/**
 * One line to add a2a-temporal to any Temporal worker:
 *
 * ```ts
 * await Worker.create({ connection, taskQueue, workflowsPath, plugins: [a2aTemporalPlugin({ registry })] });
 * ```
 *
 * It registers the delegation activities. It also registers the `delegate` workflow when the
 * worker has no workflows of its own; a worker with its own workflows exports ours by name from
 * its workflows file (`export { delegate } from 'a2a-temporal/workflows'`), since a worker runs
 * one workflow bundle.
 */
import type { DataConverter } from '@temporalio/common';
import { SimplePlugin } from '@temporalio/plugin';
import type { ReplayWorkerOptions, WorkerOptions } from '@temporalio/worker';
import { createActivities, type CreateActivitiesOptions } from '../activities/index.js';
import { a2aTelemetry } from '../telemetry/a2a-telemetry.js';
import { activeMeter } from '../telemetry/runtime.js';
import { activeTracing } from '../telemetry/tracing.js';
import { activityInterceptors, workflowSpanSinks, type WorkerTelemetry } from '../telemetry/worker-interceptors.js';
import { withBlobStorage, type BlobStorageOptions } from '../storage/temporal-storage.js';
import { DELEGATE_WORKFLOWS_PATH, SHARED_WORKFLOW_MODULES, TRACING_INTERCEPTORS_PATH } from './workflow-modules.js';

class A2ATemporalPlugin extends SimplePlugin {
  constructor(
    options: ConstructorParameters<typeof SimplePlugin>[0],
    private readonly telemetry: WorkerTelemetry,
  ) {
    super(options);
  }

  // Our default workflowsPath goes in first: SimplePlugin adds the interceptor modules only to a
  // worker that has a workflowsPath (a pre-built bundle must already contain them).
  override configureWorker(options: WorkerOptions): WorkerOptions {
    return super.configureWorker(withOurWorkflows(this.withSinks(options)));
  }

  override configureReplayWorker(options: ReplayWorkerOptions): ReplayWorkerOptions {
    return super.configureReplayWorker(withOurWorkflows(this.withSinks(options)));
  }

  private withSinks<T extends { sinks?: WorkerOptions['sinks'] }>(options: T): T {
    return { ...options, sinks: { ...options.sinks, ...workflowSpanSinks(this.telemetry) } };
  }
}

/** The options of `a2aTemporalPlugin`: the agents file, the A2A client's settings and push mode, as for `createActivities`. See [docs/guide.md](../docs/guide.md#delegation-inside-your-own-workflows). */
export interface A2ATemporalPluginOptions extends Omit<CreateActivitiesOptions, 'telemetry'> {
  /**
   * Tracing and metrics. Default: what this process started (`startTracing`, and the meter of a
   * runtime installed by `installRuntime`); `false`: none.
   */
  telemetry?: WorkerTelemetry | false;
  /**
   * Temporal's External Storage on this blob store: payloads of at least `thresholdBytes` (256 KiB)
   * go to the store and history keeps a claim. Every client that reads these workflows needs the
   * same store (`blobStoragePlugin`). Default: none (payloads stay inline).
   */
  blobs?: BlobStorageOptions;
}

/**
 * The Temporal worker plugin: delegation activities (and the `delegate` workflow when the worker
 * has no workflows of its own), and the tracing interceptors (Temporal's official OpenTelemetry ones) with the
 * metrics of agent requests when telemetry is on.
 */
export function a2aTemporalPlugin(options: A2ATemporalPluginOptions = {}): SimplePlugin {
  const telemetry: WorkerTelemetry =
    options.telemetry === false ? {} : (options.telemetry ?? { tracing: activeTracing(), meter: activeMeter() });
  const activityTelemetry = a2aTelemetry({ tracing: telemetry.tracing !== undefined, meter: telemetry.meter });
  const ours = createActivities({
    ...options,
    ...(options.blobs
      ? { offloadsPayloads: true, artifacts: options.artifacts ?? { store: options.blobs.store } }
      : {}),
    telemetry: activityTelemetry,
  });
  return new A2ATemporalPlugin(
    {
      name: 'a2a-temporal',
      ...(options.blobs ? { dataConverter: withStore(options.blobs) } : {}),
      activities: (theirs: object | undefined) => withOurActivities(theirs ?? {}, ours),
      workerInterceptors: {
        workflowModules: [TRACING_INTERCEPTORS_PATH],
        activity: activityInterceptors(telemetry),
      },
    },
    telemetry,
  );
}

function withStore(blobs: BlobStorageOptions) {
  return (converter: DataConverter | undefined): DataConverter => withBlobStorage(converter, blobs);
}

/** Thrown when the worker already has an activity under one of our (prefixed) names. See [docs/guide.md](../docs/guide.md#delegation-inside-your-own-workflows). */
export class ActivityNameClashError extends Error {
  /** The class's name, for logs. */
  override readonly name = 'ActivityNameClashError';
}

/**
 * The worker's activities plus ours. Ours are prefixed (`a2a.sendMessage`) and never replace one
 * of the worker's: a clash is an error.
 */
export function withOurActivities(theirs: object, ours: ReturnType<typeof createActivities>): object {
  const clashes = Object.keys(ours).filter((name) => name in theirs);
  if (clashes.length) {
    throw new ActivityNameClashError(
      `The worker already registers ${clashes.join(', ')}, which a2a-temporal's plugin registers too; rename the worker's own activities.`,
    );
  }
  return { ...theirs, ...ours };
}

/** Our `delegate` when the worker has no workflows of its own, and our modules shared when the SDK bundles them. */
function withOurWorkflows<T extends Pick<WorkerOptions, 'workflowsPath' | 'workflowBundle' | 'bundlerOptions'>>(
  options: T,
): T {
  if (options.workflowBundle) return options; // pre-built: bundled with SHARED_WORKFLOW_MODULES (bundleWorkflowsTo)
  const preloadModules = [...new Set([...(options.bundlerOptions?.preloadModules ?? []), ...SHARED_WORKFLOW_MODULES])];
  return {
    ...options,
    workflowsPath: options.workflowsPath ?? DELEGATE_WORKFLOWS_PATH,
    bundlerOptions: { ...options.bundlerOptions, preloadModules },
  };
}
