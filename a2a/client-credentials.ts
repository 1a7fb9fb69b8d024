/**
 * OAuth 2.0 client credentials (RFC 6749 §4.4) as an {@link AuthResolver}, on `oauth4webapi`
 * (a certified, dependency-free implementation; no hand-written token requests): the token
 * endpoint is configured, or found through the issuer's OpenID Connect discovery document; a
 * token is fetched when a request needs one, kept until shortly before it expires, and dropped
 * when the agent answers 401 `invalid_token` (then fetched once more). Tokens and client secrets
 * stay in memory: no message of this module carries them.
 *
 * Authorization-code and device flows need a person and are not done by a worker: an agent that
 * wants a user's consent parks its task in `TASK_STATE_AUTH_REQUIRED`, which the delegation
 * shows as a question.
 */
import * as oauth from 'oauth4webapi';
import { fetch as undiciFetch, type Dispatcher } from 'undici';
import type { AuthMaterial, AuthResolver } from './auth.js';
import { scrubSecrets, secretsOf } from './auth.js';
import { displayUrl } from './display-url.js';
import { TokenRequestError } from './security-errors.js';
import { isLoopbackHost, type OutboundPolicy } from './outbound-policy.js';

export interface ClientCredentialsOptions {
  clientId: string;
  /** Read before every token request (a mounted secret file may have rotated). */
  clientSecret: () => Promise<string>;
  /** Where tokens come from: a token endpoint, or an issuer whose discovery document names it. */
  endpoint: { tokenUrl: string } | { issuer: string } | { discoveryUrl: string };
  /** Whether the endpoint is the operator's (agents file) or the card's: the card's must be on a trusted origin. */
  endpointFrom: 'config' | 'card';
  scopes?: readonly string[];
  audience?: string;
  /** The agent's outbound policy: token and discovery requests pass it too. */
  policy?: OutboundPolicy;
  dispatcher?: Dispatcher;
  timeoutMs?: number;
  now?: () => number;
  /** Called after each token the server issued (for counting). */
  onToken?: () => void;
}

type FetchInit = oauth.CustomFetchOptions<'GET' | 'POST', URLSearchParams | undefined>;

/** The longest token response or discovery document read. */
const MAX_TOKEN_RESPONSE_BYTES = 64 * 1024;
/** A token is renewed this long before it expires: a tenth of its lifetime, at most 30 s. */
const MAX_RENEW_MARGIN_MS = 30_000;
/** Lifetime assumed when the server does not say (`expires_in` is only RECOMMENDED). */
const DEFAULT_LIFETIME_S = 300;

const DISCOVERY_SUFFIX = '/.well-known/openid-configuration';

/** OAuth errors that mean "this client may not get a token": retrying will not change that. */
const CLIENT_ERRORS = new Set([
  'invalid_client',
  'unauthorized_client',
  'invalid_grant',
  'invalid_scope',
  'invalid_request',
  'access_denied',
  'unsupported_grant_type',
]);

/** A client-credentials token source; {@link resolver} is what the A2A client takes. */
export class ClientCredentialsTokens {
  private cached: { token: string; renewAt: number } | undefined;
  private inFlight: Promise<string> | undefined;
  private server: oauth.AuthorizationServer | undefined;
  /** Secrets this source has handled (client secret, tokens): scrubbed from its messages. */
  private readonly secrets = new Set<string>();

  constructor(private readonly options: ClientCredentialsOptions) {}

  /** An AuthResolver sending `Authorization: Bearer <token>`, renewing the token on `invalid_token`. */
  resolver(): AuthResolver {
    const resolve = async (): Promise<AuthMaterial> => ({ headers: { authorization: `Bearer ${await this.token()}` } });
    return Object.assign(resolve, {
      renew: () => {
        const had = this.cached !== undefined;
        this.cached = undefined;
        return had;
      },
    });
  }

  /** A valid access token: the cached one, or a new one from the token endpoint. */
  async token(): Promise<string> {
    const now = (this.options.now ?? Date.now)();
    if (this.cached && now < this.cached.renewAt) return this.cached.token;
    this.inFlight ??= this.fetchToken().finally(() => (this.inFlight = undefined));
    return this.inFlight;
  }

  private async fetchToken(): Promise<string> {
    const server = await this.authorizationServer();
    const secret = await this.options.clientSecret();
    this.secrets.add(secret);
    const client: oauth.Client = { client_id: this.options.clientId };
    const params: Record<string, string> = {};
    if (this.options.scopes?.length) params.scope = this.options.scopes.join(' ');
    if (this.options.audience) {
      params.audience = this.options.audience;
      params.resource = this.options.audience;
    }
    const where = { agentUrl: displayUrl(server.token_endpoint ?? '') };
    let response: oauth.TokenEndpointResponse;
    try {
      const res = await oauth.clientCredentialsGrantRequest(
        server,
        client,
        oauth.ClientSecretBasic(secret),
        params,
        this.requestOptions(server.token_endpoint!) as oauth.ClientCredentialsGrantRequestOptions,
      );
      response = await oauth.processClientCredentialsResponse(server, client, res);
    } catch (err) {
      throw this.failure(err, where.agentUrl);
    }
    const lifetimeMs = (response.expires_in ?? DEFAULT_LIFETIME_S) * 1000;
    const margin = Math.min(MAX_RENEW_MARGIN_MS, lifetimeMs / 10);
    this.secrets.add(response.access_token);
    this.cached = { token: response.access_token, renewAt: (this.options.now ?? Date.now)() + lifetimeMs - margin };
    this.options.onToken?.();
    return response.access_token;
  }

