import { describe, expect, it } from 'vitest';
import {
  defaultMaxConnections,
  openFileLimit,
  RequestLimiter,
  sourceKey,
  TokenBucket,
} from '../../../worker/webhook-limits.js';

describe('a token bucket', () => {
  it('gives its burst at once, then its rate, and says how long to wait', () => {
    const bucket = new TokenBucket(10, 20, 0);
    for (let i = 0; i < 20; i += 1) expect(bucket.take(0)).toBe(0);
    expect(bucket.take(0)).toBe(100);
    expect(bucket.take(50)).toBe(50);
    expect(bucket.take(100)).toBe(0);
    // A long pause saves up no more than the burst.
    let taken = 0;
    while (bucket.take(60_000) === 0) taken += 1;
    expect(taken).toBe(20);
  });
});

describe('the request limiter', () => {
  it('refuses a source past its rate without using up what other sources share', () => {
    let now = 0;
    const limiter = new RequestLimiter({ requestsPerSecond: 30, requestsPerSecondPerSource: 5 }, () => now);
    const flood = Array.from({ length: 100 }, () => limiter.admit('10.0.0.1'));
    expect(flood.filter((r) => r === undefined)).toHaveLength(10);
    expect(flood.at(-1)).toEqual({ limit: 'source', retryAfterMs: 200 });
    // What the flood was refused did not touch the global budget (60 at once, 10 of them taken by the flood).
    for (let i = 0; i < 5; i += 1) for (let j = 0; j < 10; j += 1) expect(limiter.admit(`10.0.1.${i}`)).toBeUndefined();
    expect(limiter.admit('10.0.2.1')).toEqual({ limit: 'global', retryAfterMs: 34 });
    now = 1000;
    expect(limiter.admit('10.0.0.1')).toBeUndefined();
  });

  it('has no limit where the setting is 0', () => {
    const limiter = new RequestLimiter({ requestsPerSecond: 0, requestsPerSecondPerSource: 0 }, () => 0);
    expect(Array.from({ length: 10_000 }, () => limiter.admit('10.0.0.1')).every((r) => r === undefined)).toBe(true);
  });
});

describe('source keys', () => {
  it('are the IPv4 address, or the /64 of an IPv6 one (a host has the whole prefix)', () => {
    expect(sourceKey('203.0.113.7')).toBe('203.0.113.7');
    expect(sourceKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(sourceKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(sourceKey('2001:db8:1:2:bbbb::9')).toBe(sourceKey('2001:db8:1:2:aaaa::1'));
    expect(sourceKey('2001:db8:1:3::1')).not.toBe(sourceKey('2001:db8:1:2::1'));
    expect(sourceKey(undefined)).toBe('?');
  });
});

describe('the default connection cap', () => {
  it("is a quarter of the process's open-file limit, between 16 and 1024", () => {
    expect(defaultMaxConnections(1024)).toBe(256);
    expect(defaultMaxConnections(1_048_576)).toBe(1024);
    expect(defaultMaxConnections(40)).toBe(16);
    expect(defaultMaxConnections(undefined)).toBe(1024);
  });

  it('reads the soft limit from /proc/self/limits', () => {
    const limits = [
      'Limit                     Soft Limit           Hard Limit           Units     ',
      'Max processes             127655               127655               processes ',
      'Max open files            1024                 524288               files     ',
    ].join('\n');
    expect(openFileLimit(limits)).toBe(1024);
    expect(openFileLimit('Max open files            unlimited            unlimited            files')).toBeUndefined();
  });
});
