import type { Command } from 'commander';
import { approveUpdate, rejectUpdate, type Decision } from '../../contract/index.js';
import { CliError, usageError } from '../cli-error.js';
import { withConnectionOptions, withContext, type GlobalOptions } from '../context.js';
import { defaultApprover } from '../interactive.js';
import { terminalJson, terminalSafe } from '../terminal-text.js';
import { updateOrExplain } from '../update-errors.js';
import { endedError, findTarget } from '../workflow-target.js';

type DecideOptions = GlobalOptions & { reason?: string; by?: string };

export function registerDecideCommands(program: Command): void {
  for (const outcome of ['approved', 'rejected'] as const) {
    const verb = outcome === 'approved' ? 'approve' : 'reject';
    withConnectionOptions(program.command(`${verb} <releaseId>`))
      .description(
        outcome === 'approved'
          ? 'approve a release whose report is ready'
          : 'reject a release whose report is ready (a reason is required)',
      )
      .option('--reason <text>', outcome === 'approved' ? 'why (optional)' : 'why (required)')
      .option('--by <name>', 'who decides (default: your user name)')
      .option('--json', 'print the decision as JSON')
      .action(async (id: string, opts: DecideOptions) => {
        if (outcome === 'rejected' && !opts.reason?.trim())
          throw usageError('A rejection needs a reason: a2a-temporal reject <releaseId> --reason "<why>".');
        await withContext(opts, async (context) => {
          const target = await findTarget(context, id);
          if (target.kind !== 'release')
            throw new CliError(`"${id}" is a delegation; only releases are approved or rejected.`, 2);
          if (!target.running) throw endedError(target, 'nothing changed');
          const input = { by: opts.by ?? defaultApprover(), reason: opts.reason };
          const decision: Decision = await updateOrExplain(
            target.handle,
            outcome === 'approved' ? approveUpdate : rejectUpdate,
            input,
          );
          console.log(
            opts.json
              ? terminalJson(decision)
              : terminalSafe(
                  `Release ${id} ${decision.outcome} by ${decision.by}${decision.reason ? `: ${decision.reason}` : ''}.`,
                ),
          );
        });
      });
  }
}
