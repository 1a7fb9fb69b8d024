import { Context, log } from '@temporalio/activity';
import type { AgentCard } from '../a2a/index.js';
import { rankInterfaces } from '../a2a/agent-card.js';
import { grpcInterfaceUrl } from '../a2a/grpc/target.js';
import { ExtendedAgentCardNotConfiguredError, UnsupportedOperationError } from '../a2a/errors.js';
import { OutboundRefusedError, SecurityRequirementsUnmetError } from '../a2a/security-errors.js';
import { agentCardUrl } from '../a2a/agent-card.js';
import { displayUrl } from '../a2a/display-url.js';
import { meetRequirements, type ChosenRequirement } from '../a2a/security-requirements.js';
import type { EndpointSecurity, ResolvedAgent, ResolvedCard, ResolvedEndpoint } from '../contract/delegation-types.js';
import type { AgentLocation } from './agent-registry.js';
import { clientFor, type ActivityDeps } from './deps.js';
import { asActivity } from './failures.js';
import { agentLabel } from '../contract/telemetry.js';

export interface ResolveAgentInput {
  /** A name from the agents file, or a URL. */
  agent: string;
}

/**
 * Fetches and validates the agent card (cached per worker, revalidated when stale; its signature
 * verified where the agents file configures keys), picks the interface, checks it against the
 * outbound policy and the card's security requirements against the configured credential, and
 * reads the authenticated extended card where the card has one. Fails before anything is sent to
 * the interface when the policy or the requirements say no.
 *
 * This is a local activity: its result goes into history once (replays never refetch), so it is
 * the card REDUCED to what the workflow and the activities need, bounded in size.
 */
export function resolveAgent(deps: ActivityDeps, { agent }: ResolveAgentInput): Promise<ResolvedAgent> {
  return asActivity(agent, () => resolveCard(deps, agent, Context.current().cancellationSignal));
}

/**
 * What {@link resolveAgent} does, for an activity that resolves the agent before its first
 * request (a stream or poll delegation's first turn, saving the workflow a local activity).
 * @throws what the card fetch, the policy and the requirements throw (A2AError and kin).
 */
export async function resolveCard(deps: ActivityDeps, agent: string, signal: AbortSignal): Promise<ResolvedAgent> {
  const location = deps.registry.locate(agent);
  await location.policy.check(location.url, { operation: 'GetAgentCard' });
  const connection = await deps.access.connection(location, 'card');
  const fetched = await deps.cards.get(agentCardUrl(location.url), {
    signal,
    timeoutMs: deps.requestTimeoutMs,
    policy: location.policy,
    ...connection,
  });
  // Checked on every resolve, cached card or not: entries sharing a URL may ask for different keys.
  const verify = deps.access.cardVerifier(location);
  const agentUrl = displayUrl(fetched.cardUrl);
  let verdict = await verify?.(fetched.card, { operation: 'GetAgentCard', agentUrl });
  let card = fetched.card;
  let endpoint = await choose(deps, location, card, fetched.cardUrl);
  if (card.capabilities.extendedAgentCard && location.entry?.auth) {
    // §8.3: an authenticated client uses the extended card in place of the public one.
    const client = await clientFor(deps, { name: agent, endpoint });
    const extended = await client.getExtendedAgentCard({ signal }).catch((err: unknown) => {
      // The agent says it has none after all: the public card stands. Anything else (a refusal) fails.
      if (err instanceof ExtendedAgentCardNotConfiguredError || err instanceof UnsupportedOperationError) return card;
      throw err;
    });
    if (extended !== card) {
      // The extended card replaces the public one: it is verified like it (and refused unsigned
      // under requireSignedCard), so a signed public card never vouches for an unsigned extended one.
      verdict = await verify?.(extended, { operation: 'GetExtendedAgentCard', agentUrl });
      card = extended;
      endpoint = await choose(deps, location, card, fetched.cardUrl);
    }
  }
  const autoMode =
    card.capabilities.pushNotifications && deps.webhook ? 'push' : card.capabilities.streaming ? 'stream' : 'poll';
  return {
    name: agent,
    cardUrl: fetched.cardUrl,
    card: reduceCard(card, verdict === 'verified'), // whether the card actually used was verified
    endpoint,
    autoMode,
  };
}

