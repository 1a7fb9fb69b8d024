import type { Command } from 'commander';
import { withConnectionOptions, withContext, type GlobalOptions } from '../context.js';
import { oneLine, terminalJson, terminalSafe } from '../terminal-text.js';

const WAITING =
  "ExecutionStatus = 'Running' AND (A2aTaskState IN ('TASK_STATE_INPUT_REQUIRED', 'TASK_STATE_AUTH_REQUIRED') OR ReleasePhase IN ('waiting-for-input', 'awaiting-approval'))";

export function registerListCommand(program: Command): void {
  withConnectionOptions(program.command('list'))
    .description('list releases and delegations, newest first')
    .option('--waiting', 'only those waiting for an answer or an approval')
    .option('--limit <n>', 'at most this many', '20')
    .option('--json', 'print JSON')
    .action(async (opts: GlobalOptions & { waiting?: boolean; limit: string }) =>
      withContext(opts, async (context) => {
        const query = `WorkflowType IN ('release', 'delegate')${opts.waiting ? ` AND ${WAITING}` : ''}`;
        const rows: Array<Record<string, string>> = [];
        for await (const w of context.client.workflow.list({ query })) {
          const sa = w.searchAttributes;
          const row = {
            workflowId: w.workflowId,
            kind: w.type === 'release' ? 'release' : 'delegation',
            status: w.status.name,
            phase: String(sa.ReleasePhase?.[0] ?? sa.A2aTaskState?.[0] ?? ''),
            subject: String(sa.ReleaseService?.[0] ?? sa.A2aAgent?.[0] ?? ''),
            started: w.startTime.toISOString(),
          };
          // Escaped before the columns are measured, so the table stays aligned.
          rows.push(
            opts.json ? row : Object.fromEntries(Object.entries(row).map(([k, v]) => [k, terminalSafe(oneLine(v))])),
          );
          if (rows.length >= Number(opts.limit)) break;
        }
        if (opts.json) return console.log(terminalJson(rows, 2));
        if (rows.length === 0)
          return console.log(
            opts.waiting ? 'Nothing is waiting for an answer or an approval.' : 'No releases or delegations yet.',
          );
        const header = {
          workflowId: 'ID',
          kind: 'KIND',
          status: 'STATUS',
          phase: 'PHASE / TASK STATE',
          subject: 'SERVICE / AGENT',
          started: 'STARTED',
        };
        const all = [header, ...rows];
        const keys = Object.keys(header) as Array<keyof typeof header>;
        const widths = keys.map((k) => Math.max(...all.map((r) => r[k]!.length)));
        for (const r of all)
          console.log(
            keys
              .map((k, i) => r[k]!.padEnd(widths[i]!))
              .join('  ')
              .trimEnd(),
          );
      }),
    );
}
