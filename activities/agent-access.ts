/**
 * How this worker reaches one agent: the outbound policy, the credential the agents file gives
 * it (bearer token, API key, OAuth 2.0 client credentials), the TLS client certificate, and the
 * keys its card is signed with. Built per request from the agents file; what is costly to make
 * (OAuth tokens, TLS pools, JWKS) is kept per worker and renewed when its source changes.
 */
import { createHash, createPublicKey, type JsonWebKey } from 'node:crypto';
import { Agent, type Dispatcher } from 'undici';
import type { JSONWebKeySet } from 'jose';
import { z } from 'zod';
import { HttpClient } from '../a2a/http.js';
import { apiKeyAuth, bearerAuth, type A2ALimits, type AgentCard, type AuthResolver } from '../a2a/index.js';
import { CardSignatureError } from '../a2a/security-errors.js';
import { ClientCredentialsTokens } from '../a2a/client-credentials.js';
import { displayUrl } from '../a2a/display-url.js';
import { mutualTlsConnector } from '../a2a/mtls-connector.js';
import { verifyCardSignature, type CardKey } from '../a2a/card-signature.js';
import type { ErrorContext } from '../a2a/errors.js';
import type { GrpcTlsMaterial } from '../a2a/grpc/channels.js';
import type { HeldCredentials } from '../a2a/security-requirements.js';
import type { EndpointSecurity } from '../contract/delegation-types.js';
import { CredentialMissingError, type AgentEntry, type AgentLocation, type TlsConfig } from './agent-registry.js';
import { readSecret } from './secret-source.js';

/** A JWKS: a list of keys (jose checks each key when it uses it). */
const JWKS_SCHEMA = z.object({ keys: z.array(z.record(z.string(), z.unknown())).max(100) });

/** What an A2A client for the agent is built with. */
export interface AgentConnection {
  auth?: AuthResolver;
  dispatcher?: Dispatcher;
  authScheme?: string;
  /** The entry's TLS material, for the gRPC binding (HTTP has it in `dispatcher`). */
  tls?: GrpcTlsMaterial;
}

/** One pool for everything that is not an agent with a client certificate: keep-alive, no body timeout. */
export function defaultDispatcher(connect?: Agent.Options['connect']): Agent {
  return new Agent({ connections: 256, bodyTimeout: 0, keepAliveTimeout: 30_000, ...(connect ? { connect } : {}) });
}

export class AgentAccess {
  private readonly tokens = new Map<string, ClientCredentialsTokens>();
  private readonly tlsPools = new Map<string, { fingerprint: string; agent: Agent; material: GrpcTlsMaterial }>();
  private readonly jwks = new Map<string, { keys: CardKey; until: number }>();
  /** Token requests per agent since the worker started (what the tests count). */
  readonly tokenFetches = new Map<string, number>();

  constructor(
    private readonly options: {
      /** For agents of the agents file. */
      dispatcher: Dispatcher;
      /** For agents named by URL: its connections refuse non-public addresses. */
      publicDispatcher?: Dispatcher;
      env: NodeJS.ProcessEnv;
      timeoutMs: number;
      limits?: Partial<A2ALimits> | undefined;
    },
  ) {}

  /** The credentials the entry gives, as the card's schemes see them, and in words. */
  held(location: AgentLocation): { held: HeldCredentials; provided: string } {
    const entry = location.entry;
    const held: HeldCredentials = {};
    const words: string[] = [];
    const auth = entry?.auth;
    if (auth?.type === 'bearer') {
      held.bearer = true;
      words.push('a bearer token');
    } else if (auth?.type === 'apiKey') {
      held.apiKey = { name: auth.name, location: auth.location };
      words.push(`an API key ${auth.name} in ${auth.location}`);
    } else if (auth?.type === 'oauth2') {
      held.oauth2 = true;
      words.push('OAuth 2.0 client credentials');
    }
    if (entry?.tls && (entry.tls.certEnv || entry.tls.certFile)) {
      held.mtls = true;
      words.push('a client certificate (mutual TLS)');
    }
    return { held, provided: words.length ? words.join(' and ') : 'no credentials' };
  }

