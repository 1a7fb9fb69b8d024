import type { Command } from 'commander';
import { WorkflowFailedError } from '@temporalio/client';
import { durationMs } from '../../contract/durations.js';
import { withConnectionOptions, withContext, type GlobalOptions } from '../context.js';
import { parseDurationFlag } from '../start-options.js';
import { Terminal } from '../terminal.js';
import { indentLines, terminalJson, terminalSafe } from '../terminal-text.js';
import { endedError, findTarget } from '../workflow-target.js';

interface CancelOptions extends GlobalOptions {
  wait: string;
}

/** How long `cancel` waits for the workflow to end by default. */
const DEFAULT_WAIT = '10s';

/**
 * `cancel`: requests cancellation, then waits a bounded time (`--wait`) for the workflow to end,
 * so an agent that never confirms (a CancelTask answered with an endless stream, say) cannot hold
 * the command: past the bound it says the cancel was requested and exits 0. When the workflow
 * ends in time, it prints how it ended, as it ended (canceled, or failed and why).
 */
export function registerCancelCommand(program: Command): void {
  withConnectionOptions(program.command('cancel <id>'))
    .description('cancel a release or a delegation; the remote A2A tasks are canceled too')
    .option(
      '--wait <duration>',
      'wait at most this long for the workflow to end (the agent to confirm), e.g. 30s; 0 returns at once',
      DEFAULT_WAIT,
    )
    .option('--json', 'print the final status as JSON')
    .action(async (id: string, opts: CancelOptions) => {
      const waitMs = opts.wait.trim() === '0' ? 0 : durationMs(parseDurationFlag(opts.wait, '--wait'), '--wait');
      await withContext(opts, async (context) => {
        const target = await findTarget(context, id);
        if (!target.running) throw endedError(target, 'nothing to cancel');
        await target.handle.cancel();
        const terminal = new Terminal();
        terminal.setStatus(`cancelling ${id} (and its remote tasks)`);
        const signal = AbortSignal.timeout(Math.max(waitMs, 1));
        const end = await context.client
          .withAbortSignal(signal, () => target.handle.result())
          .then(
            () => ({ status: 'COMPLETED' }),
            (err: unknown) =>
              signal.aborted
                ? undefined
                : { status: undefined, failure: err instanceof WorkflowFailedError ? err.cause?.message : undefined },
          );
        terminal.stopStatus();
        const what = target.kind === 'release' ? 'Release' : 'Delegation';
        if (!end) {
          console.log(
            opts.json
              ? terminalJson({ workflowId: id, status: 'RUNNING', cancelRequested: true })
              : terminalSafe(
                  `${what} ${id}: cancel requested; the agent has not confirmed yet. Follow it: a2a-temporal status ${id}`,
                ),
          );
          return;
        }
        const status = end.status ?? (await target.handle.describe()).status.name;
        const failure = status === 'FAILED' && 'failure' in end ? end.failure : undefined;
        console.log(
          opts.json
            ? terminalJson({ workflowId: id, status, ...(failure ? { failure } : {}) })
            : terminalSafe(
                `${what} ${id}: ${status.toLowerCase()}${failure ? `: ${indentLines(failure, '  ')}` : ''}.`,
              ),
        );
      });
    });
}
