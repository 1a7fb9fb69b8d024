/**
 * A real OAuth 2.0 / OpenID Connect server for the tests: `oidc-provider` (a certified
 * implementation, from npm) on 127.0.0.1, issuing client-credentials access tokens as JWTs with a
 * short lifetime, its clients in a store the test can revoke them from.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair } from 'jose';
import Provider, { type Adapter, type AdapterPayload } from 'oidc-provider';

export interface OAuthServer {
  issuer: string;
  jwksUrl: string;
  tokenUrl: string;
  /** The audience (resource) every token is issued for. */
  audience: string;
  /** Access tokens issued so far, per client id. */
  issued: Map<string, number>;
  /** Called with each access token issued (tests look for it where it must not be). */
  onToken?: (token: string) => void;
  addClient(clientId: string, clientSecret: string): void;
  /** Deletes the client: its next token request is refused (`invalid_client`). */
  revokeClient(clientId: string): void;
  close(): Promise<void>;
}

/** Payloads by model name and id: what oidc-provider persists (here: clients; JWT access tokens are not stored). */
function memoryAdapter(store: Map<string, AdapterPayload>) {
  return class MemoryAdapter implements Adapter {
    constructor(private readonly model: string) {}
    private key(id: string) {
      return `${this.model}:${id}`;
    }
    async upsert(id: string, payload: AdapterPayload) {
      store.set(this.key(id), payload);
    }
    async find(id: string) {
      return store.get(this.key(id));
    }
    async findByUserCode() {
      return undefined;
    }
    async findByUid() {
      return undefined;
    }
    async consume(id: string) {
      const payload = store.get(this.key(id));
      if (payload) payload.consumed = Math.floor(Date.now() / 1000);
    }
    async destroy(id: string) {
      store.delete(this.key(id));
    }
    async revokeByGrantId() {}
  };
}

interface GrantContext {
  oidc: { client?: { clientId: string } };
  body?: { access_token?: string };
}

export async function startOAuthServer(options: { accessTokenTtlSeconds: number }): Promise<OAuthServer> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const audience = 'urn:a2a-temporal:agents';
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const signingKey = { ...(await exportJWK(privateKey)), kid: 'test-signing-key', alg: 'RS256', use: 'sig' };
  const store = new Map<string, AdapterPayload>();
  const provider = new Provider(issuer, {
    adapter: memoryAdapter(store),
    jwks: { keys: [signingKey] },
    features: {
      clientCredentials: { enabled: true },
      devInteractions: { enabled: false },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => audience,
        useGrantedResource: () => true,
        getResourceServerInfo: () => ({
          scope: 'a2a',
          audience,
          accessTokenTTL: options.accessTokenTtlSeconds,
          accessTokenFormat: 'jwt',
          jwt: { sign: { alg: 'RS256' } },
        }),
      },
    },
  });
  const issued = new Map<string, number>();
  // The typings list only some of the provider's events; `grant.success` follows every issued token.
  (provider as unknown as { on(event: string, listener: (ctx: GrantContext) => void): void }).on(
    'grant.success',
    (ctx) => {
      const id = ctx.oidc.client?.clientId ?? '?';
      issued.set(id, (issued.get(id) ?? 0) + 1);
      if (ctx.body?.access_token) running.onToken?.(ctx.body.access_token);
    },
  );
  const callback = provider.callback();
  server.on('request', (req, res) => void callback(req, res));
  const running: OAuthServer = {
    issuer,
    jwksUrl: `${issuer}/jwks`,
    tokenUrl: `${issuer}/token`,
    audience,
    issued,
    addClient(clientId, clientSecret) {
      store.set(`Client:${clientId}`, {
        client_id: clientId,
        client_secret: clientSecret,
        grant_types: ['client_credentials'],
        redirect_uris: [],
        response_types: [],
        token_endpoint_auth_method: 'client_secret_basic',
      });
    },
    revokeClient(clientId) {
      store.delete(`Client:${clientId}`);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
  return running;
}
