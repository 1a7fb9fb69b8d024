/**
 * How the bench's baseline activities reach the agent: the same registry, card cache and undici
 * pool settings as the product's activities, so the designs differ and the plumbing does not.
 */
import { Agent, type Dispatcher } from 'undici';
import { createA2AClient, type A2AClient } from '../../a2a/index.js';
import type { AgentRegistry } from '../../activities/index.js';
import { AgentCardCache } from '../../activities/card-cache.js';

export interface BaselineDeps {
  registry: AgentRegistry;
  dispatcher: Dispatcher;
  cards: AgentCardCache;
  requestTimeoutMs: number;
}

export function baselineDeps(registry: AgentRegistry, requestTimeoutMs = 30_000): BaselineDeps {
  // The pool of activities/index.ts: keep-alive connections reused across delegations.
  const dispatcher = new Agent({ connections: 256, bodyTimeout: 0, keepAliveTimeout: 30_000 });
  return { registry, dispatcher, cards: new AgentCardCache({ dispatcher }), requestTimeoutMs };
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
    auth: location.auth,
    timeoutMs: deps.requestTimeoutMs,
  });
  return createA2AClient({ card }, { dispatcher: deps.dispatcher, auth: location.auth, timeoutMs });
}
