import type { Command } from 'commander';
import { temporalTarget } from '../../platform/temporal-config.js';
import { loadWorkerConfig } from '../../worker/config.js';
import { createA2AWorker } from '../../worker/run-worker.js';
import { CliError } from '../cli-error.js';
import { unreachableServer } from '../temporal-errors.js';

export function registerWorkerCommand(program: Command): void {
  program
    .command('worker')
    .description('run the worker: the delegate and release workflows and their activities (Ctrl-C stops it gracefully)')
    .option('--task-queue <name>', 'task queue (env A2A_TASK_QUEUE)')
    .option('--agents-file <path>', 'agent names, URLs and credential references (env A2A_AGENTS_FILE; default ./agents.json)')
    .option('--address <host:port>', 'Temporal frontend (env TEMPORAL_ADDRESS)')
    .option('--namespace <ns>', 'Temporal namespace (env TEMPORAL_NAMESPACE)')
    .action(async (opts: { taskQueue?: string; agentsFile?: string; address?: string; namespace?: string }) => {
      let config;
      try {
        config = loadWorkerConfig(process.env, { taskQueue: opts.taskQueue, agentsFile: opts.agentsFile });
      } catch (err) {
        throw new CliError((err as Error).message, 2);
      }
      const target = temporalTarget(opts);
      const worker = await createA2AWorker({ config, target }).catch((err: unknown) => {
        throw unreachableServer(target.address, err) ?? new CliError((err as Error).message, 1, { cause: err });
      });
      console.log(`Worker on task queue "${config.taskQueue}" at ${target.address} (namespace ${target.namespace})`);
      console.log(config.agentsFile ? `Agents: ${config.agentsFile}` : 'Agents: none configured (agents are addressed by URL)');
      await worker.run();
    });
}