  /**
   * The connection for the agent's requests. `purpose: 'card'` is the public card: static
   * credentials only (no token is fetched just to read a public card).
   */
  async connection(
    location: AgentLocation,
    purpose: 'card' | 'interface',
    security?: EndpointSecurity,
  ): Promise<AgentConnection> {
    const entry = location.entry;
    const connection: AgentConnection = {};
    if (entry?.tls) {
      const pool = await this.tlsPool(location.name, entry.tls);
      connection.dispatcher = pool.agent;
      connection.tls = pool.material;
    } else {
      connection.dispatcher = entry
        ? this.options.dispatcher
        : (this.options.publicDispatcher ?? this.options.dispatcher);
    }
    if (security) connection.authScheme = security.description;
    const auth = entry?.auth;
    if (!auth) return connection;
    if (auth.type === 'oauth2') {
      if (purpose === 'interface') connection.auth = this.oauth(location, entry, connection.dispatcher, security);
      return connection;
    }
    const env = this.options.env;
    connection.auth = async () => {
      if (auth.type === 'bearer')
        return bearerAuth(
          await readSecret({ env: auth.tokenEnv, file: auth.tokenFile }, env, 'bearer token', location.name),
        )();
      const value = await readSecret(
        { env: auth.valueEnv, file: auth.valueFile },
        env,
        `API key ${auth.name}`,
        location.name,
      );
      return apiKeyAuth(auth.name, value, auth.location)();
    };
    return connection;
  }

  /** The entry's client-credentials token source (one per worker, agent and endpoint), as a resolver. */
  private oauth(
    location: AgentLocation,
    entry: AgentEntry,
    dispatcher: Dispatcher,
    security: EndpointSecurity | undefined,
  ): AuthResolver {
    const auth = entry.auth;
    if (auth?.type !== 'oauth2') throw new Error('not an OAuth 2.0 entry');
    const endpoint = auth.tokenUrl
      ? { tokenUrl: auth.tokenUrl }
      : auth.issuer
        ? { issuer: auth.issuer }
        : security?.tokenUrl
          ? { tokenUrl: security.tokenUrl }
          : security?.openIdConnectUrl
            ? { discoveryUrl: security.openIdConnectUrl }
            : undefined;
    if (!endpoint) {
      throw new CredentialMissingError(
        `Agent "${location.name}" uses OAuth 2.0 client credentials, but neither its agents-file entry (tokenUrl, issuer) nor its card names a token endpoint; set "tokenUrl" or "issuer".`,
      );
    }
    const scopes = auth.scopes.length ? auth.scopes : (security?.scopes ?? []);
    const key = JSON.stringify([location.name, auth.clientId, endpoint, scopes, auth.audience ?? '']);
    let source = this.tokens.get(key);
    if (!source) {
      source = new ClientCredentialsTokens({
        clientId: auth.clientId,
        clientSecret: () =>
          readSecret(
            { env: auth.clientSecretEnv, file: auth.clientSecretFile },
            this.options.env,
            'OAuth 2.0 client secret',
            location.name,
          ),
        endpoint,
        endpointFrom: auth.tokenUrl || auth.issuer ? 'config' : 'card',
        scopes,
        ...(auth.audience ? { audience: auth.audience } : {}),
        policy: location.policy,
        dispatcher,
        timeoutMs: this.options.timeoutMs,
        onToken: () => this.tokenFetches.set(location.name, (this.tokenFetches.get(location.name) ?? 0) + 1),
      });
      this.tokens.set(key, source);
    }
    return source.resolver();
  }

