/**
 * The bare-SDK baseline worker (`node --import tsx bench/bare/worker-main.ts`): `Worker.create`
 * with the SDK's defaults, its own minimal bundle (bare/workflows.ts, no interceptors), no
 * plugin, no activities; only the workflow cache size is the product worker's, so the parked
 * phase compares what one cached workflow costs in each.
 *
 * Environment: TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE, A2A_TASK_QUEUE, A2A_WORKFLOW_BUNDLE,
 * A2A_MAX_CACHED_WORKFLOWS.
 */
import { NativeConnection, Runtime, Worker } from '@temporalio/worker';
import { loadWorkerConfig } from '../../worker/config.js';
import { temporalTarget } from '../../platform/temporal-config.js';
import { answerBenchRequests, WORKER_READY_LINE } from '../worker-ipc.js';

async function main(): Promise<void> {
  const config = loadWorkerConfig(process.env);
  if (!config.workflowBundlePath) throw new Error('A2A_WORKFLOW_BUNDLE must be set');
  Runtime.install({
    logger: { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error: (m) => console.error(m) },
  });
  const target = temporalTarget();
  answerBenchRequests();
  const connection = await NativeConnection.connect(target.connectionOptions);
  const worker = await Worker.create({
    connection,
    namespace: target.namespace,
    taskQueue: config.taskQueue,
    workflowBundle: { codePath: config.workflowBundlePath },
    maxCachedWorkflows: config.maxCachedWorkflows,
  });
  console.log(WORKER_READY_LINE);
  try {
    await worker.run();
  } finally {
    await connection.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
