import type { Command } from 'commander';
import { ensureJaeger, JAEGER_VERSION, jaegerCached, startJaeger } from '../../platform/jaeger.js';
import { CliError } from '../cli-error.js';
import { waitForExitSignal } from '../wait-for-exit.js';
import { parsePort } from './server.js';

export function registerTracesCommand(program: Command): void {
  program
    .command('traces')
    .description('run the trace viewer (Jaeger, in memory; built from the Go module proxy on first use) until Ctrl-C')
    .option('--port <port>', 'the viewer and its query API', '16686')
    .option('--otlp-port <port>', 'OTLP/HTTP: what workers and the CLI export to', '4318')
    .option('--host <ip>', 'address to bind', '127.0.0.1')
    .action(async (opts: { port: string; otlpPort: string; host: string }) => {
      if (!jaegerCached())
        console.log(`Building Jaeger ${JAEGER_VERSION} once (a few minutes; cached in .cache/go-bin)…`);
      let jaeger;
      try {
        const { path } = await ensureJaeger();
        jaeger = await startJaeger(path, {
          host: opts.host,
          uiPort: parsePort(opts.port, '--port'),
          otlpPort: parsePort(opts.otlpPort, '--otlp-port'),
        });
      } catch (err) {
        throw new CliError((err as Error).message, 1, { cause: err });
      }
      console.log(`Trace viewer: ${jaeger.uiUrl}`);
      console.log(`Export to it: OTEL_EXPORTER_OTLP_ENDPOINT=${jaeger.otlpEndpoint} (worker, CLI and agents)`);
      console.log('Press Ctrl-C to stop (the traces are kept in memory only).');
      await waitForExitSignal();
      await jaeger.stop();
    });
}
