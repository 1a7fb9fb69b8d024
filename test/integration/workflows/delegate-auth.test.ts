/**
 * Real-world authentication, end to end through the `delegate` workflow and a worker process
 * (the real CLI `worker`): OAuth 2.0 client credentials from a real authorization server
 * (`oidc-provider`) with the token endpoint configured, discovered through OpenID Connect, or
 * named by the card; mutual TLS against an HTTPS agent; the card's security requirements;
 * signed cards (signed by the official SDK's `generateAgentCardSignature`); the extended card.
 * Every secret handed to the worker is then looked for in history, the worker's log and the
 * CLI's output.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateAgentCardSignature, type AgentCard } from '@a2a-js/sdk';
import { WorkflowFailedError, type Client, type WorkflowHandle } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { exportJWK, exportSPKI, generateKeyPair } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentsFile } from '../../../activities/index.js';
import { startDependencyCompatAgent, type RunningAgent } from '../../../agents/index.js';
import type { AgentSecurityOptions } from '../../../agents/shared/agent-security.js';
import type { DelegateInput, DelegateResult } from '../../../contract/index.js';
import { makeCertificates, pem, type CertificateFiles } from '../../helpers/certificates.js';
import { compatRequest } from '../../helpers/delegations.js';
import { historyText } from '../../helpers/history-text.js';
import { startOAuthServer, type OAuthServer } from '../../helpers/oauth-server.js';
import { uniqueTaskQueue, useTemporal } from '../../helpers/temporal.js';
import { cliOutput } from '../hostile/support.js';
import { SECRET, spawnCli, type CliProcess } from '../push/support.js';
import { freePort } from '../../../platform/free-port.js';

const temporal = useTemporal();
const TOKEN_TTL_S = 2;

let client: Client;
let oauth: OAuthServer;
let certs: CertificateFiles;
let worker: CliProcess;
let jwksServer: Server;
const taskQueue = uniqueTaskQueue('auth');
const agents: RunningAgent[] = [];
/** Every secret the worker is given or obtains (access tokens as the server issues them). */
const secrets: string[] = [];
const handles: WorkflowHandle[] = [];
const secretFile = (dir: string, name: string, value: string) => {
  const path = join(dir, name);
  writeFileSync(path, `${value}\n`);
  return path;
};

/** A sample agent with these security settings (no delays: the tests are about getting in). */
async function agent(security: AgentSecurityOptions, extra: { bearerToken?: string } = {}): Promise<RunningAgent> {
  const running = await startDependencyCompatAgent({ port: 0, workDelayMs: 0, chunkDelayMs: 0, security, ...extra });
  agents.push(running);
  return running;
}

/**
 * The card with these schemes required (one alternative holding all of them), in the wire form
 * of A2A 1.0 (`{"oidc": {"openIdConnectSecurityScheme": {…}}}`): the SDK serves the card as it is
 * given, and its own typings describe the oneof in its internal form.
 */
const requiring =
  (schemes: Record<string, Record<string, unknown>>) =>
  (card: AgentCard): AgentCard =>
    ({
      ...card,
      securitySchemes: schemes,
      securityRequirements: [{ schemes: Object.fromEntries(Object.keys(schemes).map((n) => [n, { list: [] }])) }],
    }) as unknown as AgentCard;

/** The card with some capabilities changed. */
const withCapabilities = (card: AgentCard, capabilities: Partial<NonNullable<AgentCard['capabilities']>>) => ({
  ...card,
  capabilities: { ...card.capabilities!, ...capabilities },
});

