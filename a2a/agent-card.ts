/**
 * Discovery (A2A 1.0 §8): fetch and validate the agent card, revalidate it with
 * `ETag`/`Last-Modified`, and choose the interface to talk to.
 */
import type { Dispatcher } from 'undici';
import type { AuthResolver } from './auth.js';
import { NoUsableInterfaceError, type ErrorContext } from './errors.js';
import { errorFromHttpResponse, headerValue } from './error-mapping.js';
import { HttpClient, displayUrl, type HttpObserver } from './http.js';
import { httpOptions } from './http-options.js';
import type { A2ALimits } from './limits.js';
import type { OutboundPolicy } from './outbound-policy.js';
import { AgentCardSchema, type AgentCard } from './schemas/agent-card.js';
import { parseJsonText, parseWire, responseContext, type ParseContext } from './validation.js';
import { isLegacyCard, legacyCardToV1, majorMinor } from './v0-3/agent-card.js';
import { withWireOneofs } from './sdk-oneofs.js';

/** The well-known path of the public agent card (§8.2). */
export const AGENT_CARD_PATH = '.well-known/agent-card.json';

/** The bindings this client speaks. See [docs/grpc.md](../docs/grpc.md#choosing-an-interface). */
export type SupportedBinding = 'HTTP+JSON' | 'JSONRPC' | 'GRPC';
/** The A2A protocol versions this client speaks. See [docs/grpc.md](../docs/grpc.md#choosing-an-interface). */
export type SupportedVersion = '1.0' | '0.3';

/** The interface chosen from a card: where to send requests and how to speak there. See [docs/grpc.md](../docs/grpc.md#choosing-an-interface). */
export interface SelectedInterface {
  /** The interface's URL (`host:port` for gRPC). */
  url: string;
  /** The binding we speak to it: JSON-RPC, HTTP+JSON or gRPC. */
  binding: SupportedBinding;
  /** The protocol version we speak to it: 1.0 or 0.3. */
  protocolVersion: SupportedVersion;
  /** Copied into every request when non-empty. */
  tenant?: string;
}

/** An agent card as fetched: the validated card and how long it may be cached. See [docs/guide.md](../docs/guide.md#the-a2a-client-on-its-own). */
export interface FetchedAgentCard {
  /** The validated card. */
  card: AgentCard;
  /** The URL the card was fetched from. */
  cardUrl: string;
  /** The card's `ETag`, to revalidate it. */
  etag?: string;
  /** The card's `Last-Modified`, to revalidate it. */
  lastModified?: string;
  /** From `Cache-Control: max-age` (0 for `no-cache`/`no-store`). */
  maxAgeSeconds?: number;
}

/** How `fetchAgentCard` fetches: timeouts, caps, policy and credentials. See [docs/guide.md](../docs/guide.md#the-a2a-client-on-its-own). */
export interface FetchAgentCardOptions {
  /** Aborts the fetch. */
  signal?: AbortSignal;
  /** The undici dispatcher to send through (a pool, mTLS). @default undici's global dispatcher */
  dispatcher?: Dispatcher;
  /** The whole fetch's deadline. */
  timeoutMs?: number;
  /** Credentials for the card, where the agent protects it (sent only where the policy allows). */
  auth?: AuthResolver;
  /** A card fetched earlier: it is revalidated (`If-None-Match`/`If-Modified-Since`), and returned as is on 304. */
  previous?: FetchedAgentCard;
  /** The `User-Agent` header. */
  userAgent?: string;
  /** Caps on what is read; the card is bounded by `maxCardBytes`. @default DEFAULT_LIMITS */
  limits?: Partial<A2ALimits>;
  /** Where the request may go and whether it carries `auth`; see {@link OutboundPolicy}. */
  policy?: OutboundPolicy;
  /** Sees the request (see {@link HttpObserver}). */
  observer?: HttpObserver;
}

/** A base URL gets `/.well-known/agent-card.json` appended; a URL ending in `.json` is used as is. */
export function agentCardUrl(baseOrCardUrl: string): string {
  const url = new URL(baseOrCardUrl);
  if (url.pathname.endsWith('.json')) return url.toString();
  if (!url.pathname.endsWith('/')) url.pathname += '/';
  return new URL(AGENT_CARD_PATH, url).toString();
}

