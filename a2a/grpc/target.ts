/**
 * Where a gRPC interface is. A card names it as `host:port` (A2A 1.0 §5: "an HTTPS URL, or
 * host:port for gRPC") or as an `http(s)://host:port` URL. We always turn it into a URL, so the
 * outbound policy judges it like any other request: `https://host:port` is gRPC over TLS,
 * `http://host:port` plain text (which the policy allows only to loopback or with
 * `allowInsecure`), and its origin is what the allow-list (`allowOrigins`) names.
 */
import { isLoopbackHost } from '../outbound-policy.js';

/**
 * The URL of a gRPC interface: an `http(s)://` URL is kept (its origin: gRPC has no path); a bare
 * `host:port` speaks the card's scheme when the card's URL is known (TLS for a card served over
 * https, plain text for one served over http), otherwise TLS unless the host is loopback. Text
 * that is neither is returned as is (the outbound policy refuses it as "not a valid URL").
 */
export function grpcInterfaceUrl(url: string, cardUrl?: string): string {
  if (/^https?:\/\//i.test(url)) {
    try {
      return new URL(url).origin;
    } catch {
      return url;
    }
  }
  let parsed: URL;
  try {
    parsed = new URL(`http://${url}`);
  } catch {
    return url;
  }
  // Exactly host:port: no user info, path, query or fragment.
  if (parsed.port === '' || `${parsed.host}` !== url.toLowerCase()) return url;
  const scheme = cardUrl ? schemeOf(cardUrl) : isLoopbackHost(parsed.hostname) ? 'http' : 'https';
  return `${scheme}://${parsed.host}`;
}

function schemeOf(cardUrl: string): 'http' | 'https' {
  return cardUrl.toLowerCase().startsWith('http://') ? 'http' : 'https';
}

/** The channel target of a gRPC interface URL (`host:port`, IPv6 in brackets) and whether it uses TLS. */
export function grpcTarget(url: URL): { target: string; tls: boolean } {
  const tls = url.protocol === 'https:';
  const port = url.port || (tls ? '443' : '80');
  return { target: `${url.hostname}:${port}`, tls };
}
