import { describe, expect, it } from 'vitest';
import { Reachability } from '../../../activities/reachability.js';

const refused = { message: 'GetTask could not complete because the connection failed (ECONNREFUSED)' };

describe('Reachability', () => {
  it('counts the silence from when the unanswered request left, not from when it failed', () => {
    const reach = new Reachability('compat', 15_000);
    const askedAt = Date.now() - 12_000;
    expect(reach.noted(refused, askedAt)).toBeGreaterThanOrEqual(12_000);
    expect(reach.since).toBe(askedAt);
    // An earlier silence is kept: the count never restarts while the agent stays silent.
    reach.noted(refused, Date.now());
    expect(reach.since).toBe(askedAt);
  });

  it('gives the next request what is left of the budget, at least 1 s, at most its own timeout', () => {
    const reach = new Reachability('compat', 15_000);
    expect(reach.timeoutFor(30_000)).toBe(15_000);
    expect(reach.timeoutFor(5_000)).toBe(5_000);
    const now = Date.now();
    reach.noted(refused, now - 10_000);
    expect(reach.timeoutFor(30_000, now)).toBe(5_000);
    reach.noted(refused, now - 20_000);
    expect(reach.timeoutFor(30_000, now)).toBe(1_000);
    expect(reach.exhausted).toBe(true);
  });

  it('tells what is left of the budget: all of it while the agent answers, less the silence so far', () => {
    const reach = new Reachability('compat', 15_000);
    const now = Date.now();
    expect(reach.leftMs(now)).toBe(15_000);
    reach.noted(refused, now - 10_000);
    expect(reach.leftMs(now)).toBe(5_000);
    reach.answered();
    expect(reach.leftMs(now)).toBe(15_000);
  });

  it('shows a request unanswered past the notice time as silence, before it fails', () => {
    const reach = new Reachability('compat', 120_000, undefined, 2_500);
    const askedAt = reach.asking('GetTask');
    expect(reach.silence(askedAt + 1_000)).toBeUndefined();
    expect(reach.silence(askedAt + 3_000)).toEqual({
      since: askedAt,
      lastError: 'GetTask: no answer for 3 s',
      attempts: 1,
      givesUpAt: askedAt + 120_000,
    });
    reach.answered();
    expect(reach.silence(askedAt + 10_000)).toBeUndefined();
  });

  it('shows the last failure in one line, at most 300 characters', () => {
    const reach = new Reachability('compat', 120_000);
    reach.noted({ message: `${'x'.repeat(400)}\nsecond line` }, 1_000);
    expect(reach.silence()).toEqual({ since: 1_000, lastError: 'x'.repeat(300), attempts: 1, givesUpAt: 121_000 });
  });

  it('counts the requests left unanswered since the silence began, and starts again once the agent answers', () => {
    const reach = new Reachability('compat', 120_000);
    reach.noted({ message: 'refused' }, 1_000);
    reach.noted({ message: 'refused' }, 3_000);
    reach.noted({ message: 'refused' }, 7_000);
    expect(reach.silence(8_000)).toMatchObject({ since: 1_000, attempts: 3, givesUpAt: 121_000 });
    reach.answered();
    reach.noted({ message: 'refused' }, 20_000);
    expect(reach.silence(21_000)).toMatchObject({ since: 20_000, attempts: 1, givesUpAt: 140_000 });
  });
});
