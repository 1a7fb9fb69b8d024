/**
 * Per-agent credentials, resolved for every request (so rotated tokens are picked up) and
 * sent on every request, as A2A requires (§7, §13). Credentials live in headers or the query
 * string, never in the payload, and this client never logs them or puts them in an error
 * message: URLs in messages are printed without their query string, and anything the agent
 * echoes back is scrubbed of the values resolved here.
 */

/** What to add to a request: extra headers and/or query parameters. */
export interface AuthMaterial {
  headers?: Record<string, string>;
  query?: Record<string, string>;
}

/** Called before every request; return `undefined` to send no credentials. */
export type AuthResolver = () => AuthMaterial | undefined | Promise<AuthMaterial | undefined>;

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

/** The secret strings inside resolved credentials, for scrubbing text the agent sends back. */
export function secretsOf(material: AuthMaterial): string[] {
  const secrets = new Set<string>();
  for (const value of [...Object.values(material.headers ?? {}), ...Object.values(material.query ?? {})]) {
    if (value.length < 4) continue;
    secrets.add(value);
    // "Bearer abc" → also "abc"; "Basic …" likewise.
    const space = value.indexOf(' ');
    if (space > 0 && value.length - space > 4) secrets.add(value.slice(space + 1));
  }
  return [...secrets];
}

/** Replaces every occurrence of a secret in `text` with `[redacted]`. */
export function scrubSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) out = out.split(secret).join('[redacted]');
  return out;
}
