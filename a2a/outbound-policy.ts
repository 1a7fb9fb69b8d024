/**
 * The outbound policy: where a request for one agent may go, and whether it may carry that
 * agent's credentials. {@link HttpClient} asks it before every request (the card, every
 * interface call, the extended card), so no path can skip it:
 *
 * - only `http:` and `https:`; no user info (`user:pw@`) in any URL;
 * - `http:` only to a loopback host (127.0.0.0/8, ::1, `localhost`) unless `allowInsecure`;
 * - an interface must be on the card's origin or an allow-listed one
 *   ({@link OutboundPolicy.checkInterface}, `A2A_INTERFACE_ORIGIN_MISMATCH` naming both);
 * - credentials go only to the card's origin and the allow-listed ones;
 * - for an agent named by URL (`publicAddressesOnly`): the host must not be, or resolve to, a
 *   loopback, link-local (cloud metadata: 169.254.169.254, fd00:ec2::254), private, unspecified,
 *   multicast or otherwise reserved address, in any notation. URLs are parsed by WHATWG `URL`
 *   (which normalises `2130706433`, `0177.0.0.1`, `0x7f.1` to 127.0.0.1) and addresses classified
 *   by `ipaddr.js` (IPv4-mapped IPv6 is unwrapped first); the same check runs again on the
 *   addresses a connection really uses ({@link guardedLookup}), so DNS rebinding gains nothing.
 */
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import ipaddr from 'ipaddr.js';
import type { ErrorContext } from './errors.js';
import { InterfaceOriginMismatchError, OutboundRefusedError } from './security-errors.js';
import { displayUrl } from './display-url.js';

/** The settings of the outbound policy: allowed origins, private addresses, plain HTTP. See [docs/security.md](../docs/security.md). */
export interface OutboundPolicyOptions {
  /** The origin the agent is configured at (its card URL's): interfaces belong here, credentials go here. */
  origin: string;
  /** More origins where interfaces may be and credentials may go (the agents file's `allowOrigins`). */
  allowOrigins?: readonly string[];
  /** Allows `http:` to hosts other than loopback (the agents file's `allowInsecure`). */
  allowInsecure?: boolean;
  /** The agent was named by URL in a workflow input: its hosts must be public addresses. */
  publicAddressesOnly?: boolean;
  /** With `publicAddressesOnly`: private ranges (10/8, 172.16/12, 192.168/16, fc00::/7, 100.64/10) are allowed. */
  allowPrivate?: boolean;
  /** Resolves a host name to its addresses. @default node:dns lookup (all addresses) */
  resolve?: (host: string) => Promise<string[]>;
}

/** Ranges an agent named by URL may reach; `allowPrivate` adds {@link PRIVATE_RANGES}. */
const PUBLIC_RANGES = new Set(['unicast']);
const PRIVATE_RANGES = new Set(['private', 'uniqueLocal', 'carrierGradeNat']);

/** The `ipaddr.js` range of an IP literal (IPv4-mapped IPv6 unwrapped), or undefined for a host name. */
export function addressRange(host: string): string | undefined {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  if (!ipaddr.isValid(bare)) return undefined;
  return ipaddr.process(bare).range();
}

/** `localhost`, `*.localhost` (RFC 6761) and loopback addresses. */
export function isLoopbackHost(host: string): boolean {
  const name = (host.endsWith('.') ? host.slice(0, -1) : host).toLowerCase();
  if (name === 'localhost' || name.endsWith('.localhost')) return true;
  return addressRange(name) === 'loopback';
}

/** Decides which hosts an agent's URLs may lead to and which requests may carry our credentials. See [docs/security.md](../docs/security.md). */
export class OutboundPolicy {
  private readonly trusted: ReadonlySet<string>;

  constructor(private readonly options: OutboundPolicyOptions) {
    this.trusted = new Set([options.origin, ...(options.allowOrigins ?? [])].map(originOf));
  }

  /** The origins credentials may go to, as `scheme://host:port`. */
  get origins(): readonly string[] {
    return [...this.trusted];
  }

  /** Whether `url` is on the card's origin or an allow-listed one. */
  trusts(url: string): boolean {
    return this.trusted.has(originOf(url));
  }

