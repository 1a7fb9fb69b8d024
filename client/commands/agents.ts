import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import { loadAgentRegistry } from '../../activities/index.js';
import { startSampleAgents } from '../../agents/index.js';
import { CliError } from '../cli-error.js';
import { waitForExitSignal } from '../wait-for-exit.js';
import { parsePort } from './server.js';

/** Ports of the sample agents when the agents file does not name them (the repository's agents.json does). */
export const SAMPLE_AGENT_PORTS = { compat: 41241, changelog: 41242, license: 41243 } as const;

type SampleName = keyof typeof SAMPLE_AGENT_PORTS;

export function registerAgentsCommand(program: Command): void {
  program
    .command('agents')
    .description(
      'run the sample A2A agents (dependency compatibility, changelog, license check) on 127.0.0.1, on the ports the agents file gives them',
    )
    .option(
      '--agents-file <path>',
      'take each port from the URL of the entry with its name (compat, changelog, license) in this file (env A2A_AGENTS_FILE; default ./agents.json)',
    )
    .option(
      '--compat-port <port>',
      `Dependency Compatibility Agent port (default: from the agents file, else ${SAMPLE_AGENT_PORTS.compat})`,
    )
    .option(
      '--changelog-port <port>',
      `Changelog Writer port (default: from the agents file, else ${SAMPLE_AGENT_PORTS.changelog})`,
    )
    .option(
      '--license-port <port>',
      `License Checker port (default: from the agents file, else ${SAMPLE_AGENT_PORTS.license})`,
    )
    .option('--host <ip>', 'address to bind', '127.0.0.1')
    .option('--public-host <name>', 'host name in the agent cards (e.g. a compose service name)')
    .option('--work-delay <ms>', 'simulated work before the report streams', '300')
    .option('--legacy', 'also serve the A2A 0.3 wire format')
    .option('--grpc', 'also serve the gRPC binding (each agent on a second port, named in its card)')
    .action(
      async (opts: {
        agentsFile?: string;
        host: string;
        publicHost?: string;
        compatPort?: string;
        changelogPort?: string;
        licensePort?: string;
        workDelay: string;
        legacy?: boolean;
        grpc?: boolean;
      }) => {
        const fromFile = portsInAgentsFile(opts.agentsFile);
        const port = (name: SampleName, flag: string | undefined) =>
          flag === undefined ? (fromFile[name] ?? SAMPLE_AGENT_PORTS[name]) : parsePort(flag, `--${name}-port`);
        const running = await startSampleAgents({
          host: opts.host,
          publicHost: opts.publicHost,
          ports: {
            compat: port('compat', opts.compatPort),
            changelog: port('changelog', opts.changelogPort),
            license: port('license', opts.licensePort),
          },
          workDelayMs: Number(opts.workDelay),
          legacy: opts.legacy ?? false,
          grpc: opts.grpc ?? false,
        });
        for (const agent of Object.values(running.agents))
          console.log(`${agent.name}: ${agent.cardUrl}${agent.grpcAddress ? ` (gRPC at ${agent.grpcAddress})` : ''}`);
        console.log('Press Ctrl-C to stop.');
        await waitForExitSignal();
        await running.close();
      },
    );
}

/**
 * The sample agents' ports as the agents file names them (the worker reads the same file, so the
 * two agree without flags): `--agents-file`, A2A_AGENTS_FILE, or ./agents.json when present.
 * Entries that are missing or give no explicit port are left out.
 */
function portsInAgentsFile(flag: string | undefined): Partial<Record<SampleName, number>> {
  const path = flag ?? process.env.A2A_AGENTS_FILE ?? (existsSync('agents.json') ? 'agents.json' : undefined);
  if (!path) return {};
  let entries;
  try {
    entries = loadAgentRegistry(path).entries();
  } catch (err) {
    throw new CliError((err as Error).message, 2);
  }
  const ports: Partial<Record<SampleName, number>> = {};
  for (const [name, entry] of entries) {
    const port = new URL(entry.url).port;
    if (name in SAMPLE_AGENT_PORTS && port) ports[name as SampleName] = Number(port);
  }
  return ports;
}
