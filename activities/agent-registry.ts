/**
 * The worker's agents file: agent names → card URL, a credential REFERENCE (the name of an
 * environment variable or of a file), and where the agent's requests may go. Workflow inputs and
 * history only ever carry names; credentials are read here, inside activities, when a request
 * needs them (so a rotated secret is picked up without a restart).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from 'zod';
import { OutboundPolicy } from '../a2a/index.js';
import { OutboundRefusedError } from '../a2a/security-errors.js';
import { originOf } from '../a2a/outbound-policy.js';

/** A secret is held by an environment variable (`…Env`) or a file (`…File`, re-read on every use): exactly one. */
const secretName = z.string().min(1).optional();

function exactlyOne(keys: [string, string]) {
  return (value: Record<string, unknown>) => (value[keys[0]] === undefined) !== (value[keys[1]] === undefined);
}

const oneOf = (env: string, file: string) => ({ error: `set exactly one of ${env} and ${file}`, path: [env] });

const BearerAuthSchema = z
  .object({
    /** A bearer token in the `Authorization` header. */
    type: z.literal('bearer'),
    /** The environment variable that holds the token. */
    tokenEnv: secretName,
    /** The file that holds the token (re-read on every use). */
    tokenFile: secretName,
  })
  .refine(exactlyOne(['tokenEnv', 'tokenFile']), oneOf('tokenEnv', 'tokenFile'));

const ApiKeyAuthSchema = z
  .object({
    /** An API key in a header or query parameter. */
    type: z.literal('apiKey'),
    /** Header or query parameter name, e.g. `X-API-Key`. */
    name: z.string().min(1),
    /** Where the key goes. */
    location: z.enum(['header', 'query']).default('header'),
    /** The environment variable that holds the key. */
    valueEnv: secretName,
    /** The file that holds the key (re-read on every use). */
    valueFile: secretName,
  })
  .refine(exactlyOne(['valueEnv', 'valueFile']), oneOf('valueEnv', 'valueFile'));

const httpsUrl = z.url({ protocol: /^https?$/ });

/** OAuth 2.0 client credentials (RFC 6749 §4.4); the token endpoint from `tokenUrl`, the issuer's discovery document, or the card. */
const OAuth2AuthSchema = z
  .object({
    /** OAuth 2.0 client credentials. */
    type: z.literal('oauth2'),
    /** Our client id at the authorization server. */
    clientId: z.string().min(1),
    /** The environment variable that holds the client secret. */
    clientSecretEnv: secretName,
    /** The file that holds the client secret (re-read on every use). */
    clientSecretFile: secretName,
    /** The token endpoint; else found through `issuer` (OpenID Connect discovery), else the card's scheme. */
    tokenUrl: httpsUrl.optional(),
    /** An OpenID Connect issuer: its `/.well-known/openid-configuration` names the token endpoint. */
    issuer: httpsUrl.optional(),
    /** The scopes to ask for. */
    scopes: z.array(z.string().min(1)).default([]),
    /** Sent as `audience` (and `resource`) when set: the API the token is for. */
    audience: z.string().min(1).optional(),
  })
  .refine(exactlyOne(['clientSecretEnv', 'clientSecretFile']), oneOf('clientSecretEnv', 'clientSecretFile'));

const AgentAuthSchema = z.union([BearerAuthSchema, ApiKeyAuthSchema, OAuth2AuthSchema]);

const atMostOne = (a: string, b: string) => (v: Record<string, unknown>) => !(v[a] && v[b]);

/**
 * TLS to the agent: our client certificate and key for mutual TLS (both or neither), and the CA
 * bundle that signed the agent's certificate (instead of the system's roots). Verification of
 * the agent's certificate is always on.
 */
const TlsSchema = z
  .object({
    /** The environment variable that holds our client certificate (PEM). */
    certEnv: secretName,
    /** The file that holds our client certificate (PEM) (re-read on every use). */
    certFile: secretName,
    /** The environment variable that holds our client certificate's private key (PEM). */
    keyEnv: secretName,
    /** The file that holds our client certificate's private key (PEM) (re-read on every use). */
    keyFile: secretName,
    /** The environment variable that holds the CA bundle (PEM) that signed the agent's certificate. */
    caEnv: secretName,
    /** The file that holds the CA bundle (PEM) that signed the agent's certificate (re-read on every use). */
    caFile: secretName,
  })
  .refine(atMostOne('certEnv', 'certFile'), { error: 'set at most one of certEnv and certFile', path: ['certEnv'] })
  .refine(atMostOne('keyEnv', 'keyFile'), { error: 'set at most one of keyEnv and keyFile', path: ['keyEnv'] })
  .refine(atMostOne('caEnv', 'caFile'), { error: 'set at most one of caEnv and caFile', path: ['caEnv'] })
  .refine((v) => Boolean(v.certEnv || v.certFile) === Boolean(v.keyEnv || v.keyFile), {
    error: 'a client certificate needs its key, and a key its certificate',
    path: ['keyFile'],
  })
  .refine((v) => Boolean(v.certEnv || v.certFile || v.caEnv || v.caFile), {
    error: 'set a client certificate and key (mutual TLS), a CA bundle, or both',
  });

