import type { Command } from 'commander';
import { withConnectionOptions, withContext, type GlobalOptions } from '../context.js';
import { renderStatus } from '../render-status.js';
import { readStatus } from '../status-view.js';
import { terminalJson, terminalSafe } from '../terminal-text.js';

export function registerStatusCommand(program: Command): void {
  withConnectionOptions(program.command('status <id>'))
    .description(
      "show a release or a delegation: phase, each delegation's state, pending questions, artifacts so far, the report",
    )
    .option('--json', 'print the documented JSON object (see docs/guide.md)')
    .action(async (id: string, opts: GlobalOptions) =>
      withContext(opts, async (context) => {
        const view = await readStatus(context, id);
        console.log(opts.json ? terminalJson(view, 2) : terminalSafe(renderStatus(view)));
      }),
    );
}
