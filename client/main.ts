/**
 * The `a2a-temporal` command line: `server`, `agents`, `worker` run the embedded stack; the
 * workflow commands (release, delegate, answer, status, watch, list, cancel) talk to Temporal.
 */
import { inspect } from 'node:util';
import { Command, CommanderError } from 'commander';
import { CliError, ExitCode } from './cli-error.js';
import { registerAgentsCommand } from './commands/agents.js';
import { registerAnswerCommand } from './commands/answer.js';
import { registerArtifactsCommand } from './commands/artifacts.js';
import { registerBlobsCommand } from './commands/blobs.js';
import { registerCancelCommand } from './commands/cancel.js';
import { registerCodecServerCommand } from './commands/codec-server.js';
import { registerDecideCommands } from './commands/decide.js';
import { registerDelegateCommand } from './commands/delegate.js';
import { registerDemoCommand } from './commands/demo.js';
import { registerListCommand } from './commands/list.js';
import { registerReleaseCommand } from './commands/release.js';
import { registerServerCommand } from './commands/server.js';
import { registerSetupCommand } from './commands/setup.js';
import { registerStatusCommand } from './commands/status.js';
import { registerTracesCommand } from './commands/traces.js';
import { registerWatchCommand } from './commands/watch.js';
import { registerWebhookCommand } from './commands/webhook.js';
import { registerWorkerCommand } from './commands/worker.js';
import { indentLines, terminalSafe } from './terminal-text.js';
import { startTracing, stopTracing } from '../telemetry/tracing.js';

/** The `service.name` of each long-running command's traces (`OTEL_SERVICE_NAME` wins); other commands are the CLI. */
const SERVICE_NAMES: Record<string, string> = {
  worker: 'a2a-temporal-worker',
  agents: 'a2a-temporal-agents',
  webhook: 'a2a-temporal-webhook',
  'codec-server': 'a2a-temporal-codec-server',
  demo: 'a2a-temporal-demo',
};

/** Runs the CLI with `argv` (without `node` and the script) and resolves to the exit code. */
export async function runCli(argv: string[]): Promise<number> {
  try {
    startTracing(SERVICE_NAMES[argv.find((a) => !a.startsWith('-')) ?? ''] ?? 'a2a-temporal-cli');
  } catch (err) {
    console.error(`error: ${terminalSafe((err as Error).message)}`);
    return ExitCode.usage;
  }
  try {
    return await run(argv);
  } finally {
    await stopTracing(); // a short-lived command exports its spans before it exits
  }
}

async function run(argv: string[]): Promise<number> {
  const program = new Command('a2a-temporal')
    .description('Durable delegation to A2A agents on Temporal.')
    .option('--verbose', 'print stack traces and debug output')
    .option(
      '--profile <name>',
      'Temporal connection profile from the TOML config (env TEMPORAL_PROFILE; file TEMPORAL_CONFIG_FILE, default ~/.config/temporalio/temporal.toml)',
    )
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride()
    // Every command reads its connection through Temporal's env config, which honours TEMPORAL_PROFILE.
    .hook('preAction', () => {
      const { profile } = program.opts<{ profile?: string }>();
      if (profile) process.env.TEMPORAL_PROFILE = profile;
    });

  registerDemoCommand(program);
  registerReleaseCommand(program);
  registerDelegateCommand(program);
  registerAnswerCommand(program);
  registerDecideCommands(program);
  registerStatusCommand(program);
  registerWatchCommand(program);
  registerArtifactsCommand(program);
  registerBlobsCommand(program);
  registerListCommand(program);
  registerCancelCommand(program);
  registerServerCommand(program);
  registerSetupCommand(program);
  registerAgentsCommand(program);
  registerWorkerCommand(program);
  registerWebhookCommand(program);
  registerCodecServerCommand(program);
  registerTracesCommand(program);

  try {
    await program.parseAsync(argv, { from: 'user' });
    // A command that finished but did not succeed (a failed release, an interrupted demo) set it.
    return typeof process.exitCode === 'number' ? process.exitCode : ExitCode.ok;
  } catch (err) {
    if (err instanceof CommanderError) {
      // Help and version output end here too; commander has already printed what it had to say.
      return err.exitCode === 0 ? ExitCode.ok : ExitCode.usage;
    }
    const verbose = program.opts<{ verbose?: boolean }>().verbose ?? argv.includes('--verbose');
    if (err instanceof CliError) {
      console.error(`error: ${terminalSafe(indentLines(err.message, '  '))}`);
      if (verbose && err.cause) console.error(terminalSafe(inspect(err.cause)));
      return err.exitCode;
    }
    // Failures can quote what an agent said: printed through terminalSafe like all agent text.
    console.error(`error: ${terminalSafe(indentLines((err as Error).message ?? String(err), '  '))}`);
    if (verbose) console.error(terminalSafe(inspect(err)));
    return ExitCode.failed;
  }
}
