import { describe, expect, it } from 'vitest';
import { delta, perCore, perDelegation } from '../../../bench/server-cost/per-delegation.js';

describe('server cost per delegation', () => {
  it('subtracts the idle background, scaled to the run, before dividing by the delegations', () => {
    const idle = { counters: { 'temporal.xact_commit': 100, wal_bytes: 1_000 }, seconds: 10 };
    const run = { counters: { 'temporal.xact_commit': 1_050, wal_bytes: 42_000 }, seconds: 5 };
    // background over 5 s: 50 commits, 500 bytes; 20 delegations
    expect(perDelegation(run, idle, 20)).toEqual({ 'temporal.xact_commit': 50, wal_bytes: 2_075 });
  });

  it('takes the differences of two readings', () => {
    expect(delta({ a: 1, b: 10 }, { a: 4, b: 10 })).toEqual({ a: 3, b: 0 });
  });

  it('turns CPU seconds per delegation into delegations per second per core', () => {
    expect(perCore(0.004)).toBe(250);
    expect(perCore(0)).toBeNull();
  });
});
