/**
 * The client's security verdicts, as {@link A2AError}s: requests it refused to send (the outbound
 * policy, an interface on another origin, security requirements the agents file cannot meet),
 * cards it refused to trust (signatures), and credentials it could not obtain or present (OAuth
 * tokens, mutual TLS). None is retryable unless it says so.
 */
import { clip, keep, where } from './error-text.js';
import { A2AError, type ErrorContext } from './errors.js';

/** The card names an interface on an origin that is neither the card's nor allow-listed (or not http(s) at all). */
export class InterfaceOriginMismatchError extends A2AError {
  declare readonly interfaceOrigin: string;
  declare readonly cardOrigin: string;
  constructor(init: ErrorContext & { interfaceOrigin: string; cardOrigin: string }) {
    const { interfaceOrigin, cardOrigin } = init;
    super(
      `The agent card at ${clip(cardOrigin, 200)} names its interface at ${clip(interfaceOrigin, 200)}, another origin, so nothing was sent there; if that origin really belongs to the agent, add it to "allowOrigins" of the agent's agents-file entry.`,
      { ...init, code: 'INTERFACE_ORIGIN_MISMATCH', retryable: false },
    );
    keep(this, { interfaceOrigin, cardOrigin });
  }
}

/** The outbound policy refused a request before it was sent (scheme, user info, plain http, address). */
export class OutboundRefusedError extends A2AError {
  declare readonly why: string;
  constructor(init: ErrorContext & { why: string }) {
    super(`${where(init)} was not sent because ${init.why}.`, { ...init, code: 'OUTBOUND_REFUSED', retryable: false });
    keep(this, { why: init.why });
  }
}

/** The card requires security schemes that the agents-file entry does not provide; nothing was sent. */
export class SecurityRequirementsUnmetError extends A2AError {
  declare readonly required: string;
  declare readonly provided: string;
  constructor(init: ErrorContext & { required: string; provided: string }) {
    const { required, provided } = init;
    super(
      `The agent card${init.agentUrl ? ` at ${init.agentUrl}` : ''} requires ${clip(required, 300)}, but the agents file provides ${clip(provided, 200)}, so nothing was sent; configure a matching "auth" on the agent's entry.`,
      { ...init, code: 'SECURITY_REQUIREMENTS_UNMET', retryable: false },
    );
    keep(this, { required, provided });
  }
}

/** The card's signature is missing (where one is required) or does not verify. */
export class CardSignatureError extends A2AError {
  declare readonly problem: 'missing' | 'invalid';
  constructor(init: ErrorContext & { problem: 'missing' | 'invalid'; why: string; cause?: unknown }) {
    const at = init.agentUrl ? ` at ${init.agentUrl}` : '';
    const card = init.operation === 'GetExtendedAgentCard' ? 'extended agent card of the agent' : 'agent card';
    const message =
      init.problem === 'missing'
        ? `The ${card}${at} is not signed, and its agents-file entry sets "requireSignedCard": true, so it was refused; ask the agent's operators to sign it (A2A §8.4).`
        : `The ${card}${at} carries a signature that does not verify (${clip(init.why, 200)}), so it was refused; check the key configured for the agent ("cardSigning") or ask its operators.`;
    super(message, {
      ...init,
      code: init.problem === 'missing' ? 'CARD_NOT_SIGNED' : 'CARD_SIGNATURE_INVALID',
      retryable: false,
    });
    keep(this, { problem: init.problem });
  }
}

/** The authorization server refused to issue a token (a revoked or wrong client), or answered with no usable token. */
export class TokenRequestError extends A2AError {
  declare readonly oauthError?: string;
  constructor(init: ErrorContext & { why: string; oauthError?: string; retryable: boolean; cause?: unknown }) {
    const advice = init.retryable
      ? 'retry later'
      : 'check the client id and secret configured for this agent, and whether the client is still registered';
    super(
      `The token request${init.agentUrl ? ` to ${init.agentUrl}` : ''} failed: ${clip(init.why, 300)}; ${advice}.`,
      {
        ...init,
        code: 'TOKEN_REQUEST_FAILED',
        retryable: init.retryable,
      },
    );
    keep(this, { oauthError: init.oauthError });
  }
}

/** The TLS handshake failed for a reason retrying cannot fix: an untrusted server certificate, or a refused client certificate. */
export class TlsHandshakeError extends A2AError {
  declare readonly systemCode: string;
  constructor(init: ErrorContext & { systemCode: string; clientCertificate: boolean; cause?: unknown }) {
    const why = init.clientCertificate
      ? 'the agent requires a client certificate for mutual TLS and did not accept ours (none was configured, or not one it trusts); set "tls.certFile" and "tls.keyFile" on its agents-file entry'
      : 'the agent\'s certificate is not trusted; set its CA bundle with "tls.caFile" on the agents-file entry (verification is never switched off)';
    super(`${where(init)} failed in the TLS handshake (${clip(init.systemCode, 60)}): ${why}.`, {
      ...init,
      code: 'TLS_HANDSHAKE_FAILED',
      retryable: false,
    });
    keep(this, { systemCode: init.systemCode });
  }
}
