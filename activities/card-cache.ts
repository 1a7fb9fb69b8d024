/**
 * Agent cards per worker process: a fresh card (within the agent's `Cache-Control: max-age`)
 * is served from memory, a stale one is revalidated with `If-None-Match`/`If-Modified-Since`,
 * so a busy worker does not fetch the same card for every delegation.
 */
import type { Dispatcher } from 'undici';
import {
  fetchAgentCard,
  type A2ALimits,
  type FetchAgentCardOptions,
  type FetchedAgentCard,
  type HttpObserver,
} from '../a2a/index.js';

interface Entry {
  fetched: FetchedAgentCard;
  expiresAt: number;
}

export class AgentCardCache {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly options: {
      dispatcher?: Dispatcher;
      /** Caps on what is read (the card: `maxCardBytes`). */
      limits?: Partial<A2ALimits>;
      /** Sees each card request (trace context, when tracing). */
      observer?: HttpObserver;
      now?: () => number;
      /** @default 60 */ defaultMaxAgeSeconds?: number;
    } = {},
  ) {}

  /** The card at `url`; `request` may bring the agent's own dispatcher (TLS) and outbound policy. */
  async get(
    url: string,
    request: Pick<FetchAgentCardOptions, 'signal' | 'auth' | 'timeoutMs' | 'dispatcher' | 'policy'>,
  ): Promise<FetchedAgentCard> {
    const now = this.options.now ?? Date.now;
    const cached = this.entries.get(url);
    if (cached && cached.expiresAt > now()) return cached.fetched;
    const fetched = await fetchAgentCard(url, {
      ...request,
      dispatcher: request.dispatcher ?? this.options.dispatcher,
      limits: this.options.limits,
      observer: this.options.observer,
      previous: cached?.fetched,
    });
    const maxAge = fetched.maxAgeSeconds ?? this.options.defaultMaxAgeSeconds ?? 60;
    this.entries.set(url, { fetched, expiresAt: now() + maxAge * 1000 });
    return fetched;
  }
}
