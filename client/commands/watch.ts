import type { Command } from 'commander';
import { withConnectionOptions, withContext, type GlobalOptions } from '../context.js';
import { follow } from '../follow.js';
import { Terminal } from '../terminal.js';

export function registerWatchCommand(program: Command): void {
  withConnectionOptions(program.command('watch <id>'))
    .description('follow a release or a delegation live: state changes, questions, and artifact text as it streams in')
    .option('--json', 'print one JSON event per line')
    .action(async (id: string, opts: GlobalOptions) =>
      withContext(opts, async (context) => {
        await follow(context, id, { terminal: new Terminal(), json: opts.json });
      }),
    );
}
