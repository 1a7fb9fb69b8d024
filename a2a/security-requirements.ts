/**
 * What the card asks for (`securitySchemes`, `securityRequirements`; A2A 1.0 §4.5) against what
 * the client holds. Requirements are alternatives (any one will do), each naming schemes that
 * are all needed together; none (or an empty one) means the agent takes anonymous calls.
 */
import type { AgentCard, SecurityScheme } from './schemas/agent-card.js';

/** The credentials a client can present, as the card's schemes see them. */
export interface HeldCredentials {
  /** A static `Authorization: Bearer` token. */
  bearer?: boolean;
  /** An API key: its header or query parameter name. */
  apiKey?: { name: string; location: 'header' | 'query' };
  /** OAuth 2.0 client credentials (tokens fetched as needed). */
  oauth2?: boolean;
  /** A client certificate for mutual TLS. */
  mtls?: boolean;
}

/** The requirement the client will meet, and what its OAuth schemes say about getting a token. */
export interface ChosenRequirement {
  /** The schemes, for messages: `scheme "oa" (OAuth 2.0 client credentials)`. */
  description: string;
  /** The token endpoint of the chosen OAuth 2.0 scheme's client-credentials flow. */
  tokenUrl?: string;
  /** The discovery URL of the chosen OpenID Connect scheme. */
  openIdConnectUrl?: string;
  /** The scopes the requirement lists for its OAuth scheme. */
  scopes?: string[];
}

export type RequirementVerdict =
  | {
      ok: true;
      chosen?: ChosenRequirement;
      /** Schemes of the chosen requirement this client cannot read, met by the credential the entry gives (warn about them). */
      unreadable?: string[];
    }
  | { ok: false; required: string; provided: string };

/** How many alternatives are looked at (a card is at most 1 MiB, but nobody needs more). */
const MAX_ALTERNATIVES = 32;

/**
 * Chooses the first alternative of the card's requirements that `held` satisfies.
 * `provided` describes `held` for the sentence when none does.
 *
 * A scheme this client cannot read (defined, but of no kind it knows) is met by whatever
 * credential the agents file gives: the operator configured it for this agent, and it still goes
 * only where the outbound policy sends credentials (the card's origin). The verdict names such
 * schemes (`unreadable`), for a warning. A scheme it can read is met only by a matching credential.
 */
export function meetRequirements(card: AgentCard, held: HeldCredentials, provided: string): RequirementVerdict {
  const alternatives = (card.securityRequirements ?? []).slice(0, MAX_ALTERNATIVES);
  if (alternatives.length === 0) return { ok: true };
  const schemes = card.securitySchemes ?? {};
  for (const requirement of alternatives) {
    const names = Object.keys(requirement.schemes);
    if (names.length === 0) return { ok: true };
    if (!names.every((name) => satisfies(schemes[name], held))) continue;
    const unreadable = names.filter((name) => isUnreadable(schemes[name]));
    const chosen: ChosenRequirement = { description: names.map((n) => describeScheme(n, schemes[n])).join(' and ') };
    for (const name of names) {
      const scheme = schemes[name];
      const flow = scheme?.oauth2SecurityScheme?.flows.clientCredentials;
      if (flow?.tokenUrl) chosen.tokenUrl = flow.tokenUrl;
      if (scheme?.openIdConnectSecurityScheme)
        chosen.openIdConnectUrl = scheme.openIdConnectSecurityScheme.openIdConnectUrl;
      const scopes = requirement.schemes[name]?.list ?? [];
      if ((scheme?.oauth2SecurityScheme || scheme?.openIdConnectSecurityScheme) && scopes.length)
        chosen.scopes = scopes;
    }
    return unreadable.length ? { ok: true, chosen, unreadable } : { ok: true, chosen };
  }
  const required = alternatives
    .map((r) =>
      Object.keys(r.schemes)
        .map((n) => describeScheme(n, schemes[n]))
        .join(' and '),
    )
    .join(', or ');
  return { ok: false, required, provided };
}

function satisfies(scheme: SecurityScheme | undefined, held: HeldCredentials): boolean {
  if (!scheme) return false;
  if (scheme.apiKeySecurityScheme) {
    const { name, location } = scheme.apiKeySecurityScheme;
    return (
      held.apiKey !== undefined &&
      held.apiKey.location === location.toLowerCase() &&
      (location.toLowerCase() === 'header'
        ? held.apiKey.name.toLowerCase() === name.toLowerCase()
        : held.apiKey.name === name)
    );
  }
  if (scheme.httpAuthSecurityScheme)
    return scheme.httpAuthSecurityScheme.scheme.toLowerCase() === 'bearer' && Boolean(held.bearer || held.oauth2);
  // A static bearer token may be one obtained elsewhere from the same authorization server.
  if (scheme.oauth2SecurityScheme || scheme.openIdConnectSecurityScheme) return Boolean(held.oauth2 || held.bearer);
  if (scheme.mtlsSecurityScheme) return Boolean(held.mtls);
  return isUnreadable(scheme) && Boolean(held.bearer || held.apiKey || held.oauth2 || held.mtls);
}

/** A scheme the card defines in a form this client does not read (none of the kinds of A2A 1.0). */
function isUnreadable(scheme: SecurityScheme | undefined): boolean {
  return (
    scheme !== undefined &&
    !scheme.apiKeySecurityScheme &&
    !scheme.httpAuthSecurityScheme &&
    !scheme.oauth2SecurityScheme &&
    !scheme.openIdConnectSecurityScheme &&
    !scheme.mtlsSecurityScheme
  );
}

/** `"oa" (OAuth 2.0 client credentials)`, for messages. */
export function describeScheme(name: string, scheme: SecurityScheme | undefined): string {
  const label = `"${name.length > 40 ? `${name.slice(0, 39)}…` : name}"`;
  if (!scheme) return `scheme ${label} (not defined by the card)`;
  if (scheme.apiKeySecurityScheme) {
    const { name: key, location } = scheme.apiKeySecurityScheme;
    return `scheme ${label} (API key ${key.slice(0, 60)} in ${location.slice(0, 10)})`;
  }
  if (scheme.httpAuthSecurityScheme)
    return `scheme ${label} (HTTP ${scheme.httpAuthSecurityScheme.scheme.slice(0, 20)})`;
  if (scheme.oauth2SecurityScheme) {
    const flows = Object.keys(scheme.oauth2SecurityScheme.flows);
    return `scheme ${label} (OAuth 2.0${flows.length ? ` ${flows.join('/')}` : ''})`;
  }
  if (scheme.openIdConnectSecurityScheme) return `scheme ${label} (OpenID Connect)`;
  if (scheme.mtlsSecurityScheme) return `scheme ${label} (mutual TLS)`;
  return `scheme ${label} (of a kind this client does not know)`;
}
