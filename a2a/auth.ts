/**
 * Per-agent credentials, resolved for every request (so rotated tokens are picked up) and
 * sent on every request, as A2A requires (§7, §13). Credentials live in headers or the query
 * string, never in the payload, and this client never logs them or puts them in an error
 * message: URLs in messages are printed without their query string, and anything the agent
 * echoes back is scrubbed of the values resolved here.
 */
import { Buffer } from 'node:buffer';

/** What to add to a request: extra headers and/or query parameters. See [docs/configuration.md](../docs/configuration.md#agents-and-credentials). */
export interface AuthMaterial {
  /** Headers to add, e.g. `Authorization`. */
  headers?: Record<string, string>;
  /** Query parameters to add (an API key the card puts in the query). */
  query?: Record<string, string>;
}

/**
 * Called before every request; return `undefined` to send no credentials. A resolver whose
 * credentials can go stale early (an OAuth token) has `renew`: called when the agent answers 401
 * with `WWW-Authenticate: … error="invalid_token"`, it drops what it holds and says whether the
 * request is worth sending once more.
 * See [docs/configuration.md](../docs/configuration.md#agents-and-credentials).
 */
export type AuthResolver = (() => AuthMaterial | undefined | Promise<AuthMaterial | undefined>) & {
  /** Gets a fresh credential after the agent refused one; true when there is one to retry with. */
  renew?: () => boolean | Promise<boolean>;
};

/** `Authorization: Bearer <token>` (an `httpAuthSecurityScheme` with scheme `Bearer`). */
export function bearerAuth(token: string): AuthResolver {
  const material: AuthMaterial = { headers: { authorization: `Bearer ${token}` } };
  return () => material;
}

/**
 * An API key (an `apiKeySecurityScheme`): a header by default (`X-API-Key: <value>`), or a
 * query parameter (`?api_key=<value>`).
 */
export function apiKeyAuth(name: string, value: string, location: 'header' | 'query' = 'header'): AuthResolver {
  const material: AuthMaterial =
    location === 'header' ? { headers: { [name.toLowerCase()]: value } } : { query: { [name]: value } };
  return () => material;
}

/** Resolves the credentials for one request. */
export async function resolveAuth(resolver: AuthResolver | undefined): Promise<AuthMaterial> {
  if (!resolver) return {};
  return (await resolver()) ?? {};
}

/** Shorter values are not treated as secrets (scrubbing "ab" would shred every message). */
const MIN_SECRET_LENGTH = 4;

/** The secret strings inside resolved credentials, for scrubbing text the agent sends back. */
export function secretsOf(material: AuthMaterial): string[] {
  const secrets = new Set<string>();
  for (const value of [...Object.values(material.headers ?? {}), ...Object.values(material.query ?? {})]) {
    if (value.length < MIN_SECRET_LENGTH) continue;
    secrets.add(value);
    // "Bearer abc" → also "abc"; "Basic …" likewise, plus the decoded "user:password" and its password.
    const space = value.indexOf(' ');
    if (space > 0 && value.length - space > MIN_SECRET_LENGTH) {
      const credential = value.slice(space + 1);
      secrets.add(credential);
      if (value.slice(0, space).toLowerCase() === 'basic') {
        const decoded = Buffer.from(credential, 'base64').toString('utf8');
        const colon = decoded.indexOf(':');
        if (decoded.length >= MIN_SECRET_LENGTH) secrets.add(decoded);
        if (colon >= 0 && decoded.length - colon > MIN_SECRET_LENGTH) secrets.add(decoded.slice(colon + 1));
      }
    }
  }
  return [...secrets];
}

/** Query values shorter than this are taken for parameters (`?v=1`), not keys. */
const MIN_QUERY_SECRET_LENGTH = 8;

/** The password of a URL's user info and its longer query values (`https://u:pw@host/?key=…`): credentials too. */
export function urlSecrets(url: URL): string[] {
  const secrets = [...url.searchParams.values()].filter((v) => v.length >= MIN_QUERY_SECRET_LENGTH);
  if (url.password.length >= MIN_SECRET_LENGTH) {
    secrets.push(url.password);
    try {
      secrets.push(decodeURIComponent(url.password));
    } catch {
      // Not validly percent-encoded: the raw form is scrubbed anyway.
    }
  }
  return secrets;
}