/**
 * Fetches, validates and normalises an agent card (a 0.3 card comes back in 1.0 shape).
 * Sends `A2A-Version: 1.0`, so an agent that serves both versions answers with its 1.0 card.
 *
 * @throws HttpStatusError, ConnectionError, TransportTimeoutError, AbortedError,
 *   InvalidResponseError (not JSON, or not a card), ResponseTooLargeError (over `maxCardBytes`).
 */
export async function fetchAgentCard(
  baseOrCardUrl: string,
  options: FetchAgentCardOptions = {},
): Promise<FetchedAgentCard> {
  const cardUrl = agentCardUrl(baseOrCardUrl);
  const context: ErrorContext = { operation: 'GetAgentCard', agentUrl: displayUrl(cardUrl) };
  const http = new HttpClient(httpOptions(options));
  const headers: Record<string, string> = { accept: 'application/json', 'a2a-version': '1.0' };
  const previous = options.previous?.cardUrl === cardUrl ? options.previous : undefined;
  if (previous?.etag) headers['if-none-match'] = previous.etag;
  if (previous?.lastModified) headers['if-modified-since'] = previous.lastModified;
  const res = await http.unary(
    { method: 'GET', url: cardUrl, headers, context, signal: options.signal, bodyLimit: 'maxCardBytes' },
    options.timeoutMs,
  );
  const maxAgeSeconds = parseMaxAge(headerValue(res.headers, 'cache-control'));
  if (res.status === 304 && previous) {
    return maxAgeSeconds === undefined ? previous : { ...previous, maxAgeSeconds };
  }
  if (res.status < 200 || res.status >= 300) throw errorFromHttpResponse(res.status, res.headers, res.text, res.scope);
  const ctx = responseContext(http, { ...context, what: 'agent card' });
  const fetched: FetchedAgentCard = { card: parseAgentCard(parseJsonText(res.text, ctx), ctx), cardUrl };
  const etag = headerValue(res.headers, 'etag');
  const lastModified = headerValue(res.headers, 'last-modified');
  if (etag) fetched.etag = etag;
  if (lastModified) fetched.lastModified = lastModified;
  if (maxAgeSeconds !== undefined) fetched.maxAgeSeconds = maxAgeSeconds;
  return fetched;
}

/** `max-age=N` in seconds; 0 for `no-cache` / `no-store`; undefined when absent. */
export function parseMaxAge(cacheControl: string | undefined): number | undefined {
  if (!cacheControl) return undefined;
  const directives = cacheControl
    .toLowerCase()
    .split(',')
    .map((d) => d.trim());
  if (directives.includes('no-store') || directives.includes('no-cache')) return 0;
  for (const d of directives) {
    const match = /^max-age=(\d+)$/.exec(d);
    if (match) return Number(match[1]);
  }
  return undefined;
}

/**
 * Validates an agent card. A 0.3 card (`url`, `preferredTransport`, `additionalInterfaces`,
 * `protocolVersion: "0.3.x"`) is normalised into 1.0 `supportedInterfaces` first, and oneofs in
 * the JS SDK's internal form (`{"$case": …, "value": …}`, see sdk-oneofs.ts) into the wire form.
 *
 * @throws InvalidResponseError naming the first invalid field.
 */
export function parseAgentCard(
  json: unknown,
  context: ErrorContext & Partial<ParseContext> = { operation: 'GetAgentCard' },
): AgentCard {
  const wire = withWireOneofs(json);
  const normalised = isLegacyCard(wire) ? legacyCardToV1(wire) : wire;
  return parseWire(AgentCardSchema, normalised, { ...context, what: 'agent card' });
}

const BINDING_ALIASES: Record<string, SupportedBinding> = {
  'HTTP+JSON': 'HTTP+JSON',
  HTTP_JSON: 'HTTP+JSON',
  HTTPJSON: 'HTTP+JSON',
  REST: 'HTTP+JSON',
  JSONRPC: 'JSONRPC',
  'JSON-RPC': 'JSONRPC',
  JSON_RPC: 'JSONRPC',
  GRPC: 'GRPC',
};

