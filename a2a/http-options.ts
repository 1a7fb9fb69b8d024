import type { HttpClientOptions } from './http.js';

/** The {@link HttpClientOptions} among a client's (or a card fetch's) options, undefined ones left out. */
export function httpOptions(options: HttpClientOptions): HttpClientOptions {
  const { dispatcher, auth, userAgent, limits, policy, authScheme, observer } = options;
  return Object.fromEntries(
    Object.entries({ dispatcher, auth, userAgent, limits, policy, authScheme, observer }).filter(
      ([, v]) => v !== undefined,
    ),
  ) as HttpClientOptions;
}
