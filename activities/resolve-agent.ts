import { Context } from '@temporalio/activity';
import { selectInterface } from '../a2a/index.js';
import type { ResolvedAgent } from '../contract/delegation-types.js';
import type { ActivityDeps } from './deps.js';
import { asActivity } from './failures.js';

export interface ResolveAgentInput {
  /** A name from the agents file, or a URL. */
  agent: string;
}

/**
 * Fetches and validates the agent card (cached per worker, revalidated when stale) and picks
 * the interface. The result goes into history once; replays never refetch.
 */
export async function resolveAgent(deps: ActivityDeps, { agent }: ResolveAgentInput): Promise<ResolvedAgent> {
  return asActivity(agent, async () => {
    const location = deps.registry.locate(agent);
    const { card, cardUrl } = await deps.cards.get(location.url, {
      signal: Context.current().cancellationSignal,
      auth: location.auth,
      timeoutMs: deps.requestTimeoutMs,
    });
    const endpoint = selectInterface(card);
    const autoMode =
      card.capabilities.pushNotifications && deps.webhook ? 'push' : card.capabilities.streaming ? 'stream' : 'poll';
    return { name: agent, cardUrl, card, endpoint, autoMode };
  });
}
