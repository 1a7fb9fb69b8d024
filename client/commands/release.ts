import type { Command } from 'commander';
import { RELEASE_PHASE, RELEASE_SERVICE, type CheckSpec, type ReleaseInput } from '../../contract/index.js';
import { usageError } from '../cli-error.js';
import { uiLine, withConnectionOptions, withContext, workflowUrl, type GlobalOptions } from '../context.js';
import { follow } from '../follow.js';
import { interactiveHandlers } from '../interactive.js';
import {
  checkAgentNames,
  cliRegistry,
  parseDurationFlag,
  parseMode,
  readableId,
  readJsonFile,
  taskQueueOf,
  warnWithoutWorker,
} from '../start-options.js';
import { Terminal } from '../terminal.js';

interface ReleaseStartOptions extends GlobalOptions {
  service: string;
  from: string;
  to: string;
  manifest: string;
  agentsFile?: string;
  compat: string;
  checks: string;
  mode?: string;
  inputTimeout?: string;
  approvalTimeout?: string;
  taskQueue?: string;
  id?: string;
  follow?: boolean;
}

export function registerReleaseCommand(program: Command): void {
  const release = program.command('release').description('release coordination');
  withConnectionOptions(release.command('start'))
    .description('start a release: analyse dependencies with an A2A agent, run the checks, report, wait for approval')
    .requiredOption('--service <name>', 'the service to upgrade, e.g. payment-service')
    .requiredOption('--from <version>', 'current version')
    .requiredOption('--to <version>', 'target version')
    .requiredOption('--manifest <file>', "the service's dependency manifest (package.json)")
    .option(
      '--agents-file <file>',
      'check agent names against this agents file (default: A2A_AGENTS_FILE or ./agents.json)',
    )
    .option('--compat <agent>', 'the dependency-compatibility agent (name or URL)', 'compat')
    .option('--checks <agents>', 'other checks, comma-separated agent names ("" for none)', 'changelog,license')
    .option('--mode <mode>', 'how delegations follow their tasks: auto, stream, poll, push', 'auto')
    .option('--input-timeout <duration>', 'give up on a question after this long, e.g. "1 hour"')
    .option('--approval-timeout <duration>', 'reject when nobody decides within this time, e.g. "2 days"')
    .option('--task-queue <name>', "the workers' task queue (env A2A_TASK_QUEUE, default a2a-temporal)")
    .option('--id <workflowId>', 'workflow id (default: release-<service>-<to>-<random>)')
    .option('--follow', 'watch it live and ask for answers and the approval on this terminal')
    .option('--json', 'print the workflow id and UI link as JSON')
    .action(async (opts: ReleaseStartOptions) => {
      const manifest = readJsonFile(opts.manifest, 'manifest', '--manifest');
      const checks: CheckSpec[] = opts.checks
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
        .map((agent) => ({ label: agent.replace(/^https?:\/\//, '').replace(/[^a-zA-Z0-9.-]+/g, '-'), agent }));
      if (new Set(checks.map((c) => c.label)).size !== checks.length || checks.some((c) => c.label === 'compat')) {
        throw usageError('--checks names each check once, and not "compat" (the analysis is --compat).');
      }
      checkAgentNames(cliRegistry(opts.agentsFile), [opts.compat, ...checks.map((c) => c.agent)]);
      const input: ReleaseInput = {
        service: opts.service,
        fromVersion: opts.from,
        toVersion: opts.to,
        manifest,
        compat: { agent: opts.compat },
        checks,
        mode: parseMode(opts.mode),
        inputTimeout: parseDurationFlag(opts.inputTimeout, '--input-timeout'),
        approvalTimeout: parseDurationFlag(opts.approvalTimeout, '--approval-timeout'),
      };
      await withContext(opts, async (context) => {
        const taskQueue = taskQueueOf(opts.taskQueue);
        const workflowId = opts.id ?? readableId(`release-${opts.service}-${opts.to}`);
        await warnWithoutWorker(context.client, context.namespace, taskQueue);
        const handle = await context.client.workflow.start('release', {
          workflowId,
          taskQueue,
          args: [input],
          staticSummary: `Release ${opts.service} ${opts.from} → ${opts.to}`,
          staticDetails: `**Release ${opts.service} ${opts.from} → ${opts.to}**\n\nAnalysis: \`${opts.compat}\` · checks: ${checks.map((c) => `\`${c.agent}\``).join(', ') || 'none'}`,
          typedSearchAttributes: [
            { key: RELEASE_SERVICE, value: opts.service },
            { key: RELEASE_PHASE, value: 'analysing' },
          ],
        });
        const uiUrl = workflowUrl(context, workflowId);
        if (opts.json) console.log(JSON.stringify({ workflowId, runId: handle.firstExecutionRunId, uiUrl }));
        else
          console.log(`Started release ${workflowId}\n${uiLine(uiUrl)}\nFollow it: a2a-temporal watch ${workflowId}`);
        if (opts.follow) {
          const terminal = new Terminal();
          await follow(context, workflowId, { terminal, ...interactiveHandlers(context, workflowId, terminal, {}) });
        }
      });
    });
}