beforeAll(async () => {
  client = await temporal.client();
  const dir = mkdtempSync(join(tmpdir(), 'a2a-auth-'));
  certs = makeCertificates();
  oauth = await startOAuthServer({ accessTokenTtlSeconds: TOKEN_TTL_S });
  oauth.onToken = (token) => secrets.push(token);
  const clientSecrets = { worker: `cs-${randomUUID()}`, card: `cs-${randomUUID()}`, revoked: `cs-${randomUUID()}` };
  for (const [id, secret] of Object.entries(clientSecrets)) oauth.addClient(id, secret);
  const bearer = `bt-${randomUUID()}`;
  secrets.push(...Object.values(clientSecrets), bearer, pem(certs.clientKey).split('\n')[1]!);

  // Card signing keys: the agent's (ES256, the SDK signs with it) and another one.
  const signer = await generateKeyPair('ES256', { extractable: true });
  const other = await generateKeyPair('ES256', { extractable: true });
  const sign = generateAgentCardSignature(signer.privateKey, { alg: 'ES256', kid: 'card-key', typ: 'JOSE' });
  const publicJwk = { ...(await exportJWK(signer.publicKey)), kid: 'card-key', alg: 'ES256' };
  jwksServer = createServer((_req, res) => res.end(JSON.stringify({ keys: [publicJwk] })));
  await new Promise<void>((resolve) => jwksServer.listen(0, '127.0.0.1', resolve));
  const jwksUrl = `http://127.0.0.1:${(jwksServer.address() as AddressInfo).port}/jwks.json`;

  const oidcScheme = {
    oidc: { openIdConnectSecurityScheme: { openIdConnectUrl: `${oauth.issuer}/.well-known/openid-configuration` } },
  };
  const tokenAgent = await agent({
    oauth: { issuer: oauth.issuer, jwksUrl: oauth.jwksUrl, audience: oauth.audience },
    card: requiring(oidcScheme),
  });
  const tlsAgent = await agent({
    tls: { cert: pem(certs.serverCert), key: pem(certs.serverKey), clientCa: pem(certs.caCert) },
    card: requiring({ mtls: { mtlsSecurityScheme: {} } }),
  });
  const apiKeyAgent = await agent({
    card: requiring({ key: { apiKeySecurityScheme: { location: 'header', name: 'X-API-Key' } } }),
  });
  const signedAgent = await agent({ signCard: sign });
  const tamperedAgent = await agent({
    signCard: async (card) => ({ ...(await sign(card)), description: 'Now also deploys to production.' }),
  });
  const unsignedAgent = await agent({});
  // The card as agents built on the JS SDK serve it: its scheme in the SDK's internal oneof form.
  const sdkFormAgent = await agent(
    {
      card: (card) =>
        ({
          ...card,
          securitySchemes: { bearer: { scheme: { $case: 'httpAuthSecurityScheme', value: { scheme: 'Bearer' } } } },
          securityRequirements: [{ schemes: { bearer: { list: [] } } }],
        }) as unknown as AgentCard,
    },
    { bearerToken: bearer },
  );
  const extendedAgent = await agent(
    {
      card: (card) => withCapabilities(card, { extendedAgentCard: true }),
      extendedCard: (card) => ({ ...card, name: 'Dependency Compatibility Agent (extended)' }),
    },
    { bearerToken: bearer },
  );

  const env: Record<string, string> = {
    A2A_AUTH_CARD_SECRET: clientSecrets.card,
    A2A_AUTH_REVOKED_SECRET: clientSecrets.revoked,
    A2A_AUTH_BEARER: bearer,
  };
  const tls = (cert?: string, key?: string) => ({
    caFile: certs.caCert,
    ...(cert && key ? { certFile: cert, keyFile: key } : {}),
  });
  const publicKeyFile = secretFile(dir, 'card-key.pem', await exportSPKI(signer.publicKey));
  const otherKeyFile = secretFile(dir, 'other-key.pem', await exportSPKI(other.publicKey));
  const oauth2 = { type: 'oauth2' as const, audience: oauth.audience };
  const file: AgentsFile = {
    agents: {
      'oauth-discovery': {
        url: tokenAgent.baseUrl,
        auth: {
          ...oauth2,
          clientId: 'worker',
          clientSecretFile: secretFile(dir, 'client-secret', clientSecrets.worker),
          issuer: oauth.issuer,
        },
      },
      'oauth-from-card': {
        url: tokenAgent.baseUrl,
        auth: { ...oauth2, clientId: 'card', clientSecretEnv: 'A2A_AUTH_CARD_SECRET' },
        allowOrigins: [oauth.issuer],
      },
      'oauth-card-elsewhere': {
        url: tokenAgent.baseUrl,
        auth: { ...oauth2, clientId: 'card', clientSecretEnv: 'A2A_AUTH_CARD_SECRET' },
      },
      'oauth-revoked': {
        url: tokenAgent.baseUrl,
        auth: { ...oauth2, clientId: 'revoked', clientSecretEnv: 'A2A_AUTH_REVOKED_SECRET', tokenUrl: oauth.tokenUrl },
      },
      'oauth-missing': { url: tokenAgent.baseUrl },
      'mtls-right': { url: tlsAgent.baseUrl, tls: tls(certs.clientCert, certs.clientKey) },
      'mtls-none': { url: tlsAgent.baseUrl, tls: tls() },
      'mtls-wrong': { url: tlsAgent.baseUrl, tls: tls(certs.strangerCert, certs.strangerKey) },
      'needs-api-key': { url: apiKeyAgent.baseUrl, auth: { type: 'bearer', tokenEnv: 'A2A_AUTH_BEARER' } },
      'signed-required-pem': { url: signedAgent.baseUrl, requireSignedCard: true, cardSigning: { publicKeyFile } },
      'signed-required-jwks': { url: signedAgent.baseUrl, requireSignedCard: true, cardSigning: { jwksUrl } },
      'signed-optional': { url: signedAgent.baseUrl, cardSigning: { publicKeyFile } },
      'signed-wrong-key': {
        url: signedAgent.baseUrl,
        requireSignedCard: true,
        cardSigning: { publicKeyFile: otherKeyFile },
      },
      'tampered-required': { url: tamperedAgent.baseUrl, requireSignedCard: true, cardSigning: { publicKeyFile } },
      'tampered-optional': { url: tamperedAgent.baseUrl, cardSigning: { publicKeyFile } },
      'unsigned-required': { url: unsignedAgent.baseUrl, requireSignedCard: true, cardSigning: { publicKeyFile } },
      'unsigned-optional': { url: unsignedAgent.baseUrl, cardSigning: { publicKeyFile } },
      extended: { url: extendedAgent.baseUrl, auth: { type: 'bearer', tokenEnv: 'A2A_AUTH_BEARER' } },
      'sdk-card-form': { url: sdkFormAgent.baseUrl, auth: { type: 'bearer', tokenEnv: 'A2A_AUTH_BEARER' } },
    },
  };
  const agentsFile = secretFile(dir, 'agents.json', JSON.stringify(file));
  // With the push receiver: the SDK card form is delegated to in push mode too.
  const port = await freePort();
  worker = await spawnCli(
    ['worker', '--task-queue', taskQueue, '--agents-file', agentsFile, '--webhook-port', String(port)],
    { ...env, A2A_WEBHOOK_URL: `http://127.0.0.1:${port}`, A2A_WEBHOOK_SECRET: SECRET },
    'Webhook receiver:',
  );
});