/**
 * The card's interface for us: the best one we speak (in the entry's `bindings` order) on an
 * origin the policy trusts, whose security requirements the agents file meets. A gRPC interface's
 * `host:port` becomes a URL here (the card's scheme), so the policy judges it as any other.
 * @throws NoUsableInterfaceError, InterfaceOriginMismatchError (of the best one, when none is on a trusted origin), OutboundRefusedError, SecurityRequirementsUnmetError
 */
async function choose(
  deps: ActivityDeps,
  location: AgentLocation,
  card: AgentCard,
  cardUrl: string,
): Promise<ResolvedEndpoint> {
  const ranked = rankInterfaces(card, location.entry?.bindings ? { bindings: location.entry.bindings } : {}).map((i) =>
    i.binding === 'GRPC' ? { ...i, url: grpcInterfaceUrl(i.url, cardUrl) } : i,
  );
  // grpc-js resolves host names itself, where the address guard of agents named by URL (no private
  // addresses, DNS rebinding included) cannot run: such agents are reached over HTTP only.
  const candidates = location.entry ? ranked : ranked.filter((i) => i.binding !== 'GRPC');
  if (candidates.length === 0) {
    throw new OutboundRefusedError({
      operation: 'GetAgentCard',
      agentUrl: displayUrl(cardUrl),
      why: 'its card offers only gRPC, which this worker speaks to agents of its agents file only; add the agent there',
    });
  }
  // The best interface on a trusted origin: one elsewhere (a gRPC port not allow-listed) is passed over.
  const selected = candidates.find((i) => location.policy.trusts(i.url)) ?? candidates[0]!;
  location.policy.checkInterface(selected.url, cardUrl);
  await location.policy.check(selected.url, { operation: 'GetAgentCard' });
  const { held, provided } = deps.access.held(location);
  const verdict = meetRequirements(card, held, provided);
  if (!verdict.ok) {
    throw new SecurityRequirementsUnmetError({
      operation: 'GetAgentCard',
      agentUrl: displayUrl(cardUrl),
      required: verdict.required,
      provided: verdict.provided,
    });
  }
  if (verdict.unreadable)
    log.warn(
      "the card's security scheme is in a form this worker cannot read; sending the credential of the agent's agents-file entry (to the card's origin only)",
      { agent: agentLabel(location.name), schemes: verdict.unreadable.map((n) => n.slice(0, 40)), provided },
    );
  return verdict.chosen ? { ...selected, security: bounded(verdict.chosen) } : selected;
}

/** Longest name, description and URL kept from the card. */
const MAX_NAME = 256;
const MAX_DESCRIPTION = 300;
const MAX_URL = 2048;

function reduceCard(card: AgentCard, signed: boolean): ResolvedCard {
  const { streaming, pushNotifications, extendedAgentCard } = card.capabilities;
  const capabilities: ResolvedCard['capabilities'] = {};
  if (streaming !== undefined) capabilities.streaming = streaming;
  if (pushNotifications !== undefined) capabilities.pushNotifications = pushNotifications;
  if (extendedAgentCard !== undefined) capabilities.extendedAgentCard = extendedAgentCard;
  return { name: card.name.slice(0, MAX_NAME), capabilities, ...(signed ? { signed: true } : {}) };
}

/** The chosen requirement with every string bounded (an over-long URL is dropped: the agents file must name the endpoint). */
function bounded(chosen: ChosenRequirement): EndpointSecurity {
  const security: EndpointSecurity = { description: chosen.description.slice(0, MAX_DESCRIPTION) };
  if (chosen.tokenUrl && chosen.tokenUrl.length <= MAX_URL) security.tokenUrl = chosen.tokenUrl;
  if (chosen.openIdConnectUrl && chosen.openIdConnectUrl.length <= MAX_URL)
    security.openIdConnectUrl = chosen.openIdConnectUrl;
  if (chosen.scopes?.length) security.scopes = chosen.scopes.slice(0, 16).map((s) => s.slice(0, 128));
  return security;
}