  /**
   * An interface a card names must be an http(s) URL on the card's origin or an allow-listed one.
   * @throws InterfaceOriginMismatchError naming both origins.
   */
  checkInterface(interfaceUrl: string, cardUrl: string): void {
    let origin = 'an unreadable URL';
    try {
      const url = new URL(interfaceUrl);
      origin = url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : `a ${url.protocol} URL`;
    } catch {
      // Not a URL: reported as such below.
    }
    if (this.trusted.has(origin)) return;
    throw new InterfaceOriginMismatchError({
      interfaceOrigin: origin,
      cardOrigin: originOf(cardUrl),
      agentUrl: displayUrl(cardUrl),
      operation: 'GetAgentCard',
    });
  }

  /**
   * Checks one request's URL; resolves to whether it may carry the agent's credentials.
   * @throws OutboundRefusedError (not retryable) with the reason and the setting that allows it, if any.
   */
  async check(
    target: string | URL,
    context: ErrorContext = {},
  ): Promise<{
    /** Whether the request may carry the agent's credentials. */
    credentials: boolean;
  }> {
    const url = typeof target === 'string' ? parseUrl(target, context) : target;
    const refuse = (why: string) => new OutboundRefusedError({ ...context, agentUrl: displayUrl(url.href), why });
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw refuse(`it is a ${url.protocol} URL, and agents are reached over http(s) only`);
    if (url.username !== '' || url.password !== '')
      throw refuse('it carries user info (user:password@); put credentials in the agents file instead');
    if (url.protocol === 'http:' && !this.options.allowInsecure && !isLoopbackHost(url.hostname))
      throw refuse(
        'it is plain http to a host that is not loopback; use https, or set "allowInsecure": true on its agents-file entry',
      );
    if (this.options.publicAddressesOnly) await this.checkPublic(url.hostname, refuse);
    return { credentials: this.trusted.has(url.origin) };
  }

  private async checkPublic(hostname: string, refuse: (why: string) => OutboundRefusedError): Promise<void> {
    const literal = addressRange(hostname);
    const addresses =
      literal !== undefined || isLoopbackHost(hostname)
        ? [hostname]
        : await (this.options.resolve ?? resolveAll)(hostname).catch(() => []); // unresolvable: the request fails as a connection error
    for (const address of addresses) {
      const range = isLoopbackHost(address) ? 'loopback' : refusedRange(address, this.options.allowPrivate ?? false);
      if (range === undefined) continue;
      const via = address === hostname ? '' : ` (it resolves to ${address})`;
      const allow = PRIVATE_RANGES.has(range)
        ? '; set A2A_ALLOW_PRIVATE_AGENT_URLS=true for on-premises agents, or add it to the agents file'
        : '; add the agent to the agents file to reach it';
      throw refuse(`an agent named by URL may not reach a ${range} address${via}${allow}`);
    }
  }
}

/** The range name when `address` is one an agent named by URL may not reach. */
function refusedRange(address: string, allowPrivate: boolean): string | undefined {
  const range = addressRange(address) ?? 'unknown';
  if (PUBLIC_RANGES.has(range)) return undefined;
  if (allowPrivate && PRIVATE_RANGES.has(range)) return undefined;
  return range;
}

/** `scheme://host:port` of a URL (or the text itself when it is none). */
export function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

function parseUrl(text: string, context: ErrorContext): URL {
  try {
    return new URL(text);
  } catch {
    throw new OutboundRefusedError({ ...context, agentUrl: displayUrl(text), why: 'it is not a valid URL' });
  }
}

async function resolveAll(host: string): Promise<string[]> {
  const { lookup } = await import('node:dns/promises');
  return (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);
}

/**
 * A `dns.lookup` for undici's `connect` option (the pool of agents named by URL): it fails the
 * connection with an {@link OutboundRefusedError} (not retried) when the host resolves to an
 * address such an agent may not reach, so a host that resolves differently at connect time
 * (DNS rebinding) gains nothing.
 */
export function publicAddressLookup(allowPrivate: boolean): typeof dnsLookup {
  const refused = (address: string) => refusedRange(address, allowPrivate);
  const guarded = (
    hostname: string,
    options: LookupOptions,
    callback: (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
  ) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, options.all ? [] : '', undefined);
      for (const { address } of addresses) {
        const range = refused(address);
        if (range !== undefined) {
          const why = `an agent named by URL may not reach a ${range} address (${hostname} resolves to ${address})`;
          return callback(new OutboundRefusedError({ why }), options.all ? [] : '');
        }
      }
      if (options.all) return callback(null, addresses);
      const first = addresses[0];
      return callback(null, first?.address ?? '', first?.family);
    });
  };
  return guarded as unknown as typeof dnsLookup;
}
