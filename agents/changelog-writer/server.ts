import type { AgentDescription } from '../shared/agent-card.js';
import { startAgentServer, type RunningAgent } from '../shared/agent-server.js';
import { resolveDelays, type CompatAgentOptions } from '../shared/sample-agent-options.js';
import { createChangelogExecutor } from './executor.js';

export const changelogDescription: AgentDescription = {
  name: 'Changelog Writer',
  description: 'Writes a markdown changelog for a service release from its version range and dependency changes.',
  version: '1.0.0',
  defaultInputModes: ['text/plain', 'application/json'],
  defaultOutputModes: ['text/markdown'],
  skills: [
    {
      id: 'changelog-writing',
      name: 'Changelog writing',
      description:
        'Send a data part { service, from, to, dependencies? }; get a changelog artifact streamed in chunks.',
      tags: ['changelog', 'release'],
      examples: ['Write the changelog for payment-service 1.4.0 → 1.5.0'],
    },
  ],
};

/**
 * Starts the Changelog Writer (skill `changelog-writing`).
 * @throws RangeError for negative delays; Error when the port cannot be bound.
 */
export async function startChangelogAgent(options: CompatAgentOptions = {}): Promise<RunningAgent> {
  const executor = createChangelogExecutor(resolveDelays(options));
  return startAgentServer({ description: changelogDescription, executor }, options);
}
