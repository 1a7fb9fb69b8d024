import type { Command } from 'commander';
import { withConnectionOptions, withContext, type GlobalOptions } from '../context.js';
import { follow } from '../follow.js';
import { outputFormat, withFormatOption } from '../output-format.js';
import { Terminal } from '../terminal.js';

export function registerWatchCommand(program: Command): void {
  withFormatOption(
    withConnectionOptions(program.command('watch <id>')),
    'it: text (artifacts rendered for the terminal), markdown (artifacts as they stream) or json (one event per line)',
  )
    .description('follow a release or a delegation live: state changes, questions, and artifact text as it streams in')
    .action(async (id: string, opts: GlobalOptions & { format?: string }) =>
      withContext(opts, async (context) => {
        await follow(context, id, { terminal: new Terminal(), format: outputFormat(opts) });
      }),
    );
}
