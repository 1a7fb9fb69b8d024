import type { AgentDescription } from '../shared/agent-card.js';
import { startAgentServer, type RunningAgent } from '../shared/agent-server.js';
import { resolveDelays, type CompatAgentOptions } from '../shared/sample-agent-options.js';
import { createLicenseExecutor } from './executor.js';

export const licenseDescription: AgentDescription = {
  name: 'License Checker',
  description:
    "Checks the licenses of a manifest's dependencies and flags copyleft licenses and known-compromised releases.",
  version: '1.0.0',
  defaultInputModes: ['text/plain', 'application/json'],
  defaultOutputModes: ['text/markdown', 'application/json'],
  skills: [
    {
      id: 'license-security-check',
      name: 'License and security check',
      description:
        'Send a data part with a package.json-like object; get a license table and findings (GPL/AGPL, compromised versions).',
      tags: ['license', 'security', 'supply-chain'],
      examples: ['Check the licenses of payment-service'],
    },
  ],
};

/**
 * Starts the License Checker (skill `license-security-check`).
 * @throws RangeError for negative delays; Error when the port cannot be bound.
 */
export async function startLicenseAgent(options: CompatAgentOptions = {}): Promise<RunningAgent> {
  const executor = createLicenseExecutor(resolveDelays(options));
  return startAgentServer({ description: licenseDescription, executor }, options);
}
