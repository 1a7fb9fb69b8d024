/**
 * `a2a-temporal blobs gc`: retention of the blob store (storage/retention.ts). Temporal's External
 * Storage never deletes a blob; run this daily (a cron job, a Kubernetes CronJob) with the same
 * A2A_BLOB_* settings as the workers and a connection to every namespace whose workflows write
 * blobs. A blob is removed once no workflow holding it is open or within its namespace's
 * retention and it is older than the grace period.
 */
import type { Command } from 'commander';
import { durationMs } from '../../contract/durations.js';
import { collectGarbage, temporalLiveness } from '../../storage/retention.js';
import { CliError } from '../cli-error.js';
import { withConnectionOptions, withContext, type GlobalOptions } from '../context.js';
import { terminalJson, terminalSafe } from '../terminal-text.js';

interface GcOptions extends GlobalOptions {
  dryRun?: boolean;
  grace: string;
  untrackedTtl: string;
}

export function registerBlobsCommand(program: Command): void {
  const blobs = program.command('blobs').description('the blob store of files and large payloads (docs/files.md)');
  withConnectionOptions(blobs.command('gc'))
    .description(
      'remove blobs no workflow can read any more: none of the workflows holding them is open or within its namespace retention',
    )
    .option('--dry-run', 'say what would be removed, remove nothing')
    .option(
      '--grace <duration>',
      'keep blobs and references younger than this (payloads are stored before their workflow starts)',
      '24h',
    )
    .option(
      '--untracked-ttl <duration>',
      'keep blobs written for no known workflow (codec server /encode) this long',
      '30d',
    )
    .option('--json', 'print the report as JSON')
    .action(async (opts: GcOptions) =>
      withContext(opts, async (context) => {
        let graceMs: number;
        let untrackedTtlMs: number;
        try {
          graceMs = durationMs(opts.grace, '--grace');
          untrackedTtlMs = durationMs(opts.untrackedTtl, '--untracked-ttl');
        } catch (err) {
          throw new CliError((err as Error).message, 2, { cause: err });
        }
        const report = await collectGarbage({
          store: context.blobs.store,
          isAlive: temporalLiveness(context.client.connection.workflowService),
          graceMs,
          untrackedTtlMs,
          dryRun: opts.dryRun ?? false,
        });
        if (opts.json) {
          console.log(terminalJson(report, 2));
          return;
        }
        const verb = opts.dryRun ? 'Would remove' : 'Removed';
        console.log(
          `${verb} ${report.removed.length} of ${report.blobs} blobs (${report.removedBytes} bytes) from ${terminalSafe(context.blobs.store.location)}; ${report.deadReferences} references of workflows that are gone, ${report.sessions} abandoned append sessions.`,
        );
        for (const key of report.removed) console.log(`  ${key}`);
      }),
    );
}
