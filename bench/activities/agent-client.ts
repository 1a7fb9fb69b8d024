/**
 * How the bench's baseline activities reach the agent: the same registry, card cache, undici
 * pool settings and agent access (policy, credentials) as the product's activities, so the
 * designs differ and the plumbing does not.
 */
import type { Dispatcher } from 'undici';
import { createA2AClient, type A2AClient } from '../../a2a/index.js';
import type { AgentRegistry } from '../../activities/index.js';
import { AgentAccess, defaultDispatcher } from '../../activities/agent-access.js';
import { AgentCardCache } from '../../activities/card-cache.js';

export interface BaselineDeps {
  registry: AgentRegistry;
  dispatcher: Dispatcher;
  cards: AgentCardCache;
  access: AgentAccess;
  requestTimeoutMs: number;
}

export function baselineDeps(registry: AgentRegistry, requestTimeoutMs = 30_000): BaselineDeps {
  // The pool of activities/index.ts: keep-alive connections reused across delegations.
  const dispatcher = defaultDispatcher();
  const access = new AgentAccess({ dispatcher, env: registry.env, timeoutMs: requestTimeoutMs });
  return { registry, dispatcher, cards: new AgentCardCache({ dispatcher }), access, requestTimeoutMs };
}

/** A client for the agent named `agent` (its card comes from the per-worker cache). */
export async function agentClient(
  deps: BaselineDeps,
  agent: string,
  signal: AbortSignal,
  timeoutMs = deps.requestTimeoutMs,
): Promise<A2AClient> {
  const location = deps.registry.locate(agent);
  const { card } = await deps.cards.get(location.url, {
    signal,
    timeoutMs: deps.requestTimeoutMs,
    policy: location.policy,
    ...(await deps.access.connection(location, 'card')),
  });
  const connection = await deps.access.connection(location, 'interface');
  return createA2AClient({ card }, { ...connection, policy: location.policy, timeoutMs });
}
