/**
 * What a sample agent can demand of its callers, for the authentication tests and as an example
 * of a protected agent: OAuth 2.0 access tokens (JWTs checked against the issuer's JWKS with
 * `jose`), a client certificate (HTTPS with mutual TLS), and a card that says so, signed with the
 * SDK's own `generateAgentCardSignature`, with an authenticated extended card.
 */
import { createServer as createHttpsServer } from 'node:https';
import { createServer as createHttpServer, type Server } from 'node:http';
import type { AgentCard, AgentCardSignatureGenerator } from '@a2a-js/sdk';
import type { RequestHandler } from 'express';
import { createRemoteJWKSet, jwtVerify } from 'jose';

export interface AgentSecurityOptions {
  /** Serve HTTPS with this certificate and key (PEM); with `clientCa`, only to clients holding a certificate it signed. */
  tls?: { cert: string; key: string; clientCa?: string };
  /** Require `Authorization: Bearer <JWT>` issued by `issuer` (keys from its JWKS) on every A2A call. */
  oauth?: { issuer: string; jwksUrl: string; audience?: string };
  /** Changes the card before it is served: security schemes and requirements, `extendedAgentCard`. */
  card?: (card: AgentCard) => AgentCard;
  /** Signs the card (public and extended) as it is served, e.g. the SDK's `generateAgentCardSignature`. */
  signCard?: AgentCardSignatureGenerator;
  /** The card shown to authenticated callers (GetExtendedAgentCard); it needs `capabilities.extendedAgentCard`. */
  extendedCard?: (card: AgentCard) => AgentCard;
}

/** An HTTP or HTTPS server as the options ask (mutual TLS verifies the client certificate before any byte of HTTP). */
export function createAgentServer(security: AgentSecurityOptions | undefined): { server: Server; scheme: string } {
  const tls = security?.tls;
  if (!tls) return { server: createHttpServer(), scheme: 'http' };
  const mutual = tls.clientCa ? { ca: tls.clientCa, requestCert: true, rejectUnauthorized: true } : {};
  return {
    server: createHttpsServer({ cert: tls.cert, key: tls.key, ...mutual }) as unknown as Server,
    scheme: 'https',
  };
}

/** 401 with `WWW-Authenticate: Bearer error="invalid_token"` unless the call carries a valid access token. */
export function requireAccessToken(oauth: NonNullable<AgentSecurityOptions['oauth']>): RequestHandler {
  const keys = createRemoteJWKSet(new URL(oauth.jwksUrl));
  return (req, res, next) => {
    const header = req.headers.authorization ?? '';
    const token = header.startsWith('Bearer ') ? header.slice('Bearer '.length) : '';
    const refuse = (error: string) =>
      res
        .status(401)
        .set('WWW-Authenticate', `Bearer error="${error}"`)
        .json({ error: { code: 401, status: 'UNAUTHENTICATED', message: 'A valid access token is required.' } });
    if (!token) return void refuse('invalid_request');
    // A second of clock tolerance, as resource servers usually allow: `exp` counts whole seconds.
    const checks = { issuer: oauth.issuer, clockTolerance: 1, ...(oauth.audience ? { audience: oauth.audience } : {}) };
    jwtVerify(token, keys, checks).then(
      () => next(),
      () => refuse('invalid_token'),
    );
  };
}
