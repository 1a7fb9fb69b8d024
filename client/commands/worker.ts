import { DefaultLogger } from '@temporalio/worker';
import type { Command } from 'commander';
import { temporalTarget } from '../../platform/temporal-config.js';
import { loadWorkerConfig } from '../../worker/config.js';
import { createA2AWorker } from '../../worker/run-worker.js';
import { SearchAttributesMissingError } from '../../worker/search-attribute-check.js';
import { STATS_PATH } from '../../worker/webhook-receiver.js';
import { CliError } from '../cli-error.js';
import { explainConnectionFailure } from '../temporal-errors.js';
import { installRuntime } from '../../telemetry/runtime.js';
import { consoleLogger, logFormat, logFunction } from '../log-format.js';
import { webhookReceiverConfig } from './webhook.js';

export function registerWorkerCommand(program: Command): void {
  program
    .command('worker')
    .description('run the worker: the delegate and release workflows and their activities (Ctrl-C stops it gracefully)')
    .option('--task-queue <name>', 'task queue (env A2A_TASK_QUEUE)')
    .option(
      '--agents-file <path>',
      'agent names, URLs and credential references (env A2A_AGENTS_FILE; default ./agents.json)',
    )
    .option('--address <host:port>', 'Temporal frontend (env TEMPORAL_ADDRESS)')
    .option('--namespace <ns>', 'Temporal namespace (env TEMPORAL_NAMESPACE)')
    .option(
      '--webhook-port <port>',
      'also run the push webhook receiver in this process, on this port (needs A2A_WEBHOOK_SECRET)',
    )
    .option('--webhook-host <ip>', 'address the in-process receiver binds (env A2A_WEBHOOK_HOST, default 127.0.0.1)')
    .option('--webhook-stats-port <port>', "serve the receiver's counters on this port of its own (127.0.0.1)")
    .action(
      async (opts: {
        taskQueue?: string;
        agentsFile?: string;
        address?: string;
        namespace?: string;
        webhookPort?: string;
        webhookHost?: string;
        webhookStatsPort?: string;
      }) => {
        let config;
        let format;
        try {
          config = loadWorkerConfig(process.env, { taskQueue: opts.taskQueue, agentsFile: opts.agentsFile });
          format = logFormat();
        } catch (err) {
          throw new CliError((err as Error).message, 2);
        }
        const webhookReceiver =
          opts.webhookPort === undefined
            ? undefined
            : {
                ...webhookReceiverConfig(
                  { port: opts.webhookPort, host: opts.webhookHost, statsPort: opts.webhookStatsPort },
                  '--webhook-port',
                  '--webhook-stats-port',
                ),
                logger: consoleLogger(format),
              };
        const target = temporalTarget(opts);
        // The SDK logs activity failures, which quote agents: the same escaping as the CLI's output.
        // Its metrics, and ours, are exported as the OTEL_* variables say.
        try {
          installRuntime(new DefaultLogger('INFO', logFunction(format)));
        } catch (err) {
          throw new CliError((err as Error).message, 2, { cause: err });
        }
        const worker = await createA2AWorker({ config, target, webhookReceiver }).catch(async (err: unknown) => {
          if (err instanceof SearchAttributesMissingError) throw new CliError(err.message, 1, { cause: err });
          throw (
            (await explainConnectionFailure(err, target)) ?? new CliError((err as Error).message, 1, { cause: err })
          );
        });
        console.log(`Worker on task queue "${config.taskQueue}" at ${target.address} (namespace ${target.namespace})`);
        console.log(
          config.agentsFile ? `Agents: ${config.agentsFile}` : 'Agents: none configured (agents are addressed by URL)',
        );
        console.log(
          config.webhook
            ? `Push: agents deliver to ${config.webhook.publicUrl}`
            : 'Push: off (set A2A_WEBHOOK_URL and A2A_WEBHOOK_SECRET to enable it)',
        );
        if (worker.receiver) console.log(`Webhook receiver: ${worker.receiver.url}`);
        if (worker.receiver?.statsUrl) console.log(`Webhook counters: ${worker.receiver.statsUrl}${STATS_PATH}`);
        await worker.run();
      },
    );
}
