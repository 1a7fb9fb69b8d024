import { startChangelogAgent } from './changelog-writer/server.js';
import { startDependencyCompatAgent } from './dependency-compat/server.js';
import { startLicenseAgent } from './license-checker/server.js';
import type { RunningAgent } from './shared/agent-server.js';

/** Where the three sample agents listen and how they behave. See [docs/architecture.md](../docs/architecture.md#layout). */
export interface SampleAgentsOptions {
  /** @default '127.0.0.1' */
  host?: string;
  /** Host name in the cards' URLs (e.g. the compose service name). @default the bound host */
  publicHost?: string;
  /** Port per agent; 0 or absent picks a free port. */
  ports?: {
    /** The dependency-compatibility agent's port. */
    compat?: number;
    /** The changelog agent's port. */
    changelog?: number;
    /** The license-checker agent's port. */
    license?: number;
  };
  /** Also serve A2A 0.3. @default false */
  legacy?: boolean;
  /** Also serve gRPC (each agent on a second port, listed last in its card). @default false */
  grpc?: boolean;
  /** @default 300 */
  workDelayMs?: number;
  /** @default 150 */
  chunkDelayMs?: number;
}

/** The three sample agents, running, and how to stop them. See [docs/architecture.md](../docs/architecture.md#layout). */
export interface SampleAgents {
  /** The agents, by their names in the sample agents file. */
  agents: {
    /** Checks that the dependencies work with the target Node.js version (asks which one). */
    compat: RunningAgent;
    /** Writes the change log (CHANGELOG.md). */
    changelog: RunningAgent;
    /** Checks the licences and returns an SBOM (sbom.cdx.json). */
    license: RunningAgent;
  };
  /** Closes all three agents. */
  close(): Promise<void>;
}

/**
 * Starts the three sample agents. If one cannot start, the others are closed again and the first
 * error is thrown.
 */
export async function startSampleAgents(options: SampleAgentsOptions = {}): Promise<SampleAgents> {
  const { host, publicHost, ports = {}, legacy, grpc, workDelayMs, chunkDelayMs } = options;
  const bindings = grpc ? (['JSONRPC', 'HTTP+JSON', 'GRPC'] as const) : undefined;
  const common = { host, publicHost, legacy, workDelayMs, chunkDelayMs, ...(bindings ? { bindings } : {}) };
  const results = await Promise.allSettled([
    startDependencyCompatAgent({ ...common, port: ports.compat ?? 0 }),
    startChangelogAgent({ ...common, port: ports.changelog ?? 0 }),
    startLicenseAgent({ ...common, port: ports.license ?? 0 }),
  ]);
  const started = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
  const failure = results.find((r) => r.status === 'rejected');
  if (failure) {
    await Promise.all(started.map((agent) => agent.close()));
    throw failure.reason;
  }
  const [compat, changelog, license] = started as [RunningAgent, RunningAgent, RunningAgent];
  return {
    agents: { compat, changelog, license },
    close: async () => {
      await Promise.all(started.map((agent) => agent.close()));
    },
  };
}
