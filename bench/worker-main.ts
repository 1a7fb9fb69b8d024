/**
 * A bench worker, run as a child process (`node --import tsx bench/worker-main.ts`) so the bench
 * can read its RSS and SIGKILL it. It is the product's worker — the options `createA2AWorker`
 * uses (worker/worker-options.ts), from the same environment configuration — plus the baseline
 * activities, on the bench bundle (product workflows + baseline workflows).
 *
 * Environment: TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE, A2A_TASK_QUEUE, A2A_WORKFLOW_BUNDLE,
 * BENCH_AGENT_URL, the worker's usual A2A_* variables, BENCH_TELEMETRY=none (no telemetry
 * interceptors at all: the tracing phase's baseline, run on a bundle without them) and
 * BENCH_WORKER_OPTIONS (JSON: extra `Worker.create` options, for investigations).
 */
import { Client } from '@temporalio/client';
import { NativeConnection, Runtime, Worker } from '@temporalio/worker';
import { AgentRegistry } from '../activities/index.js';
import { temporalTarget } from '../platform/temporal-config.js';
import { loadWorkerConfig } from '../worker/config.js';
import { loadWebhookReceiverConfig } from '../worker/webhook-config.js';
import { temporalNotifier } from '../worker/webhook-notifier.js';
import { startWebhookReceiver } from '../worker/webhook-receiver.js';
import { a2aWorkerOptions } from '../worker/worker-options.js';
import { startTracing, stopTracing } from '../telemetry/tracing.js';
import { createBaselineActivities } from './activities/index.js';
import { AGENT_NAME } from './scenario.js';
import { answerBenchRequests, WORKER_READY_LINE } from './worker-ipc.js';

async function main(): Promise<void> {
  const agentUrl = process.env.BENCH_AGENT_URL;
  const config = loadWorkerConfig(process.env);
  if (!agentUrl || !config.workflowBundlePath) throw new Error('BENCH_AGENT_URL and A2A_WORKFLOW_BUNDLE must be set');
  startTracing('a2a-temporal-worker'); // as the CLI does: only when OTEL_* variables ask for it (the tracing phase)
  Runtime.install({
    logger: {
      log() {},
      trace() {},
      debug() {},
      info() {},
      warn() {},
      error: (m, meta) => console.error(m, meta ?? ''),
    },
  });
  const target = temporalTarget();
  // BENCH_EXTRA_AGENTS (JSON: name → card URL): more agents, e.g. the hostility phase's hostile ones.
  const extra = JSON.parse(process.env.BENCH_EXTRA_AGENTS ?? '{}') as Record<string, string>;
  const agents = { [AGENT_NAME]: agentUrl, ...extra };
  const registry = new AgentRegistry({
    agents: Object.fromEntries(Object.entries(agents).map(([name, url]) => [name, { url }])),
  });
  // A full GC before the bench reads the RSS (parked.ts); event-loop delay for the hostility phase.
  answerBenchRequests();
  const connection = await NativeConnection.connect(target.connectionOptions);
  const worker = await Worker.create({
    connection,
    namespace: target.namespace,
    ...a2aWorkerOptions(config, registry, process.env.BENCH_TELEMETRY === 'none' ? false : undefined),
    activities: createBaselineActivities(registry, config.requestTimeoutMs), // added to the plugin's
    ...(process.env.BENCH_WORKER_OPTIONS ? (JSON.parse(process.env.BENCH_WORKER_OPTIONS) as object) : {}),
  });
  // Push mode's receiver, in this process like `a2a-temporal worker --webhook-port` runs it.
  const webhookPort = process.env.BENCH_WEBHOOK_PORT;
  const receiver = webhookPort
    ? await startWebhookReceiver({
        ...loadWebhookReceiverConfig(process.env, { port: Number(webhookPort) }),
        notify: temporalNotifier(new Client({ connection, namespace: target.namespace })),
        logger: { warn: () => {}, error: (m: unknown) => console.error(m) },
      })
    : undefined;
  console.log(WORKER_READY_LINE);
  try {
    await worker.run();
  } finally {
    await receiver?.close();
    await connection.close();
    await stopTracing();
  }
}

// Exit once the worker has stopped (open handles would hold the process until the bench kills
// it, and a killed process writes no --cpu-prof profile of its main thread).
main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
