import type { Command } from 'commander';
import { truncateBytes } from '../../contract/text.js';
import { A2A_AGENT, type DelegateInput } from '../../contract/index.js';
import { agentLabel } from '../../contract/telemetry.js';
import { usageError } from '../cli-error.js';
import { uiLine, withConnectionOptions, withContext, workflowUrl, type GlobalOptions } from '../context.js';
import { follow } from '../follow.js';
import { interactiveHandlers } from '../interactive.js';
import {
  checkAgentNames,
  cliRegistry,
  parseMode,
  parseDurationFlag,
  parseIdFlag,
  readableId,
  readJsonFile,
  taskQueueOf,
  warnWithoutWorker,
} from '../start-options.js';
import { Terminal } from '../terminal.js';
import type { Part } from '../../a2a/index.js';

interface DelegateOptions extends GlobalOptions {
  agent: string;
  context?: string;
  ref?: string[];
  mode?: string;
  data?: string;
  inputTimeout?: string;
  deadline?: string;
  agentsFile?: string;
  taskQueue?: string;
  id?: string;
  follow?: boolean;
}

export function registerDelegateCommand(program: Command): void {
  withConnectionOptions(program.command('delegate <text...>'))
    .description('one durable delegation to any A2A agent: send, follow, answer its questions, collect the artifacts')
    .requiredOption('--agent <name|url>', 'agent name from the agents file, or its URL')
    .option('--context <contextId>', 'continue this conversation (follow-up)', (v: string) =>
      parseIdFlag(v, '--context'),
    )
    .option(
      '--ref <taskId>',
      'an earlier task this request refers to (repeat for several)',
      (v: string, earlier: string[] = []) => [...earlier, parseIdFlag(v, '--ref')],
    )
    .option('--mode <mode>', 'auto, stream, poll or push', 'auto')
    .option('--data <file>', 'attach a JSON file as a data part (e.g. a package.json)')
    .option('--input-timeout <duration>', 'give up on a question after this long, e.g. "30 minutes"')
    .option(
      '--deadline <duration>',
      'give up (and cancel the remote task) when the whole delegation takes longer, e.g. "2 hours"',
    )
    .option('--agents-file <file>', 'check the agent name against this agents file')
    .option('--task-queue <name>', "the workers' task queue (env A2A_TASK_QUEUE, default a2a-temporal)")
    .option('--id <workflowId>', 'workflow id (default: delegate-<agent>-<random>)')
    .option('--follow', 'watch it live and ask for answers on this terminal')
    .option('--json', 'print the workflow id and UI link as JSON')
    .action(async (words: string[], opts: DelegateOptions) => {
      const text = words.join(' ').trim();
      if (!text) throw usageError('Give the request text: a2a-temporal delegate --agent <name|url> "<text>".');
      checkAgentNames(cliRegistry(opts.agentsFile), [opts.agent]);
      const parts: Part[] = opts.data
        ? [{ data: readJsonFile(opts.data, 'data file', '--data'), mediaType: 'application/json' } as Part]
        : [];
      const input: DelegateInput = {
        agent: opts.agent,
        label: opts.agent.replace(/^https?:\/\//, ''),
        text,
        parts,
        contextId: opts.context,
        referenceTaskIds: opts.ref,
        mode: parseMode(opts.mode),
        inputTimeout: parseDurationFlag(opts.inputTimeout, '--input-timeout'),
        deadline: parseDurationFlag(opts.deadline, '--deadline'),
      };
      await withContext(opts, async (context) => {
        const taskQueue = taskQueueOf(opts.taskQueue);
        const workflowId = opts.id ?? readableId(`delegate-${input.label}`);
        await warnWithoutWorker(context.client, context.namespace, taskQueue);
        await context.client.workflow.start('delegate', {
          workflowId,
          taskQueue,
          args: [input],
          staticSummary: truncateBytes(`Delegate to ${opts.agent}: ${text}`, 200),
          // As the workflow shows it (no user info or query of a URL); set here, it costs no upsert.
          typedSearchAttributes: [{ key: A2A_AGENT, value: agentLabel(opts.agent) }],
        });
        const uiUrl = workflowUrl(context, workflowId);
        if (opts.json) console.log(JSON.stringify({ workflowId, uiUrl }));
        else console.log(`Started delegation ${workflowId}\n${uiLine(uiUrl)}`);
        if (opts.follow) {
          const terminal = new Terminal();
          const view = await follow(context, workflowId, {
            terminal,
            ...interactiveHandlers(context, workflowId, terminal, {}),
          });
          if (view.status !== 'COMPLETED') process.exitCode = 1;
        }
      });
    });
}