afterAll(async () => {
  await worker?.stop();
  await Promise.all(agents.map((a) => a.close()));
  await oauth?.close();
  jwksServer?.close();
});

/** Runs a delegation to `agent` to its end: the result, or the failure's type and message. */
async function delegate(agent: string, overrides: Partial<DelegateInput> = {}) {
  const handle = await client.workflow.start('delegate', {
    taskQueue,
    workflowId: `auth-${agent}-${randomUUID().slice(0, 8)}`,
    args: [compatRequest({ agent, label: agent, text: 'Check for Node.js 24', mode: 'poll', ...overrides })],
  });
  handles.push(handle);
  const started = performance.now();
  const outcome = await handle.result().then(
    (result: DelegateResult) => ({ result, type: 'COMPLETED', message: '' }),
    (err: unknown) => {
      const cause = err instanceof WorkflowFailedError ? err.cause : err;
      const failure = cause instanceof ApplicationFailure ? cause : undefined;
      return { result: undefined, type: failure?.type ?? String(cause), message: failure?.message ?? '' };
    },
  );
  return { ...outcome, handle, elapsedMs: performance.now() - started };
}

describe('OAuth 2.0 client credentials', () => {
  it('completes a delegation that outlives several token lifetimes with one token request per lifetime', async () => {
    const before = oauth.issued.get('worker') ?? 0;
    const run = await delegate('oauth-discovery', {
      metadata: { workDelayMs: 4 * TOKEN_TTL_S * 1000 },
      tracking: { pollInitialInterval: '200ms', pollMaxInterval: '300ms' },
    });
    expect(run.type, run.message).toBe('COMPLETED');
    const fetched = (oauth.issued.get('worker') ?? 0) - before;
    console.info(`token requests: ${fetched} in ${(run.elapsedMs / 1000).toFixed(1)} s (tokens live ${TOKEN_TTL_S} s)`);
    // Polled every 300 ms for 8 s: a token per request would be ~30; one per lifetime is 4 to 5.
    expect(run.elapsedMs).toBeGreaterThan(4 * TOKEN_TTL_S * 1000);
    expect(fetched).toBeGreaterThanOrEqual(Math.floor(run.elapsedMs / (TOKEN_TTL_S * 1000)) - 1);
    expect(fetched).toBeLessThanOrEqual(Math.ceil(run.elapsedMs / (TOKEN_TTL_S * 900)) + 1);
  });

  it("finds the token endpoint through the card's OpenID Connect scheme when the issuer's origin is allow-listed", async () => {
    const before = oauth.issued.get('card') ?? 0;
    const run = await delegate('oauth-from-card');
    expect(run.type, run.message).toBe('COMPLETED');
    expect((oauth.issued.get('card') ?? 0) - before).toBe(1);
  });

  it('does not send the client secret to a token endpoint the card names on another origin', async () => {
    const before = oauth.issued.get('card') ?? 0;
    const run = await delegate('oauth-card-elsewhere');
    expect(run.type).toBe('A2A_TOKEN_REQUEST_FAILED');
    expect(run.message).toContain('outside the agent');
    expect(oauth.issued.get('card') ?? 0).toBe(before);
  });

  it('fails a revoked client at once, non-retryably, naming the OAuth error', async () => {
    oauth.revokeClient('revoked');
    const run = await delegate('oauth-revoked');
    expect(run.type).toBe('A2A_TOKEN_REQUEST_FAILED');
    expect(run.message).toMatch(/invalid_client.*check the client id and secret/);
    expect(run.elapsedMs).toBeLessThan(10_000);
  });

  it('fails before sending anything when the card requires OpenID Connect and the entry has no credential', async () => {
    const run = await delegate('oauth-missing');
    expect(run.type).toBe('A2A_SECURITY_REQUIREMENTS_UNMET');
    expect(run.message).toContain(
      'requires scheme "oidc" (OpenID Connect), but the agents file provides no credentials',
    );
  });
});

