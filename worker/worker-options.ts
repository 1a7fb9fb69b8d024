/**
 * The `Worker.create` options of an a2a-temporal worker, from its configuration: task queue,
 * plugin, workflow bundle and tuning. `createA2AWorker` uses them, and so does the bench
 * (bench/worker-main.ts), so the bench always measures the worker as it ships.
 */
import type { WorkerOptions } from '@temporalio/worker';
import type { AgentRegistry } from '../activities/index.js';
import type { WorkerConfig } from './config.js';
import { a2aTemporalPlugin } from './plugin.js';

export function a2aWorkerOptions(config: WorkerConfig, registry: AgentRegistry) {
  return {
    taskQueue: config.taskQueue,
    plugins: [a2aTemporalPlugin({ registry, requestTimeoutMs: config.requestTimeoutMs, webhook: config.webhook })],
    ...(config.workflowBundlePath ? { workflowBundle: { codePath: config.workflowBundlePath } } : {}),
    maxConcurrentActivityTaskExecutions: config.maxConcurrentActivities,
    maxCachedWorkflows: config.maxCachedWorkflows,
    maxHeartbeatThrottleInterval: config.heartbeatThrottleMs,
  } satisfies Partial<WorkerOptions>;
}
