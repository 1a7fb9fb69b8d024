import type { Command } from 'commander';
import { startSampleAgents } from '../../agents/index.js';
import { waitForExitSignal } from '../wait-for-exit.js';
import { parsePort } from './server.js';

/** Ports of the sample agents, as listed in the repository's agents.json. */
export const SAMPLE_AGENT_PORTS = { compat: 41241, changelog: 41242, license: 41243 } as const;

export function registerAgentsCommand(program: Command): void {
  program
    .command('agents')
    .description('run the sample A2A agents (dependency compatibility, changelog, license check) on 127.0.0.1')
    .option('--compat-port <port>', 'Dependency Compatibility Agent port', String(SAMPLE_AGENT_PORTS.compat))
    .option('--changelog-port <port>', 'Changelog Writer port', String(SAMPLE_AGENT_PORTS.changelog))
    .option('--license-port <port>', 'License Checker port', String(SAMPLE_AGENT_PORTS.license))
    .option('--host <ip>', 'address to bind', '127.0.0.1')
    .option('--public-host <name>', 'host name in the agent cards (e.g. a compose service name)')
    .option('--work-delay <ms>', 'simulated work before the report streams', '300')
    .option('--legacy', 'also serve the A2A 0.3 wire format')
    .action(
      async (opts: {
        host: string;
        publicHost?: string;
        compatPort: string;
        changelogPort: string;
        licensePort: string;
        workDelay: string;
        legacy?: boolean;
      }) => {
        const running = await startSampleAgents({
          host: opts.host,
          publicHost: opts.publicHost,
          ports: {
            compat: parsePort(opts.compatPort, '--compat-port'),
            changelog: parsePort(opts.changelogPort, '--changelog-port'),
            license: parsePort(opts.licensePort, '--license-port'),
          },
          workDelayMs: Number(opts.workDelay),
          legacy: opts.legacy ?? false,
        });
        for (const agent of Object.values(running.agents)) console.log(`${agent.name}: ${agent.cardUrl}`);
        console.log('Press Ctrl-C to stop.');
        await waitForExitSignal();
        await running.close();
      },
    );
}
