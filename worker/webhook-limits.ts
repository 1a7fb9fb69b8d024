/**
 * The receiver's limits: how many connections it holds and for how long, and how many requests
 * it answers a second, in all and per source. A source is a sender's address (an IPv6 sender by
 * its /64: one host has a whole prefix to choose from). Past a request limit the answer is 429
 * with `Retry-After`; the limiters' state is bounded (an LRU of sources), so a sender cannot grow
 * it by using many addresses, only reset its own bucket (the global one still holds).
 */
import { readFileSync } from 'node:fs';
import ipaddr from 'ipaddr.js';
import { LRUCache } from 'lru-cache';

export interface ReceiverLimits {
  /** Requests answered a second, in all (past it: 429); 0: no limit. @default 1000 */
  requestsPerSecond: number;
  /** Requests answered a second per source address (past it: 429); 0: no limit. @default 200 */
  requestsPerSecondPerSource: number;
  /** The shortest time between two `taskUpdated` signals to one delegation's push config. @default 1000 */
  signalIntervalMs: number;
  /** Open connections at once; more are closed as they arrive. @default a quarter of the open-file limit, at most 1024 */
  maxConnections: number;
  /** Open connections at once from one source. @default 64 */
  maxConnectionsPerSource: number;
  /** A request's headers must be in within this time. @default 5000 */
  headersTimeoutMs: number;
  /** A whole request (headers and body) must be in within this time. @default 10000 */
  requestTimeoutMs: number;
  /** A connection with no request in flight and no bytes moving is closed after this time. @default 5000 */
  idleTimeoutMs: number;
}

/** The most connections the receiver holds by default, whatever the open-file limit allows. */
const MAX_DEFAULT_CONNECTIONS = 1024;

/**
 * The default connection cap: a quarter of the process's open-file limit (at most 1024), so the
 * rest stays free for the worker's own calls (Temporal, agents, files) whatever senders do.
 */
export function defaultMaxConnections(openFiles = openFileLimit()): number {
  if (openFiles === undefined) return MAX_DEFAULT_CONNECTIONS;
  return Math.max(16, Math.min(MAX_DEFAULT_CONNECTIONS, Math.floor(openFiles / 4)));
}

export function defaultReceiverLimits(): ReceiverLimits {
  return {
    requestsPerSecond: 1000,
    requestsPerSecondPerSource: 200,
    signalIntervalMs: 1000,
    maxConnections: defaultMaxConnections(),
    maxConnectionsPerSource: 64,
    headersTimeoutMs: 5000,
    requestTimeoutMs: 10_000,
    idleTimeoutMs: 5000,
  };
}

/** The soft limit on open files of this process (Linux: /proc/self/limits), or undefined when it cannot be read or is unlimited. */
export function openFileLimit(limits?: string): number | undefined {
  let text = limits;
  try {
    text ??= readFileSync('/proc/self/limits', 'utf8');
  } catch {
    return undefined;
  }
  const soft = /^Max open files\s+(\d+)\s/m.exec(text)?.[1];
  return soft === undefined ? undefined : Number(soft);
}

/** The key a sender is counted under: its IPv4 address, or the /64 prefix of its IPv6 address. */
export function sourceKey(address: string | undefined): string {
  if (!address) return '?';
  try {
    const parsed = ipaddr.process(address); // an IPv4-mapped IPv6 address becomes IPv4
    if (parsed.kind() === 'ipv4') return parsed.toString();
    const parts = (parsed as ipaddr.IPv6).parts.slice(0, 4);
    return `${parts.map((p) => p.toString(16)).join(':')}::/64`;
  } catch {
    return address;
  }
}

/** A token bucket: `rate` tokens a second, at most `burst` saved up. Pure: the caller passes the clock. */
export class TokenBucket {
  private tokens: number;
  private last: number;

  constructor(
    private readonly rate: number,
    private readonly burst: number,
    now: number,
  ) {
    this.tokens = burst;
    this.last = now;
  }

  /** Takes a token at `now` (ms): 0 when there was one, else how many ms until the next one. */
  take(now: number): number {
    this.tokens = Math.min(this.burst, this.tokens + (Math.max(0, now - this.last) * this.rate) / 1000);
    this.last = now;
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return 0;
    }
    return Math.ceil(((1 - this.tokens) * 1000) / this.rate);
  }
}

/** Which limit refused a request, and when to try again. */
export interface LimitedRequest {
  limit: 'source' | 'global';
  retryAfterMs: number;
}

/** The most sources whose buckets are kept (the least recently seen are forgotten first). */
const MAX_SOURCES = 10_000;

/**
 * The request limits, global and per source, each a token bucket whose burst is two seconds'
 * worth. A request is counted against its source first: what a flooding source is refused does
 * not use up the global budget other senders share.
 */
export class RequestLimiter {
  private readonly global?: TokenBucket;
  private readonly sources?: LRUCache<string, TokenBucket>;

  constructor(
    private readonly limits: Pick<ReceiverLimits, 'requestsPerSecond' | 'requestsPerSecondPerSource'>,
    private readonly now: () => number = () => performance.now(),
  ) {
    if (limits.requestsPerSecond > 0)
      this.global = new TokenBucket(limits.requestsPerSecond, 2 * limits.requestsPerSecond, now());
    if (limits.requestsPerSecondPerSource > 0) this.sources = new LRUCache({ max: MAX_SOURCES });
  }

  /** Counts a request from `source`; undefined when it may be answered, else the limit it is over. */
  admit(source: string): LimitedRequest | undefined {
    const now = this.now();
    if (this.sources) {
      let bucket = this.sources.get(source);
      if (!bucket) {
        const rate = this.limits.requestsPerSecondPerSource;
        bucket = new TokenBucket(rate, 2 * rate, now);
        this.sources.set(source, bucket);
      }
      const wait = bucket.take(now);
      if (wait > 0) return { limit: 'source', retryAfterMs: wait };
    }
    const wait = this.global?.take(now) ?? 0;
    return wait > 0 ? { limit: 'global', retryAfterMs: wait } : undefined;
  }
}