/** Fewer whole bytes than this are not matched in base64 (12 characters: no false match in a file part). */
const MIN_BASE64_CORE_BYTES = 9;

/**
 * The base64 that any text containing `text` encodes to contains one of these, wherever `text`
 * starts: `text` from its 1st, 2nd or 3rd byte, cut to whole 3-byte groups, in the standard and
 * the URL-safe alphabet. So `Bearer <token>`, `<id>:<secret>` and their URL-encoded forms, base64
 * encoded (a Basic header, a JWT-like echo), are recognised by the secret inside them alone.
 */
function base64Cores(text: string): string[] {
  const bytes = Buffer.from(text, 'utf8');
  const cores: string[] = [];
  for (let skip = 0; skip < 3; skip++) {
    const whole = Math.floor((bytes.length - skip) / 3) * 3;
    if (whole < MIN_BASE64_CORE_BYTES) continue;
    const group = bytes.subarray(skip, skip + whole);
    cores.push(group.toString('base64'), group.toString('base64url'));
  }
  return cores;
}

/**
 * The forms a secret can take once echoed: as sent, percent-encoded, form-encoded, JSON-escaped,
 * and each of those inside base64 (see {@link base64Cores}).
 */
function variants(secret: string): string[] {
  const textual = new Set([secret, encodeURIComponent(secret), new URLSearchParams({ s: secret }).toString().slice(2)]);
  textual.add(JSON.stringify(secret).slice(1, -1));
  const out = new Set(textual);
  for (const form of textual) for (const core of base64Cores(form)) out.add(core);
  return [...out];
}

/**
 * Finds and removes a set of secrets in every echoed form ({@link variants}); built once for
 * many texts (the strings of one response). Plain substring search: linear, no regex.
 */
export class SecretScrubber {
  /** Longest form first, so a form containing another is replaced whole. */
  private readonly forms: readonly string[];
  /** The longest echoed form of any secret: how far past a cut a secret can reach. */
  readonly longest: number;

  constructor(secrets: readonly string[]) {
    this.forms = [...new Set(secrets.flatMap(variants))].sort((a, b) => b.length - a.length);
    this.longest = this.forms[0]?.length ?? 0;
  }

  get empty(): boolean {
    return this.forms.length === 0;
  }

  /** True when `text` holds any form of any secret. */
  contains(text: string): boolean {
    for (const form of this.forms) if (text.includes(form)) return true;
    return false;
  }

  /** `text` with every form of every secret replaced by `[redacted]`. */
  scrub(text: string): string {
    if (text === '') return text;
    let out = text;
    for (const form of this.forms) if (out.includes(form)) out = out.split(form).join('[redacted]');
    return out;
  }
}

/** The scrubbers of the last few secret lists (error texts scrub with the same list again and again). */
const recent = new Map<string, SecretScrubber>();

/** The scrubber of `secrets`, built once for the same list (a stream's events, one error after another). */
export function scrubberFor(secrets: readonly string[]): SecretScrubber {
  const key = secrets.join('\u0000');
  let scrubber = recent.get(key);
  if (!scrubber) {
    scrubber = new SecretScrubber(secrets);
    if (recent.size >= 16) recent.delete(recent.keys().next().value!);
    recent.set(key, scrubber);
  }
  return scrubber;
}

/** Replaces every occurrence of a secret (in any of its echoed forms) in `text` with `[redacted]`. */
export function scrubSecrets(text: string, secrets: readonly string[]): string {
  if (secrets.length === 0 || text === '') return text;
  return scrubberFor(secrets).scrub(text);
}

/** The longest echoed form of any secret: how far past a cut a secret can reach. */
export function longestSecretForm(secrets: readonly string[]): number {
  return secrets.length === 0 ? 0 : scrubberFor(secrets).longest;
}