/** Keys that sign the agent's card: a JWKS URL, or one public key (PEM or JWK JSON) from a file or variable. */
const CardSigningSchema = z
  .object({
    /** Where the agent publishes its signing keys (a JWKS). */
    jwksUrl: httpsUrl.optional(),
    /** The environment variable that holds the public key (PEM or JWK JSON). */
    publicKeyEnv: secretName,
    /** The file that holds the public key (PEM or JWK JSON) (re-read on every use). */
    publicKeyFile: secretName,
  })
  .refine((v) => [v.jwksUrl, v.publicKeyEnv, v.publicKeyFile].filter(Boolean).length === 1, {
    error: 'set exactly one of jwksUrl, publicKeyEnv and publicKeyFile',
  });

const origin = z.url({ protocol: /^https?$/ }).transform((u) => new URL(u).origin);

const AgentEntrySchema = z
  .object({
    /** The agent's base URL (card at /.well-known/agent-card.json) or the card's own URL. */
    url: z.url({ protocol: /^https?$/ }),
    /** What the agent is for, for people (`a2a-temporal agents list`). */
    description: z.string().optional(),
    /** How we authenticate to the agent; where the card names its own schemes, this supplies the secret. */
    auth: AgentAuthSchema.optional(),
    /** Our client certificate (mutual TLS) and the CA that signed the agent's certificate. */
    tls: TlsSchema.optional(),
    /** More origins the card may name interfaces on (and credentials may go to). */
    allowOrigins: z.array(origin).default([]),
    /** Plain http to a host that is not loopback. */
    allowInsecure: z.boolean().default(false),
    /** Refuse a card that is unsigned or whose signature does not verify with `cardSigning`. */
    requireSignedCard: z.boolean().default(false),
    /** The keys the agent's card is signed with. */
    cardSigning: CardSigningSchema.optional(),
    /**
     * The bindings to use, best first, when the card offers several (the others are never used).
     * @default ["HTTP+JSON", "JSONRPC", "GRPC"] (see DEFAULT_BINDINGS in a2a/agent-card.ts)
     */
    bindings: z
      .array(z.enum(['GRPC', 'HTTP+JSON', 'JSONRPC']))
      .min(1)
      .refine((b) => new Set(b).size === b.length, { error: 'name each binding once' })
      .optional(),
    /** Content this agent may put into one delegation, in bytes (see A2A_MAX_DELEGATION_BYTES); overrides the worker's. */
    maxDelegationBytes: z.number().int().positive().optional(),
  })
  .refine((e) => !e.requireSignedCard || e.cardSigning !== undefined, {
    error: 'requireSignedCard needs cardSigning (a jwksUrl or a public key) to verify with',
    path: ['cardSigning'],
  });

export const AgentsFileSchema = z.object({ agents: z.record(z.string().min(1), AgentEntrySchema) });

/** The agents file as written (JSON): agent names to URLs and where their credentials are. See [docs/configuration.md](../docs/configuration.md#agents-and-credentials). */
export type AgentsFile = z.input<typeof AgentsFileSchema>;
export type AgentEntry = z.output<typeof AgentEntrySchema>;
export type TlsConfig = z.output<typeof TlsSchema>;

/** Thrown when a name is not in the agents file; the message lists the names it has. */
export class AgentNotConfiguredError extends Error {
  override readonly name = 'AgentNotConfiguredError';
}

/** Thrown when the agents file refers to an environment variable that is not set (or a file that cannot be read). */
export class CredentialMissingError extends Error {
  override readonly name = 'CredentialMissingError';
}

/** Thrown when the agents file cannot be read or is not valid. */
export class AgentsFileError extends Error {
  override readonly name = 'AgentsFileError';
}

/** The worker's settings for agents named by URL in workflow inputs. */
export interface AgentUrlSettings {
  /** Agents may be named by URL (A2A_AGENTS_BY_URL). @default true */
  agentsByUrl?: boolean;
  /** Such agents may be on private addresses (A2A_ALLOW_PRIVATE_AGENT_URLS). @default false */
  allowPrivate?: boolean;
}

