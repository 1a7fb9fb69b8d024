import type { Command } from 'commander';
import { withConnectionOptions, withContext, type GlobalOptions } from '../context.js';
import { Terminal } from '../terminal.js';
import { endedError, findTarget } from '../workflow-target.js';

export function registerCancelCommand(program: Command): void {
  withConnectionOptions(program.command('cancel <id>'))
    .description('cancel a release or a delegation; the remote A2A tasks are canceled too')
    .option('--json', 'print the final status as JSON')
    .action(async (id: string, opts: GlobalOptions) =>
      withContext(opts, async (context) => {
        const target = await findTarget(context, id);
        if (!target.running) throw endedError(target, 'nothing to cancel');
        await target.handle.cancel();
        const terminal = new Terminal();
        terminal.setStatus(`cancelling ${id} (and its remote tasks)`);
        const status = await target.handle.result().then(
          () => 'COMPLETED',
          () => undefined,
        );
        terminal.stopStatus();
        const final = status ?? (await target.handle.describe()).status.name;
        console.log(
          opts.json
            ? JSON.stringify({ workflowId: id, status: final })
            : `${target.kind === 'release' ? 'Release' : 'Delegation'} ${id}: ${final.toLowerCase()}.`,
        );
      }),
    );
}