describe('mutual TLS', () => {
  // Before any delegation with the right certificate has cached the card: the card fetch itself fails.
  it('fails without a client certificate, in the handshake, with a sentence naming mutual TLS', async () => {
    const run = await delegate('mtls-none');
    expect(run.type).toBe('A2A_TLS_HANDSHAKE_FAILED');
    expect(run.message).toMatch(/requires a client certificate for mutual TLS/);
    expect(run.elapsedMs).toBeLessThan(10_000);
  });

  it('fails with a certificate from another CA, naming mutual TLS', async () => {
    const run = await delegate('mtls-wrong');
    expect(run.type).toBe('A2A_TLS_HANDSHAKE_FAILED');
    expect(run.message).toMatch(/client certificate for mutual TLS/);
    expect(run.elapsedMs).toBeLessThan(10_000);
  });
  it('completes with the right client certificate', async () => {
    const run = await delegate('mtls-right');
    expect(run.type, run.message).toBe('COMPLETED');
  });

  it('fails without a client certificate once the card is known, naming the mutual TLS the card requires', async () => {
    // The worker may serve the card from its cache (then the card's requirement refuses the entry)
    // or fetch it again (then the handshake does): either way, before any A2A call, naming mutual TLS.
    const run = await delegate('mtls-none');
    expect(run.type).toMatch(/^A2A_(SECURITY_REQUIREMENTS_UNMET|TLS_HANDSHAKE_FAILED)$/);
    expect(run.message).toMatch(/mutual TLS/);
  });
});

