import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DeliveryCoalescer, type TrailingOutcome } from '../../../worker/webhook-coalescer.js';
import type { NotifyOutcome } from '../../../worker/webhook-notifier.js';

const BINDING = { workflowId: 'wf', taskId: 't', configId: 'c' };

interface Rig {
  coalescer: DeliveryCoalescer<{ n: number }>;
  /** Payloads signalled, in order. */
  sent: number[];
  trailing: TrailingOutcome[];
  /** Resolves the signal in flight (they are held until released). */
  release(outcome?: NotifyOutcome): void;
  fail(error: Error): void;
}

let rig: Rig | undefined;
beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  void rig?.coalescer.close(); // a test may leave a signal held forever: not waited for
  vi.useRealTimers();
});

function start(intervalMs = 1000, held = false): Rig {
  const sent: number[] = [];
  const trailing: TrailingOutcome[] = [];
  const waiting: Array<{ resolve(o: NotifyOutcome): void; reject(e: Error): void }> = [];
  const coalescer = new DeliveryCoalescer<{ n: number }>({
    intervalMs,
    now: () => Date.now(),
    signal: (_binding, { n }) => {
      sent.push(n);
      if (!held) return Promise.resolve('delivered');
      return new Promise((resolve, reject) => waiting.push({ resolve, reject }));
    },
    trailing: (_binding, outcome) => trailing.push(outcome),
  });
  rig = {
    coalescer,
    sent,
    trailing,
    release: (outcome = 'delivered') => waiting.shift()?.resolve(outcome),
    fail: (error) => waiting.shift()?.reject(error),
  };
  return rig;
}