  /** The token endpoint: configured, or read once from the discovery document. */
  private async authorizationServer(): Promise<oauth.AuthorizationServer> {
    if (this.server) return this.server;
    const endpoint = this.options.endpoint;
    if ('tokenUrl' in endpoint) {
      await this.allowed(endpoint.tokenUrl);
      this.server = { issuer: new URL(endpoint.tokenUrl).origin, token_endpoint: endpoint.tokenUrl };
      return this.server;
    }
    const issuer =
      'issuer' in endpoint
        ? endpoint.issuer
        : endpoint.discoveryUrl.endsWith(DISCOVERY_SUFFIX)
          ? endpoint.discoveryUrl.slice(0, -DISCOVERY_SUFFIX.length)
          : endpoint.discoveryUrl;
    const issuerUrl = new URL(issuer);
    try {
      await this.allowed(issuerUrl.href);
      const res = await oauth.discoveryRequest(issuerUrl, {
        algorithm: 'oidc',
        ...(this.requestOptions(issuerUrl.href) as oauth.DiscoveryRequestOptions),
      });
      const server = await oauth.processDiscoveryResponse(issuerUrl, res);
      if (!server.token_endpoint) throw new Error('the discovery document names no token_endpoint');
      // The token endpoint named by a trusted issuer is trusted as well; one named via the card must pass the policy.
      if (this.options.endpointFrom === 'card') await this.allowed(server.token_endpoint);
      this.server = server;
      return server;
    } catch (err) {
      if (err instanceof TokenRequestError) throw err;
      throw this.failure(err, displayUrl(issuerUrl.href), 'OpenID Connect discovery');
    }
  }

  /** The policy's check; an endpoint named by the card must also be on a trusted origin (the client secret goes there). */
  private async allowed(url: string): Promise<void> {
    const policy = this.options.policy;
    if (!policy) return;
    const { credentials } = await policy.check(url, { operation: 'TokenRequest' });
    if (!credentials && this.options.endpointFrom === 'card') {
      throw new TokenRequestError({
        agentUrl: displayUrl(url),
        why: `the card names a token endpoint outside the agent's origins (${policy.origins.join(', ')}), and the client secret is not sent there; set "tokenUrl" or "issuer" in the agents file`,
        retryable: false,
      });
    }
  }

  /** oauth4webapi's request options: our fetch, plain http where the policy allowed it, the timeout. */
  private requestOptions(url: string): object {
    const insecure =
      url.startsWith('http:') && (isLoopbackHost(new URL(url).hostname) || this.options.policy !== undefined);
    return {
      [oauth.customFetch]: (target: string, init: FetchInit) => this.boundedFetch(target, init),
      ...(insecure ? { [oauth.allowInsecureRequests]: true } : {}),
      ...(this.options.timeoutMs !== undefined ? { signal: AbortSignal.timeout(this.options.timeoutMs) } : {}),
    };
  }

  /** undici's fetch over the agent's dispatcher (its TLS settings), the body read within a cap. */
  private async boundedFetch(url: string, init: FetchInit): Promise<Response> {
    if (this.options.policy) await this.options.policy.check(url, { operation: 'TokenRequest' });
    // The Basic header oauth4webapi built (base64 of the form-encoded id:secret) is a secret too:
    // an endpoint that echoes it would otherwise hand out the decodable pair.
    const authorization = new Headers(init.headers).get('authorization');
    if (authorization) for (const secret of secretsOf({ headers: { authorization } })) this.secrets.add(secret);
    const res = await undiciFetch(url, {
      method: init.method,
      headers: init.headers,
      body: init.body ?? null,
      redirect: 'manual',
      ...(init.signal ? { signal: init.signal } : {}),
      ...(this.options.dispatcher ? { dispatcher: this.options.dispatcher } : {}),
    });
    const chunks: Uint8Array[] = [];
    let total = 0;
    for await (const chunk of res.body ?? []) {
      total += chunk.byteLength;
      if (total > MAX_TOKEN_RESPONSE_BYTES) {
        await res.body?.cancel();
        throw new Error(`the response is larger than ${MAX_TOKEN_RESPONSE_BYTES} bytes`);
      }
      chunks.push(chunk);
    }
    return new Response(Buffer.concat(chunks), { status: res.status, headers: Object.fromEntries(res.headers) });
  }

  /** A typed, scrubbed failure: OAuth client errors are final, server and network trouble retryable. */
  private failure(err: unknown, agentUrl: string | undefined, what = 'the token request'): TokenRequestError {
    const secrets = [...this.secrets];
    const scrub = (text: string) => scrubSecrets(text, secrets).slice(0, 200);
    const at = agentUrl !== undefined ? { agentUrl } : {};
    if (err instanceof oauth.WWWAuthenticateChallengeError) {
      // A 401 with a challenge: the client's authentication was refused (RFC 6749 §5.2 invalid_client).
      const error = err.cause[0]?.parameters.error ?? 'invalid_client';
      return new TokenRequestError({
        ...at,
        why: `the authorization server answered HTTP ${err.status} ${scrub(error)}`,
        oauthError: scrub(error),
        retryable: err.status >= 500,
      });
    }
    if (err instanceof oauth.ResponseBodyError) {
      const description = err.error_description ? ` (${scrub(err.error_description)})` : '';
      return new TokenRequestError({
        ...at,
        why: `the authorization server answered HTTP ${err.status} ${scrub(err.error)}${description}`,
        oauthError: scrub(err.error),
        retryable: err.status >= 500 || !CLIENT_ERRORS.has(err.error),
      });
    }
    const message = err instanceof Error ? scrub(err.message) : 'unknown error';
    const network = err instanceof TypeError || (err as { name?: string })?.name === 'TimeoutError';
    return new TokenRequestError({ ...at, why: `${what} failed: ${message}`, retryable: network });
  }
}
