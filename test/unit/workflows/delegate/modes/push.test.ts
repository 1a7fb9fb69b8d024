import { describe, expect, it } from 'vitest';
import type { StatusKey } from '../../../../../contract/delegation-types.js';
import { PushNotices, WakeUpLimit } from '../../../../../workflows/delegate/modes/push.js';

const handled: StatusKey = { state: 'TASK_STATE_INPUT_REQUIRED', messageId: 'q1' };

describe('push notices', () => {
  it('raise the flag for the task being followed, once per read', () => {
    const notices = new PushNotices();
    expect(
      notices.receive({ taskId: 't1', kind: 'statusUpdate', state: 'TASK_STATE_COMPLETED' }, 't1', undefined),
    ).toBe(true);
    expect(notices.receive({ taskId: 't1', kind: 'task' }, 't1', undefined)).toBe(true);
    expect(notices.pending).toBe(true);
    notices.clear();
    expect(notices.pending).toBe(false);
  });

  it('ignore another task, a delegation without a task yet, and the question already answered', () => {
    const notices = new PushNotices();
    expect(notices.receive({ taskId: 'other', kind: 'task', state: 'TASK_STATE_COMPLETED' }, 't1', undefined)).toBe(
      false,
    );
    expect(notices.receive({ taskId: 't1', kind: 'task', state: 'TASK_STATE_COMPLETED' }, undefined, undefined)).toBe(
      false,
    );
    expect(
      notices.receive(
        { taskId: 't1', kind: 'task', state: 'TASK_STATE_INPUT_REQUIRED', messageId: 'q1' },
        't1',
        handled,
      ),
    ).toBe(false);
    expect(notices.pending).toBe(false);
    // A new question, or one the notice cannot identify, is worth a read.
    expect(
      notices.receive(
        { taskId: 't1', kind: 'task', state: 'TASK_STATE_INPUT_REQUIRED', messageId: 'q2' },
        't1',
        handled,
      ),
    ).toBe(true);
    expect(notices.receive({ taskId: 't1', kind: 'task', state: 'TASK_STATE_INPUT_REQUIRED' }, 't1', handled)).toBe(
      true,
    );
  });

  it('say without raising the flag whether they would take a notice (the taskUpdateWanted query)', () => {
    const notices = new PushNotices();
    notices.configId = 'cfg-1';
    const answered = { taskId: 't1', kind: 'task', state: 'TASK_STATE_INPUT_REQUIRED', messageId: 'q1' } as const;
    expect(notices.wants({ ...answered, configId: 'cfg-1' }, 't1', handled)).toBe('no');
    expect(notices.wants({ ...answered, messageId: 'q2', configId: 'cfg-0' }, 't1', handled)).toBe('no');
    expect(notices.wants({ ...answered, messageId: 'q2', configId: 'cfg-1' }, 't1', handled)).toBe('yes');
    expect(notices.pending).toBe(false);
  });
});

describe('during a send or read', () => {
  it('asks for a delivery later (the send may be creating the task, the read may end the delegation) but takes one signalled anyway', async () => {
    const notices = new PushNotices();
    const notice = { taskId: 't1', kind: 'statusUpdate', state: 'TASK_STATE_COMPLETED' } as const;
    let release: () => void = () => {};
    const reading = notices.during(() => new Promise<void>((resolve) => (release = resolve)));
    expect(notices.wants(notice, 't1', undefined)).toBe('later');
    // Nor is it refused: the first send has not told the delegation its task yet.
    expect(notices.wants(notice, undefined, undefined)).toBe('later');
    // Signalled anyway (the receiver could not ask): taken, though the task is not known yet.
    expect(notices.receive(notice, undefined, undefined)).toBe(true);
    release();
    await reading;
    expect(notices.wants(notice, 't1', undefined)).toBe('yes');
    expect(notices.wants(notice, 't2', undefined)).toBe('no');
  });

  it('stops asking for later when the read fails', async () => {
    const notices = new PushNotices();
    const notice = { taskId: 't1', kind: 'statusUpdate', state: 'TASK_STATE_COMPLETED' } as const;
    await expect(notices.during(() => Promise.reject(new Error('unreachable')))).rejects.toThrow('unreachable');
    expect(notices.wants(notice, 't1', undefined)).toBe('yes');
  });
});

describe('push wake-ups', () => {
  it('are admitted at once up to the limit a minute, then each waits for the oldest to be a minute old', () => {
    const limit = new WakeUpLimit(3);
    expect([0, 10, 20].map((t) => limit.admit(t))).toEqual([0, 0, 0]);
    expect(limit.admit(30)).toBe(60_000 - 30);
    expect(limit.admit(61_000)).toBe(0);
  });

  it('start afresh after a message of ours, so a spent allowance does not delay the reads about an answer', () => {
    const limit = new WakeUpLimit(2);
    expect([0, 10].map((t) => limit.admit(t))).toEqual([0, 0]);
    expect(limit.admit(20)).toBe(60_000 - 20);
    limit.reset();
    expect([30, 40].map((t) => limit.admit(t))).toEqual([0, 0]);
    expect(limit.admit(50)).toBe(60_000 - 20);
  });

  it('hold an agent that delivers without end to the limit: 30 reads a minute, however fast the reads', () => {
    const limit = new WakeUpLimit(30);
    // The workflow reads one task at a time; a notice is always pending, each read takes 10 ms.
    const readAt: number[] = [];
    for (let now = 0; readAt.length < 1_000; now += 10) {
      now += limit.admit(now);
      readAt.push(now);
    }
    expect(readAt.filter((t) => t < 60_000)).toHaveLength(30);
    const perMinute = new Map<number, number>();
    for (const t of readAt) perMinute.set(Math.floor(t / 60_000), (perMinute.get(Math.floor(t / 60_000)) ?? 0) + 1);
    expect(Math.max(...perMinute.values())).toBe(30);
  });
});