/** Our name for a card's binding, or undefined when we do not speak it. */
export function supportedBinding(protocolBinding: string): SupportedBinding | undefined {
  return BINDING_ALIASES[protocolBinding.trim().toUpperCase()];
}

/** "1.0", "1.0.1" → "1.0"; "0.3", "0.3.0" → "0.3"; other versions → undefined. */
export function supportedVersion(protocolVersion: string): SupportedVersion | undefined {
  const v = majorMinor(protocolVersion);
  return v === '1.0' || v === '0.3' ? v : undefined;
}

/**
 * The bindings we accept, best first, when nothing else is said: HTTP+JSON, then JSON-RPC (the
 * order the project always had), then gRPC. gRPC comes last because an agent that offers it
 * beside HTTP usually serves it on another port, which the outbound policy treats as another
 * origin (it needs an `allowOrigins` entry): putting it first would turn working HTTP agents
 * into refused ones the day they add a gRPC interface. An agents-file entry says otherwise with
 * `"bindings": ["GRPC", "HTTP+JSON", "JSONRPC"]`; a card that offers only gRPC is used as is.
 */
export const DEFAULT_BINDINGS: readonly SupportedBinding[] = ['HTTP+JSON', 'JSONRPC', 'GRPC'];

/** Which interfaces of a card may be chosen, best first. See [docs/grpc.md](../docs/grpc.md#choosing-an-interface). */
export interface InterfacePreference {
  /** Bindings we accept, best first. @default ['HTTP+JSON', 'JSONRPC', 'GRPC'] */
  bindings?: SupportedBinding[];
  /** Protocol versions we accept, best first. Default `['1.0', '0.3']`. */
  versions?: SupportedVersion[];
}

/**
 * Chooses the interface to use. Among the card's `supportedInterfaces` that we speak, the
 * best protocol version wins (1.0 over 0.3: 0.3 lacks ListTasks), then the preferred binding
 * (HTTP+JSON over JSONRPC), then the card's own order (first = the agent's preference).
 *
 * @throws NoUsableInterfaceError listing what the card offers.
 */
export function selectInterface(card: AgentCard, prefer: InterfacePreference = {}): SelectedInterface {
  return rankInterfaces(card, prefer)[0]!;
}

/**
 * Every interface of the card we speak, best first (the order of {@link selectInterface}), for a
 * caller that may pass over one (an interface the outbound policy refuses). gRPC is spoken in
 * A2A 1.0 only.
 *
 * @throws NoUsableInterfaceError listing what the card offers, when there is none.
 */
export function rankInterfaces(card: AgentCard, prefer: InterfacePreference = {}): SelectedInterface[] {
  const bindings = prefer.bindings ?? DEFAULT_BINDINGS;
  const versions = prefer.versions ?? ['1.0', '0.3'];
  const ranked: Array<{ rank: [number, number, number]; selected: SelectedInterface }> = [];
  card.supportedInterfaces.forEach((entry, index) => {
    const binding = supportedBinding(entry.protocolBinding);
    const version = supportedVersion(entry.protocolVersion);
    if (!binding || !version || (binding === 'GRPC' && version !== '1.0')) return;
    const b = bindings.indexOf(binding);
    const v = versions.indexOf(version);
    if (b === -1 || v === -1) return;
    const selected: SelectedInterface = { url: entry.url, binding, protocolVersion: version };
    if (entry.tenant) selected.tenant = entry.tenant;
    ranked.push({ rank: [v, b, index], selected });
  });
  if (ranked.length > 0) return ranked.sort((a, b) => compareRank(a.rank, b.rank)).map((r) => r.selected);
  const offered = card.supportedInterfaces.map(
    (i) => `${i.protocolBinding} ${i.protocolVersion} at ${displayUrl(i.url)}`,
  );
  throw new NoUsableInterfaceError(offered, { wanted: `${bindings.join(' or ')}, ${versions.join(' or ')}` });
}

function compareRank(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < a.length; i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}
