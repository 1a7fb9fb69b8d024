import type { Command } from 'commander';
import { withConnectionOptions, withContext, type GlobalOptions } from '../context.js';
import { outputFormat, withFormatOption } from '../output-format.js';
import { statusOutput } from '../render-status.js';
import { readStatus } from '../status-view.js';

export function registerStatusCommand(program: Command): void {
  withFormatOption(
    withConnectionOptions(program.command('status <id>')),
    'it: text (rendered for the terminal), markdown (the report as markdown) or json (the documented object, see docs/guide.md)',
  )
    .description(
      "show a release or a delegation: phase, each delegation's state, pending questions, artifacts so far, the report",
    )
    .action(async (id: string, opts: GlobalOptions & { format?: string }) =>
      withContext(opts, async (context) => {
        console.log(statusOutput(await readStatus(context, id), outputFormat(opts)));
      }),
    );
}
