import { Client } from '@temporalio/client';
import { DefaultLogger } from '@temporalio/worker';
import { installRuntime } from '../../telemetry/runtime.js';
import { consoleLogger, logFormat, logFunction } from '../log-format.js';
import type { Command } from 'commander';
import { PUSH_PATH_PREFIX } from '../../activities/push-url.js';
import { temporalTarget } from '../../platform/temporal-config.js';
import { loadWebhookReceiverConfig, type WebhookReceiverConfig } from '../../worker/webhook-config.js';
import { temporalNotifier } from '../../worker/webhook-notifier.js';
import { startWebhookReceiver, STATS_PATH } from '../../worker/webhook-receiver.js';
import { processDeliveryObserver } from '../../worker/run-worker.js';
import { tracingClientOptions } from '../../telemetry/client-interceptors.js';
import { CliError } from '../cli-error.js';
import { connectCli, connectTimeoutMs } from '../context.js';
import { waitForExitSignal } from '../wait-for-exit.js';
import { parsePort } from './server.js';

export function registerWebhookCommand(program: Command): void {
  program
    .command('webhook')
    .description(
      "run the push webhook receiver: verifies agents' deliveries and signals the delegations (needs A2A_WEBHOOK_SECRET; Ctrl-C stops it)",
    )
    .option('--port <port>', 'port to bind (env A2A_WEBHOOK_PORT, default 8787)')
    .option('--host <ip>', 'address to bind (env A2A_WEBHOOK_HOST, default 127.0.0.1: put a TLS proxy in front)')
    .option(
      '--stats-port <port>',
      'serve GET /a2a/push/stats on this port of its own (env A2A_WEBHOOK_STATS_PORT; binds A2A_WEBHOOK_STATS_HOST, default 127.0.0.1)',
    )
    .option('--address <host:port>', 'Temporal frontend (env TEMPORAL_ADDRESS)')
    .option('--namespace <ns>', 'Temporal namespace (env TEMPORAL_NAMESPACE)')
    .action(
      async (opts: { port?: string; host?: string; statsPort?: string; address?: string; namespace?: string }) => {
        const config = webhookReceiverConfig(opts);
        const target = temporalTarget(opts);
        let format;
        try {
          format = logFormat();
          // For the delivery counters: exported as the OTEL_* variables say, like a worker's.
          installRuntime(new DefaultLogger('INFO', logFunction(format)));
        } catch (err) {
          throw new CliError((err as Error).message, 2, { cause: err });
        }
        const connection = await connectCli(target, connectTimeoutMs(undefined)).catch((err: unknown) => {
          throw err instanceof CliError ? err : new CliError((err as Error).message, 1, { cause: err });
        });
        try {
          const receiver = await startWebhookReceiver({
            ...config,
            logger: consoleLogger(format),
            notify: temporalNotifier(
              new Client({ connection, namespace: target.namespace, ...tracingClientOptions() }),
            ),
            observer: processDeliveryObserver(),
          }).catch((err: unknown) => {
            throw new CliError(`${(err as Error).message}. Pick another port with --port.`, 1, { cause: err });
          });
          console.log(`Webhook receiver at ${receiver.url}${PUSH_PATH_PREFIX}<workflowId>/<taskId>/<configId>`);
          console.log(
            receiver.statsUrl
              ? `Counters: ${receiver.statsUrl}${STATS_PATH}`
              : 'Counters: not served (--stats-port serves them on a listener of their own)',
          );
          console.log(
            `Signals delegations at ${target.address} (namespace ${target.namespace}). Press Ctrl-C to stop.`,
          );
          await waitForExitSignal();
          await receiver.close();
        } finally {
          await connection.close();
        }
      },
    );
}

/** The receiver's settings from the environment and `--host`/`--port`. @throws CliError (usage) with the sentence. */
export function webhookReceiverConfig(
  opts: { host?: string; port?: string; statsPort?: string },
  portFlag = '--port',
  statsPortFlag = '--stats-port',
): WebhookReceiverConfig {
  const port = opts.port === undefined ? undefined : parsePort(opts.port, portFlag);
  const statsPort = opts.statsPort === undefined ? undefined : parsePort(opts.statsPort, statsPortFlag);
  try {
    return loadWebhookReceiverConfig(process.env, { host: opts.host, port, statsPort });
  } catch (err) {
    throw new CliError((err as Error).message, 2);
  }
}
