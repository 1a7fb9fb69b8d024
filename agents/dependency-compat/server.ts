import { startAgentServer, type RunningAgent } from '../shared/agent-server.js';
import { resolveDelays, type CompatAgentOptions } from '../shared/sample-agent-options.js';
import { dependencyCompatDescription } from './agent-description.js';
import { createDependencyCompatExecutor } from './executor.js';

/**
 * Starts the Dependency Compatibility Agent (skill `dependency-compatibility-analysis`).
 * @throws RangeError for negative delays; Error when the port cannot be bound.
 */
export async function startDependencyCompatAgent(options: CompatAgentOptions = {}): Promise<RunningAgent> {
  const executor = createDependencyCompatExecutor(resolveDelays(options));
  return startAgentServer({ description: dependencyCompatDescription, executor }, options);
}
