import type { Dispatcher } from 'undici';
import { createA2AClient, type A2AClient, type A2ALimits } from '../a2a/index.js';
import type { AgentRef, AgentTarget, ResolvedEndpoint } from '../contract/delegation-types.js';
import type { AgentAccess } from './agent-access.js';
import type { A2ATelemetry } from '../telemetry/a2a-telemetry.js';
import type { AgentRegistry } from './agent-registry.js';
import type { AgentCardCache } from './card-cache.js';
import { ArtifactSpool, currentSpoolScope, type SpoolSettings } from './artifact-spool.js';
import { ByteBudget } from './byte-budget.js';
import type { TaskViewOptions } from './task-outcome.js';
import { currentWorkflowId, type ExpectedTask, type TaskOwners } from './task-identity.js';

/** What the delegation activities need from their worker; built once by `createActivities`. */
export interface ActivityDeps {
  registry: AgentRegistry;
  cards: AgentCardCache;
  /** Credentials, TLS pools and card keys per agent (tokens cached per worker). */
  access: AgentAccess;
  /** undici dispatcher for every agent request (connection pooling; tests pass a MockAgent). */
  dispatcher?: Dispatcher;
  /** Push mode: where agents deliver notifications; unset = push is never chosen by `auto`. */
  webhook?: WebhookDeps;
  /** Per-request timeout of unary calls. @default 30_000 */
  requestTimeoutMs: number;
  /** Caps on what agents may send (bytes, artifacts, parts, JSON depth). @default DEFAULT_LIMITS */
  limits?: Partial<A2ALimits>;
  /** Spans, trace context and metrics of agent requests; unset = none. */
  telemetry?: A2ATelemetry;
  /** Which delegation on this worker follows which remote task (no cross-talk). */
  owners: TaskOwners;
  /** File parts and large text artifacts go to this blob store as they arrive; unset: they stay inline. */
  artifacts?: SpoolSettings;
  /**
   * Temporal payloads above a threshold go to a blob store (External Storage), so a large result
   * is no reason to fail; unset: results past 1.5 MB fail with A2A_RESULT_TOO_LARGE (payload-limit.ts).
   */
  offloadsPayloads?: boolean;
}

/** Push mode's receiver, as the activities see it. See [docs/push.md](../docs/push.md). */
export interface WebhookDeps {
  /** The receiver's public base URL, e.g. `https://hooks.example.com` (configs point at `<publicUrl>/a2a/push/...`). */
  publicUrl: string;
  /** The receiver secret (A2A_WEBHOOK_SECRET): credentials are derived from it, never stored. */
  secret: string;
}

/**
 * An A2A client for `agent`: its interface checked against the outbound policy (on the card's
 * origin or an allow-listed one), its credential resolved from the registry on every request and
 * sent only where the policy allows, over the agent's TLS settings.
 */
export async function clientFor(deps: ActivityDeps, agent: AgentRef): Promise<A2AClient> {
  const location = deps.registry.locate(agent.name);
  location.policy.checkInterface(agent.endpoint.url, location.url);
  const connection = await deps.access.connection(location, 'interface', agent.endpoint.security);
  const client = createA2AClient(
    { endpoint: agent.endpoint },
    {
      ...connection,
      policy: location.policy,
      timeoutMs: deps.requestTimeoutMs,
      ...(deps.limits ? { limits: deps.limits } : {}),
      ...(deps.telemetry ? { observer: deps.telemetry.observer } : {}),
    },
  );
  return deps.telemetry ? deps.telemetry.wrap(client, agent.name) : client;
}

/** The byte budget of one delegation with `agent`: its agents-file entry's, else the worker's (A2A_MAX_DELEGATION_BYTES). */
export function delegationBudget(deps: ActivityDeps, agent: AgentTarget, droppedBefore = 0): ByteBudget {
  const entry = deps.registry.locate(agent.name).entry;
  return new ByteBudget(entry?.maxDelegationBytes ?? deps.limits?.maxDelegationBytes, droppedBefore);
}

/**
 * How an activity of the current delegation views the task at `agent`: the delegation's byte
 * budget, what it expects of the task, and the worker's owners, where the task is claimed for
 * this delegation (another delegation's task is refused).
 */
export function taskViewOptions(
  deps: ActivityDeps,
  agent: AgentTarget,
  options: { expect?: ExpectedTask; droppedBytes?: number; droppedStoredBytes?: number } = {},
): TaskViewOptions {
  const workflowId = currentWorkflowId();
  return {
    ...(deps.limits ? { limits: deps.limits } : {}),
    budget: delegationBudget(deps, agent, options.droppedBytes),
    ...(deps.artifacts
      ? { spool: new ArtifactSpool(deps.artifacts, currentSpoolScope(agent.name), options.droppedStoredBytes) }
      : {}),
    ...(options.expect ? { expect: options.expect } : {}),
    // Read when a task is claimed: a first turn resolves `agent` (sets its endpoint) before any task arrives.
    claim: (taskId, contextId) => deps.owners.claim(endpointOf(agent).url, taskId, contextId, workflowId),
  };
}

/** The endpoint of an agent that must be resolved by now. */
export function endpointOf(agent: AgentTarget): ResolvedEndpoint {
  if (!agent.endpoint) throw new Error(`agent ${agent.name} is not resolved yet`);
  return agent.endpoint;
}
