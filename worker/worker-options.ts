/**
 * The `Worker.create` options of an a2a-temporal worker, from its configuration: task queue,
 * plugin, workflows (`delegate` and `release`) and tuning. `createA2AWorker` uses them, and so does the bench
 * (bench/worker-main.ts), so the bench always measures the worker as it ships.
 */
import type { WorkerOptions } from '@temporalio/worker';
import type { AgentRegistry } from '../activities/index.js';
import type { WorkerConfig } from './config.js';
import { a2aTemporalPlugin } from './plugin.js';
import { SHOWCASE_WORKFLOWS_PATH } from './workflow-modules.js';
import type { BlobStore } from '../storage/blob-store.js';
import { openBlobStore } from '../storage/config.js';
import { blobStorageOptions } from '../storage/temporal-storage.js';

/**
 * How long a workflow task waits on the sticky queue of the worker that has the workflow cached
 * before any worker may take it (SDK default 10 s). After that worker crashed, the task that
 * follows the retried tracking activity waits this long for nobody. The bench's
 * `resume_after_kill_s` (time a delegation loses when its worker is SIGKILLed while the report
 * streams; heartbeat timeout 5 s) was 15.4 s with 10 s and 6.1 s with 1 s. A task taken by
 * another worker costs a replay of the delegation's short history (25-48 events, by mode).
 */
export const STICKY_QUEUE_TIMEOUT = '1 second';

/**
 * The worker's options from its configuration. `telemetry: false` leaves the plugin's
 * interceptors out altogether (the bench's baseline for what telemetry costs when it is off).
 */
export function a2aWorkerOptions(
  config: WorkerConfig,
  registry: AgentRegistry,
  telemetry?: false,
  blobStore: BlobStore = openBlobStore(config.blobs.store),
): WorkerOptions {
  return {
    taskQueue: config.taskQueue,
    plugins: [
      a2aTemporalPlugin({
        registry,
        requestTimeoutMs: config.requestTimeoutMs,
        webhook: config.webhook,
        limits: config.limits,
        artifacts: {
          store: blobStore,
          textThresholdBytes: config.blobs.artifactThresholdBytes,
          ...(config.blobs.maxArtifactBytes ? { maxArtifactBytes: config.blobs.maxArtifactBytes } : {}),
        },
        ...(config.blobs.externalStorage ? { blobs: blobStorageOptions(config.blobs, blobStore) } : {}),
        ...(telemetry === false ? { telemetry } : {}),
      }),
    ],
    // Our worker runs the release coordinator too; the plugin alone would register `delegate` only.
    ...(config.workflowBundlePath
      ? { workflowBundle: { codePath: config.workflowBundlePath } }
      : { workflowsPath: SHOWCASE_WORKFLOWS_PATH }),
    maxConcurrentActivityTaskExecutions: config.maxConcurrentActivities,
    maxCachedWorkflows: config.maxCachedWorkflows,
    maxHeartbeatThrottleInterval: config.heartbeatThrottleMs,
    stickyQueueScheduleToStartTimeout: STICKY_QUEUE_TIMEOUT,
  };
}
