import { describe, expect, it } from 'vitest';
import { parseArgs } from '../../../bench/bench-settings.js';

describe('the bench settings', () => {
  it('park more delegations in quick mode than the parked workers cache, so evictions happen', () => {
    const { parked } = parseArgs(['--quick'], 'out.json');
    expect(parked.cache).toBeLessThan(parked.count);
  });

  it('park 10,000 in full mode, in the product default cache', () => {
    expect(parseArgs([], 'out.json').parked).toMatchObject({ count: 10_000 });
    expect(parseArgs([], 'out.json').parked.cache).toBeUndefined();
  });

  it('take another parked count and cache from the command line, positive integers only', () => {
    expect(parseArgs(['--quick', '--parked', '200', '--parked-cache', '50'], 'out.json').parked).toMatchObject({
      count: 200,
      cache: 50,
    });
    expect(() => parseArgs(['--parked-cache', '0'], 'out.json')).toThrow('--parked-cache needs a positive integer');
  });

  it('write a full run of every phase to the given file, and a quick or partial run beside it (never over the full run)', () => {
    expect(parseArgs([], 'results/latest.json').out).toBe('results/latest.json');
    expect(parseArgs(['--quick'], 'results/latest.json').out).toBe('results/partial.json');
    expect(parseArgs(['--only', 'latency'], 'results/latest.json').out).toBe('results/partial.json');
    expect(parseArgs(['--quick', '--out', 'mine.json'], 'results/latest.json').out).toBe('mine.json');
  });

  it('know the release phase', () => {
    expect(parseArgs(['--only', 'release'], 'out.json').phases).toEqual(['release']);
  });
});
