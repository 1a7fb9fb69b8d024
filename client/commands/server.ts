import { join } from 'node:path';
import type { Command } from 'commander';
import { DevServerStartError, isServing, startDevServer } from '../../platform/dev-server.js';
import { dataDir } from '../../platform/paths.js';
import { ensureTemporalCli } from '../../platform/temporal-cli.js';
import { CliError, usageError } from '../cli-error.js';
import { waitForExitSignal } from '../wait-for-exit.js';

/** The default SQLite file of the embedded server: workflows survive a restart. */
export const DEFAULT_DB_FILE = join(dataDir, 'temporal.sqlite');

export function registerServerCommand(program: Command): void {
  program
    .command('server')
    .description(
      'run the embedded Temporal dev server with its Web UI (SQLite under .data/, search attributes registered)',
    )
    .option('--ip <ip>', 'address to bind', '127.0.0.1')
    .option(
      '--port <port>',
      'gRPC port (default: the port of TEMPORAL_ADDRESS when it is a loopback address, else 7233)',
    )
    .option(
      '--ui-port <port>',
      'Web UI port (default: the port of A2A_TEMPORAL_UI_URL when it is a loopback URL, else port + 1000)',
    )
    .option('--db-file <path>', 'SQLite file', DEFAULT_DB_FILE)
    .option('--in-memory', 'keep nothing when the server stops')
    .option('--headless', 'no Web UI')
    .action(
      async (opts: {
        ip: string;
        port?: string;
        uiPort?: string;
        dbFile: string;
        inMemory?: boolean;
        headless?: boolean;
      }) => {
        const fromEnv = portsFromEnvironment(process.env);
        const port = opts.port === undefined ? (fromEnv.port ?? 7233) : parsePort(opts.port, '--port');
        const uiPort = opts.headless
          ? false
          : opts.uiPort === undefined
            ? (fromEnv.uiPort ?? port + 1000)
            : parsePort(opts.uiPort, '--ui-port');
        if (await isServing(`${opts.ip}:${port}`)) {
          throw new CliError(
            `A Temporal server already answers on ${opts.ip}:${port}; use it, or pick another port with --port.`,
          );
        }
        const cli = await ensureTemporalCli((line) => console.error(`setup: ${line}`));
        console.error(`temporal CLI via ${cli.route}: ${cli.path} (${cli.version})`);
        const server = await startDevServer({
          ip: opts.ip,
          port,
          uiPort,
          dbFile: opts.inMemory ? undefined : opts.dbFile,
          cliPath: cli.path,
        }).catch((err: unknown) => {
          throw new CliError(
            err instanceof DevServerStartError
              ? err.message
              : `The Temporal dev server did not start: ${(err as Error).message}`,
            1,
            { cause: err },
          );
        });
        console.log(`Temporal server ready at ${server.address} (namespace ${server.namespace})`);
        if (server.uiUrl) console.log(`Web UI: ${server.uiUrl}`);
        console.log(opts.inMemory ? 'Data: in memory (gone when the server stops)' : `Data: ${opts.dbFile}`);
        console.log('Press Ctrl-C to stop.');
        await Promise.race([waitForExitSignal(), new Promise((resolve) => server.process.once('exit', resolve))]);
        await server.stop();
      },
    );
}

/**
 * The ports the other commands will look for: the frontend's in TEMPORAL_ADDRESS and the Web
 * UI's in A2A_TEMPORAL_UI_URL, when they name this machine. So one `export` points every
 * terminal (server, worker, CLI) at the same server; a remote address is not ours to serve.
 */
export function portsFromEnvironment(env: NodeJS.ProcessEnv): { port?: number; uiPort?: number } {
  const loopbackPort = (url: string | undefined) => {
    if (!url) return undefined;
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return undefined;
    }
    const loopback = ['localhost', '[::1]'].includes(parsed.hostname) || parsed.hostname.startsWith('127.');
    return loopback && parsed.port ? Number(parsed.port) : undefined;
  };
  return {
    port: loopbackPort(env.TEMPORAL_ADDRESS && `tcp://${env.TEMPORAL_ADDRESS}`),
    uiPort: loopbackPort(env.A2A_TEMPORAL_UI_URL),
  };
}

export function parsePort(value: string, flag: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw usageError(`${flag} must be a port number (0-65535), got "${value}".`);
  return port;
}