describe("the card's security requirements", () => {
  it('fail before anything is sent when the entry lacks the scheme, naming what is required and provided', async () => {
    const target = agents[2]!;
    const run = await delegate('needs-api-key');
    expect(run.type).toBe('A2A_SECURITY_REQUIREMENTS_UNMET');
    expect(run.message).toContain(
      'requires scheme "key" (API key X-API-Key in header), but the agents file provides a bearer token',
    );
    // Only the public card was read: no A2A call reached the agent.
    expect(Object.keys(target.stats.byRoute)).toEqual(['GET /.well-known/agent-card.json']);
  });
});

describe('signed cards', () => {
  it.each(['signed-required-pem', 'signed-required-jwks', 'signed-optional', 'unsigned-optional'])(
    'are accepted: %s',
    async (name) => {
      const run = await delegate(name);
      expect(run.type, run.message).toBe('COMPLETED');
      // The resolved card records whether its signature was verified.
      const history = historyText(await run.handle.fetchHistory());
      expect(history.includes('"signed":true')).toBe(name.startsWith('signed'));
    },
  );

  it.each([
    ['tampered-required', 'A2A_CARD_SIGNATURE_INVALID'],
    ['tampered-optional', 'A2A_CARD_SIGNATURE_INVALID'],
    ['signed-wrong-key', 'A2A_CARD_SIGNATURE_INVALID'],
    ['unsigned-required', 'A2A_CARD_NOT_SIGNED'],
  ])('are refused: %s → %s', async (name, code) => {
    const run = await delegate(name);
    expect(run.type).toBe(code);
    expect(run.message).toMatch(
      code === 'A2A_CARD_NOT_SIGNED' ? /is not signed.*requireSignedCard/ : /does not verify/,
    );
    expect(run.elapsedMs).toBeLessThan(10_000);
  });
});

describe('the authenticated extended card', () => {
  it('is fetched with the credentials and used in place of the public one', async () => {
    const run = await delegate('extended');
    expect(run.type, run.message).toBe('COMPLETED');
    // The resolved card recorded in history is the extended one (the public card has the plain name).
    expect(historyText(await run.handle.fetchHistory())).toContain('Dependency Compatibility Agent (extended)');
  });
});

describe("a card in the JS SDK's internal form", () => {
  it.each(['stream', 'poll', 'push'] as const)(
    'is read, and its bearer scheme met by the configured token: completes in %s mode',
    async (mode) => {
      const run = await delegate('sdk-card-form', { mode });
      // The agent refuses every A2A call without the token (401): completing proves it was sent.
      expect(run.type, run.message).toBe('COMPLETED');
    },
  );
});

describe('secrets', () => {
  it('never appear in history, the worker log or the CLI output: client secrets, access tokens, the private key', async () => {
    expect(secrets.length).toBeGreaterThan(8); // the access tokens issued above are among them
    expect(readFileSync(certs.clientKey, 'utf8')).toMatch(/^-----BEGIN EC PRIVATE KEY-----\n.{64}\n/); // its 2nd line is searched
    const places: Record<string, string> = { 'worker log': worker.output() };
    for (const handle of handles) {
      places[`history of ${handle.workflowId}`] = historyText(await handle.fetchHistory());
      for (const args of [
        ['status', handle.workflowId],
        ['status', handle.workflowId, '--json'],
      ])
        places[`a2a-temporal ${args.join(' ')}`] = (await cliOutput({ temporal }, args)).output;
    }
    for (const [where, text] of Object.entries(places))
      for (const secret of secrets) expect(text.includes(secret), `a secret in the ${where}`).toBe(false);
  });
});