export interface AgentLocation {
  name: string;
  url: string;
  /** The agents-file entry (also for a URL that is an entry's URL); undefined for a stranger named by URL. */
  entry?: AgentEntry;
  /** Where this agent's requests may go and which may carry its credentials. */
  policy: OutboundPolicy;
}

/** The agents file, loaded: agent names to card URLs, credential references and settings, which the activities look agents up in. See [docs/configuration.md](../docs/configuration.md#agents-and-credentials). */
export class AgentRegistry {
  private readonly agents: Record<string, AgentEntry>;

  constructor(
    file: AgentsFile,
    /** Where `…Env` secrets are read. */
    readonly env: NodeJS.ProcessEnv = process.env,
    /** Where the file came from, for messages. */
    readonly source = 'the agents file',
    private readonly settings: AgentUrlSettings = {},
  ) {
    this.agents = AgentsFileSchema.parse(file).agents;
  }

  /** The worker's settings for agents named by URL. */
  get urlSettings(): AgentUrlSettings {
    return this.settings;
  }

  /** Names it knows, for messages and `a2a-temporal agents list`. */
  names(): string[] {
    return Object.keys(this.agents);
  }

  /** Every agent of the file, by name. */
  entries(): Array<[string, AgentEntry]> {
    return Object.entries(this.agents);
  }

  /**
   * Finds an agent by name, or takes a URL (with the entry that has the same URL, if any; a
   * stranger's URL must pass the outbound policy's address check when its requests are made).
   *
   * @throws AgentNotConfiguredError for an unknown name; OutboundRefusedError when agents by URL are off.
   */
  locate(nameOrUrl: string): AgentLocation {
    if (nameOrUrl.includes('://')) {
      const match = this.entries().find(([, entry]) => sameUrl(entry.url, nameOrUrl));
      if (match) return this.located(nameOrUrl, match[1].url, match[1]);
      if (this.settings.agentsByUrl === false) {
        throw new OutboundRefusedError({
          operation: 'GetAgentCard',
          why: 'this worker does not take agents by URL (A2A_AGENTS_BY_URL=false); name an agent of its agents file',
        });
      }
      return this.located(nameOrUrl, nameOrUrl, undefined);
    }
    const entry = this.agents[nameOrUrl];
    if (!entry) {
      const known = this.names();
      throw new AgentNotConfiguredError(
        `Agent "${nameOrUrl}" is not in ${this.source}` +
          (known.length ? ` (it has: ${known.join(', ')})` : ' (it lists no agents)') +
          "; add it there, or pass the agent's URL instead of a name.",
      );
    }
    return this.located(nameOrUrl, entry.url, entry);
  }

  private located(name: string, url: string, entry: AgentEntry | undefined): AgentLocation {
    const policy = new OutboundPolicy({
      origin: originOf(url),
      allowOrigins: entry?.allowOrigins ?? [],
      allowInsecure: entry?.allowInsecure ?? false,
      publicAddressesOnly: entry === undefined,
      allowPrivate: this.settings.allowPrivate ?? false,
    });
    return entry ? { name, url, entry, policy } : { name, url, policy };
  }
}

/** Reads and validates an agents file. @throws AgentsFileError with the path and what is wrong. */
export function loadAgentRegistry(
  path: string,
  env: NodeJS.ProcessEnv = process.env,
  settings: AgentUrlSettings = {},
): AgentRegistry {
  const absolute = resolve(path);
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(absolute, 'utf8'));
  } catch (err) {
    throw new AgentsFileError(
      `Cannot read the agents file ${absolute}: ${(err as Error).message}. Check the path (A2A_AGENTS_FILE or --agents-file).`,
    );
  }
  const parsed = AgentsFileSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new AgentsFileError(
      `The agents file ${absolute} is not valid: ${issue?.path.join('.') || '(root)'}: ${issue?.message}. Expected {"agents": {"<name>": {"url": "http://…"}}}.`,
    );
  }
  return new AgentRegistry(parsed.data, env, absolute, settings);
}

function sameUrl(a: string, b: string): boolean {
  // String operations, not `/\/+$/`: that regex is quadratic on a URL of many slashes, and the URL comes from a workflow input.
  const strip = (u: string) => {
    let end = u.endsWith(CARD_SUFFIX) ? u.length - CARD_SUFFIX.length : u.length;
    while (end > 0 && u[end - 1] === '/') end--;
    return u.slice(0, end);
  };
  return strip(a) === strip(b);
}

const CARD_SUFFIX = '/.well-known/agent-card.json';
