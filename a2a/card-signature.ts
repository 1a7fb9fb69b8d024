/**
 * Signed agent cards (A2A 1.0 §8.4): each `signatures[]` entry is a detached JWS whose payload
 * is the card without `signatures` and without unset or default fields, canonicalized with JCS
 * (RFC 8785, the `canonicalize` package) — the form the official SDKs sign (they round-trip the
 * card through the 1.0 schema, so fields outside it are not covered; we take the validated card,
 * which has the same fields). Verified with `jose` against keys the operator configured (a JWKS
 * or one public key); a `jku` in the signature's header is never followed, since the card's
 * author would choose the key that verifies it. The algorithm must be named in the *protected*
 * header (an unprotected `alg` is the agent's to change); a JWKS whose keys all match a signature
 * without `kid` (a key rotation) has each of them tried.
 */
import canonicalizeModule from 'canonicalize';
import {
  createLocalJWKSet,
  flattenedVerify,
  type CryptoKey,
  type FlattenedJWSInput,
  type FlattenedVerifyGetKey,
  type JSONWebKeySet,
} from 'jose';
import type { KeyObject } from 'node:crypto';
import type { ErrorContext } from './errors.js';
import { CardSignatureError } from './security-errors.js';
import type { AgentCard } from './schemas/agent-card.js';
import { isRecord } from './json-record.js';

// The package is CommonJS (`module.exports = serialize`): its default import is the function.
const canonicalize = canonicalizeModule as unknown as (input: unknown) => string | undefined;

/** A key to verify with: one public key, or a key set searched by the signature's `kid`/`alg`. */
export type CardKey = KeyObject | { jwks: JSONWebKeySet };

export type CardSignatureVerdict = 'verified' | 'unsigned';

/** How many signatures are tried (a card may carry several, e.g. during a key rotation). */
const MAX_SIGNATURES = 8;

/**
 * Verifies the card's signatures with `key`: one that verifies is enough. An unsigned card is
 * `'unsigned'` (refused when `require` is set).
 *
 * @throws CardSignatureError (`A2A_CARD_NOT_SIGNED`, `A2A_CARD_SIGNATURE_INVALID`), not retryable.
 */
export async function verifyCardSignature(
  card: AgentCard,
  key: CardKey,
  options: ErrorContext & { require: boolean },
): Promise<CardSignatureVerdict> {
  const ctx: ErrorContext = { operation: options.operation ?? 'GetAgentCard' };
  if (options.agentUrl !== undefined) ctx.agentUrl = options.agentUrl;
  const signatures = (card.signatures ?? []).slice(0, MAX_SIGNATURES);
  if (signatures.length === 0) {
    if (options.require) throw new CardSignatureError({ ...ctx, problem: 'missing', why: 'no signatures' });
    return 'unsigned';
  }
  const { signatures: _omitted, ...unsigned } = card;
  const payload = Buffer.from(canonicalize(withoutDefaults(unsigned) ?? {}) ?? '', 'utf8').toString('base64url');
  const verifier: KeyObject | FlattenedVerifyGetKey = 'jwks' in key ? createLocalJWKSet(key.jwks) : key;
  let last = 'no signature could be read';
  for (const sig of signatures) {
    if (!protectsAlg(sig.protected)) {
      last = 'alg is not in the protected header';
      continue;
    }
    const jws: FlattenedJWSInput = {
      protected: sig.protected,
      signature: sig.signature,
      payload,
      ...(isRecord(sig.header) ? { header: sig.header } : {}),
    };
    try {
      await verifyWithEach(jws, verifier);
      return 'verified';
    } catch (err) {
      last = (err as { code?: string }).code ?? 'verification failed';
    }
  }
  throw new CardSignatureError({ ...ctx, problem: 'invalid', why: last });
}

/**
 * Verifies `jws` with the key, or with the JWKS key its header selects; when several keys of the
 * set match (no `kid`, as during a key rotation), with each of them in turn, as jose documents.
 */
async function verifyWithEach(jws: FlattenedJWSInput, verifier: KeyObject | FlattenedVerifyGetKey): Promise<void> {
  try {
    await flattenedVerify(jws, verifier as FlattenedVerifyGetKey);
  } catch (err) {
    if ((err as { code?: string }).code !== 'ERR_JWKS_MULTIPLE_MATCHING_KEYS') throw err;
    let failure: unknown = err;
    for await (const key of err as unknown as AsyncIterable<CryptoKey>) {
      try {
        await flattenedVerify(jws, key);
        return;
      } catch (next) {
        failure = next;
      }
    }
    throw failure;
  }
}

/** True when the protected header (base64url JSON) names the algorithm. */
function protectsAlg(encoded: string): boolean {
  try {
    const header: unknown = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8'));
    return isRecord(header) && typeof header.alg === 'string' && header.alg !== '';
  } catch {
    return false;
  }
}

/**
 * Booleans of the 1.0 proto without field presence: protobuf's JSON form leaves them out when
 * false. (The capabilities' booleans are `optional`, so an explicit `false` there is kept.)
 */
const PLAIN_BOOLEANS = new Set(['required', 'pkceRequired']);

/**
 * The value as the SDKs canonicalize it (protobuf JSON, then empty values removed): without
 * empty strings, nulls, lists and objects that are (or become) empty, and plain booleans that
 * are false. Depth is bounded by the card's nesting cap.
 */
function withoutDefaults(value: unknown, key = ''): unknown {
  if (value === '' || value === null || value === undefined) return undefined;
  if (value === false && PLAIN_BOOLEANS.has(key)) return undefined;
  if (Array.isArray(value)) {
    const items = value.map((v) => withoutDefaults(v)).filter((v) => v !== undefined);
    return items.length ? items : undefined;
  }
  if (isRecord(value)) {
    const entries = Object.entries(value)
      .map(([k, v]) => [k, withoutDefaults(v, k)] as const)
      .filter(([, v]) => v !== undefined);
    return entries.length ? Object.fromEntries(entries) : undefined;
  }
  return value;
}
