/** Builds and runs the a2a-temporal worker: connection, task queue, plugin, graceful shutdown. */
import { Client } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import { AgentRegistry, loadAgentRegistry } from '../activities/index.js';
import { temporalTarget, type TemporalTarget } from '../platform/temporal-config.js';
import type { WorkerConfig } from './config.js';
import type { WebhookReceiverConfig } from './webhook-config.js';
import { temporalNotifier } from './webhook-notifier.js';
import { startWebhookReceiver, type DeliveryObserver, type RunningWebhookReceiver } from './webhook-receiver.js';
import { requireSearchAttributes } from './search-attribute-check.js';
import { a2aWorkerOptions } from './worker-options.js';
import { tracingClientOptions } from '../telemetry/client-interceptors.js';
import { openBlobStore } from '../storage/config.js';
import { blobPlugins } from '../storage/temporal-storage.js';
import { A2AMetrics } from '../telemetry/metrics.js';
import { deliveryObserver } from '../telemetry/push-tracing.js';
import { activeMeter } from '../telemetry/runtime.js';
import { activeTracing } from '../telemetry/tracing.js';

export interface A2AWorkerOptions {
  config: WorkerConfig;
  /** @default Temporal's environment configuration */
  target?: TemporalTarget;
  /** Agents to use instead of `config.agentsFile`. */
  registry?: AgentRegistry;
  /** An open connection to reuse (the caller closes it). */
  connection?: NativeConnection;
  /** Also run the push webhook receiver in this process (it signals through the worker's connection). */
  webhookReceiver?: WebhookReceiverConfig;
}

export interface A2AWorker {
  worker: Worker;
  /** The in-process webhook receiver, when asked for; it stops with the worker. */
  receiver?: RunningWebhookReceiver;
  /** Runs until `shutdown()` (or a SIGINT/SIGTERM, which the SDK handles) and closes the connection it opened. */
  run(): Promise<void>;
  shutdown(): void;
}

/**
 * Creates the worker (bundling the workflows unless a pre-built bundle is configured).
 * @throws SearchAttributesMissingError when the namespace lacks search attributes the workflows set.
 */
export async function createA2AWorker(options: A2AWorkerOptions): Promise<A2AWorker> {
  const { config } = options;
  const target = options.target ?? temporalTarget();
  const registry =
    options.registry ??
    (config.agentsFile
      ? loadAgentRegistry(config.agentsFile, process.env, config.agentUrls)
      : new AgentRegistry({ agents: {} }, process.env, undefined, config.agentUrls));
  const connection = options.connection ?? (await NativeConnection.connect(target.connectionOptions));
  try {
    const warning = await requireSearchAttributes(connection, target.namespace);
    if (warning) console.warn(`warning: ${warning}`);
  } catch (err) {
    if (!options.connection) await connection.close();
    throw err;
  }
  const blobStore = openBlobStore(config.blobs.store);
  const worker = await Worker.create({
    connection,
    namespace: target.namespace,
    ...a2aWorkerOptions(config, registry, undefined, blobStore),
  });
  const receiver = options.webhookReceiver
    ? await startWebhookReceiver({
        ...options.webhookReceiver,
        notify: temporalNotifier(
          new Client({
            connection,
            namespace: target.namespace,
            ...tracingClientOptions(),
            plugins: blobPlugins(config.blobs, blobStore),
          }),
        ),
        observer: processDeliveryObserver(),
      }).catch(async (err: unknown) => {
        if (!options.connection) await connection.close();
        throw err;
      })
    : undefined;
  return {
    worker,
    receiver,
    async run() {
      try {
        await worker.run();
      } finally {
        await receiver?.close();
        await blobStore.close();
        if (!options.connection) await connection.close();
      }
    },
    shutdown: () => worker.shutdown(),
  };
}

/** Traces and counts push deliveries as this process's telemetry says (undefined when it has none). */
export function processDeliveryObserver(): DeliveryObserver | undefined {
  const tracing = activeTracing() !== undefined;
  const meter = activeMeter();
  if (!tracing && !meter) return undefined;
  return deliveryObserver({ tracing, metrics: meter ? new A2AMetrics(meter) : undefined });
}