  /**
   * A pool presenting the entry's client certificate (mutual TLS), verifying the agent's against
   * its CA bundle (or the system's roots). The PEMs are read on every call; a changed one
   * (rotation) makes a new pool.
   */
  private async tlsPool(name: string, tls: TlsConfig): Promise<{ agent: Agent; material: GrpcTlsMaterial }> {
    const env = this.options.env;
    const pem = async (e: string | undefined, file: string | undefined, what: string) =>
      e || file ? readSecret({ env: e, file }, env, what, name) : undefined;
    const cert = await pem(tls.certEnv, tls.certFile, 'client certificate for mutual TLS (PEM)');
    const key = await pem(tls.keyEnv, tls.keyFile, 'client private key for mutual TLS (PEM)');
    const ca = await pem(tls.caEnv, tls.caFile, 'CA bundle (PEM)');
    const fingerprint = createHash('sha256')
      .update(JSON.stringify([cert ?? '', key ?? '', ca ?? '']))
      .digest('hex');
    const pooled = this.tlsPools.get(name);
    if (pooled?.fingerprint === fingerprint) return pooled;
    // Certificate verification stays on: there is deliberately no setting for rejectUnauthorized.
    // Entries with TLS settings are private agents, where mutual TLS is the rule: every such pool
    // gets the connector that turns a refused (or missing) client certificate into a clear failure.
    const material: GrpcTlsMaterial = { ...(cert && key ? { cert, key } : {}), ...(ca ? { ca } : {}) };
    const agent = defaultDispatcher(mutualTlsConnector(material));
    this.tlsPools.set(name, { fingerprint, agent, material });
    if (pooled) void pooled.agent.close().catch(() => {});
    return { agent, material };
  }

  /**
   * The card check the entry asks for: its signature verified with the configured key (a
   * JWKS read through the agent's policy, kept 5 minutes), required when `requireSignedCard`.
   */
  cardVerifier(location: AgentLocation): ((card: AgentCard, context: ErrorContext) => Promise<void>) | undefined {
    const entry = location.entry;
    if (!entry?.cardSigning) return undefined;
    const signing = entry.cardSigning;
    return async (card, context) => {
      const keys = await this.cardKeys(location, signing);
      await verifyCardSignature(card, keys, { ...context, require: entry.requireSignedCard });
    };
  }

  private async cardKeys(location: AgentLocation, signing: NonNullable<AgentEntry['cardSigning']>): Promise<CardKey> {
    if (!signing.jwksUrl) {
      const text = await readSecret(
        { env: signing.publicKeyEnv, file: signing.publicKeyFile },
        this.options.env,
        'card signing public key (PEM or JWK)',
        location.name,
      );
      return text.startsWith('{')
        ? createPublicKey({ key: JSON.parse(text) as JsonWebKey, format: 'jwk' })
        : createPublicKey(text);
    }
    const cached = this.jwks.get(signing.jwksUrl);
    if (cached && cached.until > Date.now()) return cached.keys;
    const http = new HttpClient({
      dispatcher: this.options.dispatcher,
      policy: location.policy,
      ...(this.options.limits ? { limits: this.options.limits } : {}),
    });
    const context = { operation: 'GetCardSigningKeys', agentUrl: displayUrl(signing.jwksUrl) };
    const res = await http.unary(
      {
        method: 'GET',
        url: signing.jwksUrl,
        headers: { accept: 'application/json' },
        context,
        bodyLimit: 'maxCardBytes',
      },
      this.options.timeoutMs,
    );
    const refuse = (why: string) => new CardSignatureError({ ...context, problem: 'invalid', why });
    if (res.status !== 200) throw refuse(`the JWKS at ${displayUrl(signing.jwksUrl)} answered HTTP ${res.status}`);
    let keys: CardKey;
    try {
      keys = { jwks: JWKS_SCHEMA.parse(JSON.parse(res.text)) as JSONWebKeySet };
    } catch {
      throw refuse(`the JWKS at ${displayUrl(signing.jwksUrl)} is not a JSON Web Key Set`);
    }
    this.jwks.set(signing.jwksUrl, { keys, until: Date.now() + 5 * 60_000 });
    return keys;
  }
}