describe('the delivery coalescer', () => {
  it('signals the first two deliveries at once and the rest of a burst once, with the latest, when a second has passed', async () => {
    const { coalescer, sent, trailing } = start();
    // After an answer an agent delivers the answered question's state, then the news: both go at once.
    expect(await coalescer.offer(BINDING, { n: 1 }, 'g1')).toBe('signaled');
    expect(await coalescer.offer(BINDING, { n: 2 }, 'g2')).toBe('signaled');
    for (let n = 3; n <= 50; n += 1) expect(await coalescer.offer(BINDING, { n }, `g${n}`)).toBe('coalesced');
    expect(sent).toEqual([1, 2]);
    await vi.advanceTimersByTimeAsync(999);
    expect(sent).toEqual([1, 2]);
    await vi.advanceTimersByTimeAsync(1);
    expect(sent).toEqual([1, 2, 50]);
    expect(trailing).toEqual(['signaled']);
    // Under a flood it is one a second.
    for (let n = 51; n <= 60; n += 1) expect(await coalescer.offer(BINDING, { n }, `g${n}`)).toBe('coalesced');
    await vi.advanceTimersByTimeAsync(999);
    expect(sent).toEqual([1, 2, 50]);
    await vi.advanceTimersByTimeAsync(1);
    expect(sent).toEqual([1, 2, 50, 60]);
    // Nothing pending: no more signals however long we wait, and the next two deliveries go at once.
    await vi.advanceTimersByTimeAsync(10_000);
    expect(sent).toEqual([1, 2, 50, 60]);
    expect(await coalescer.offer(BINDING, { n: 61 }, 'g61')).toBe('signaled');
    expect(await coalescer.offer(BINDING, { n: 62 }, 'g62')).toBe('signaled');
  });

  it('keeps one signal in flight: deliveries meanwhile become one trailing signal when it returns', async () => {
    const { coalescer, sent, release } = start(1000, true);
    const first = coalescer.offer(BINDING, { n: 1 }, 'g1');
    expect(await coalescer.offer(BINDING, { n: 2 }, 'g2')).toBe('coalesced');
    expect(await coalescer.offer(BINDING, { n: 3 }, 'g3')).toBe('coalesced');
    // The signal takes 5 s: nothing else is sent meanwhile, though the bucket has refilled.
    await vi.advanceTimersByTimeAsync(5000);
    expect(sent).toEqual([1]);
    release();
    expect(await first).toBe('signaled');
    await vi.advanceTimersByTimeAsync(0);
    expect(sent).toEqual([1, 3]);
    release();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(sent).toEqual([1, 3]);
  });

  it('asks again soon, backing off, while the delegation answers later; what came meanwhile goes with it', async () => {
    const { coalescer, sent, trailing, release } = start(1000, true);
    const first = coalescer.offer(BINDING, { n: 1 }, 'g1');
    release('later');
    expect(await first).toBe('coalesced');
    await vi.advanceTimersByTimeAsync(99);
    expect(sent).toEqual([1]);
    await vi.advanceTimersByTimeAsync(1);
    expect(sent).toEqual([1, 1]);
    release('later');
    expect(await coalescer.offer(BINDING, { n: 2 }, 'g2')).toBe('coalesced');
    await vi.advanceTimersByTimeAsync(199);
    expect(sent).toEqual([1, 1]);
    await vi.advanceTimersByTimeAsync(1);
    expect(sent).toEqual([1, 1, 2]);
    release();
    await vi.advanceTimersByTimeAsync(0);
    expect(trailing).toEqual(['signaled']);
    // Asked again at once the next time: the back-off starts over.
    await vi.advanceTimersByTimeAsync(2000);
    const next = coalescer.offer(BINDING, { n: 3 }, 'g3');
    release('later');
    await next;
    await vi.advanceTimersByTimeAsync(100);
    expect(sent).toEqual([1, 1, 2, 3, 3]);
  });

  it('asks at most once a second however long the delegation keeps reading', async () => {
    const sent: number[] = [];
    const laters = new DeliveryCoalescer<{ n: number }>({
      intervalMs: 1000,
      now: () => Date.now(),
      signal: async (_b, { n }) => (sent.push(n), 'later'),
      trailing: () => {},
    });
    expect(await laters.offer(BINDING, { n: 1 }, 'g1')).toBe('coalesced');
    await vi.advanceTimersByTimeAsync(60_000);
    // 0.1, 0.3, 0.7 and 1.5 s after the first, then every second up to 59.5 s.
    expect(sent).toHaveLength(1 + 4 + 58);
    await laters.close();
  });

  it('signals the same news once, whether it comes again at once or later', async () => {
    const { coalescer, sent } = start();
    expect(await coalescer.offer(BINDING, { n: 1 }, 'same')).toBe('signaled');
    expect(await coalescer.offer(BINDING, { n: 1 }, 'same')).toBe('duplicate');
    await vi.advanceTimersByTimeAsync(5000);
    expect(await coalescer.offer(BINDING, { n: 1 }, 'same')).toBe('duplicate');
    expect(sent).toEqual([1]);
    // The same news for another config is other news.
    expect(await coalescer.offer({ ...BINDING, configId: 'c2' }, { n: 2 }, 'same')).toBe('signaled');
  });

  it('tries a signal Temporal did not take again by itself, and still takes a sender that retries', async () => {
    const { coalescer, sent, trailing, fail, release } = start(1000, true);
    const first = coalescer.offer(BINDING, { n: 1 }, 'g1');
    fail(new Error('UNAVAILABLE'));
    await expect(first).rejects.toThrow('UNAVAILABLE');
    // The sender's retry is not a duplicate: it joins the retry that is due.
    expect(await coalescer.offer(BINDING, { n: 1 }, 'g1')).toBe('coalesced');
    await vi.advanceTimersByTimeAsync(1000);
    expect(sent).toEqual([1, 1]);
    release();
    await vi.advanceTimersByTimeAsync(0);
    expect(trailing).toEqual(['signaled']);
  });

  it('merges what it coalesces as the caller says', async () => {
    const sent: string[] = [];
    const coalescer = new DeliveryCoalescer<{ s: string }>({
      intervalMs: 1000,
      now: () => Date.now(),
      signal: async (_b, { s }) => (sent.push(s), 'delivered'),
      merge: (pending, next) => ({ s: `${pending.s}+${next.s}` }),
      trailing: () => {},
    });
    await coalescer.offer(BINDING, { s: 'a' }, 'g1');
    await coalescer.offer(BINDING, { s: 'b' }, 'g2');
    await coalescer.offer(BINDING, { s: 'c' }, 'g3');
    await coalescer.offer(BINDING, { s: 'd' }, 'g4');
    await vi.advanceTimersByTimeAsync(1000);
    expect(sent).toEqual(['a', 'b', 'c+d']);
    await coalescer.close();
  });

  it('retries a trailing signal Temporal did not take, a few times', async () => {
    const { coalescer, sent, trailing, release, fail } = start(1000, true);
    const first = coalescer.offer(BINDING, { n: 1 }, 'g1');
    expect(await coalescer.offer(BINDING, { n: 3 }, 'g3')).toBe('coalesced');
    release();
    await first;
    for (let attempt = 0; attempt < 4; attempt += 1) {
      await vi.advanceTimersByTimeAsync(1000);
      fail(new Error('UNAVAILABLE'));
      await vi.advanceTimersByTimeAsync(0);
    }
    await vi.advanceTimersByTimeAsync(10_000);
    expect(sent).toEqual([1, 3, 3, 3, 3]);
    expect(trailing).toEqual(['failed', 'failed', 'failed', 'failed']);
  });

  it('answers gone without asking again once the workflow has ended', async () => {
    const { coalescer, sent } = start(0);
    const gone = new DeliveryCoalescer<{ n: number }>({
      intervalMs: 0,
      signal: async (_b, { n }) => (sent.push(n), 'gone'),
      trailing: () => {},
    });
    expect(await gone.offer(BINDING, { n: 1 }, 'g1')).toBe('gone');
    expect(await gone.offer(BINDING, { n: 2 }, 'g2')).toBe('gone');
    expect(sent).toEqual([1]);
    await gone.close();
    expect(await coalescer.offer(BINDING, { n: 3 }, 'g3')).toBe('signaled');
  });

  it('passes on that the delegation did not want a notice, at once or for a trailing signal', async () => {
    const { coalescer, trailing } = start(1000, true);
    const first = coalescer.offer(BINDING, { n: 1 }, 'g1');
    expect(await coalescer.offer(BINDING, { n: 3 }, 'g3')).toBe('coalesced');
    rig!.release('stale');
    expect(await first).toBe('stale');
    await vi.advanceTimersByTimeAsync(1000);
    rig!.release('stale');
    await vi.advanceTimersByTimeAsync(0);
    expect(trailing).toEqual(['stale']);
    // Not gone: the next news is signalled.
    await vi.advanceTimersByTimeAsync(1000);
    const next = coalescer.offer(BINDING, { n: 4 }, 'g4');
    rig!.release();
    expect(await next).toBe('signaled');
  });

  it('settles its close once the signals under way have, so their connection can be closed after it', async () => {
    const { coalescer, release } = start(1000, true);
    const offered = coalescer.offer(BINDING, { n: 1 }, 'g1');
    let closed = false;
    const closing = coalescer.close().then(() => (closed = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(closed).toBe(false);
    release();
    await closing;
    expect(await offered).toBe('signaled');
  });

  it('sends no trailing signal after it is closed', async () => {
    const { coalescer, sent } = start();
    await coalescer.offer(BINDING, { n: 1 }, 'g1');
    await coalescer.offer(BINDING, { n: 2 }, 'g2');
    expect(await coalescer.offer(BINDING, { n: 3 }, 'g3')).toBe('coalesced');
    await coalescer.close();
    await vi.advanceTimersByTimeAsync(5000);
    expect(sent).toEqual([1, 2]);
  });
});
