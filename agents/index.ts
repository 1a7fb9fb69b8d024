/**
 * `a2a-temporal/testing`: the sample A2A agents, built on the official `@a2a-js/sdk`, to delegate
 * to in your own tests and demos (each agent's `metadata.scenario` switches: see docs/architecture.md).
 *
 * @module a2a-temporal/testing
 */
export type { AgentServerOptions, RunningAgent } from './shared/agent-server.js';
export type { AgentStats } from './shared/agent-stats.js';
export type { CompatAgentOptions } from './shared/sample-agent-options.js';
export type { SampleAgents, SampleAgentsOptions } from './sample-agents.js';
export { startDependencyCompatAgent } from './dependency-compat/server.js';
export { startChangelogAgent } from './changelog-writer/server.js';
export { startLicenseAgent } from './license-checker/server.js';
export { startSampleAgents } from './sample-agents.js';
export { SAMPLE_MANIFEST, SAMPLE_MANIFEST_PATH } from './dependency-compat/sample-manifest.js';
