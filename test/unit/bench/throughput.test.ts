import { describe, expect, it } from 'vitest';
import { measureThroughputLevel } from '../../../bench/phases/throughput.js';

describe('measureThroughputLevel', () => {
  it('opens and warms every variant first, then runs them in order, then in reverse, and closes all', async () => {
    const calls: string[] = [];
    const results = await measureThroughputLevel(['a', 'b', 'c'], { concurrency: 2, total: 6 }, async (v) => {
      calls.push(`open ${v}`);
      return {
        run: async () => {
          calls.push(v);
        },
        close: async () => {
          calls.push(`close ${v}`);
        },
      };
    });
    expect(calls.join(' ')).toBe(
      // each opened and warmed up (2), then the first half (3 each), then the mirrored half (3 each)
      'open a a a open b b b open c c c a a a b b b c c c c c c b b b a a a close a close b close c',
    );
    for (const v of ['a', 'b', 'c'] as const) expect(results[v].completed).toBe(6);
  });

  it('alternates the order over more passes, sharing the total between them', async () => {
    const calls: string[] = [];
    const results = await measureThroughputLevel(['a', 'b'], { concurrency: 1, total: 4, passes: 4 }, async (v) => ({
      run: async () => {
        calls.push(v);
      },
      close: async () => {},
    }));
    // a warm-up (1) for each, then one delegation per pass: ab ba ab ba
    expect(calls.join('')).toBe('ababbaabba');
    for (const v of ['a', 'b'] as const) expect(results[v].completed).toBe(4);
  });

  it('splits an odd total between the halves without losing a delegation', async () => {
    let runs = 0;
    const results = await measureThroughputLevel(['only'], { concurrency: 1, total: 5 }, async () => ({
      run: async () => {
        runs++;
      },
      close: async () => {},
    }));
    expect(results.only.completed).toBe(5);
    expect(runs).toBe(1 + 5);
  });

  it('reports the counters per measured delegation, not counting the warm-up', async () => {
    let requests = 0;
    const results = await measureThroughputLevel(['v'], { concurrency: 2, total: 4 }, async () => ({
      run: async () => {
        requests += 3;
      },
      close: async () => {},
      counters: async () => ({ requests, idle: 0 }),
    }));
    expect(results.v.per_delegation).toEqual({ requests: 3 });
  });

  it('settles after the warm-up and after each pass, charging the work a pass leaves to its own counters', async () => {
    const calls: string[] = [];
    let leftBehind = 0;
    let done = 0;
    const results = await measureThroughputLevel(['a', 'b'], { concurrency: 1, total: 2 }, async (v) => ({
      run: async () => {
        calls.push(v);
        leftBehind += 1; // the server finishes it only when settling
      },
      close: async () => {},
      settle: async () => {
        calls.push('settle');
        done += leftBehind;
        leftBehind = 0;
      },
      counters: async () => ({ done }),
    }));
    expect(calls.join(' ')).toBe('a settle b settle a settle b settle b settle a settle');
    expect(results.a.per_delegation).toEqual({ done: 1 });
    expect(results.b.per_delegation).toEqual({ done: 1 });
  });
});
