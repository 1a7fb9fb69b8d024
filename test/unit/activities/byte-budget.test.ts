import { describe, expect, it } from 'vitest';
import { ResponseTooLargeError } from '../../../a2a/errors.js';
import type { StreamResponse, Task } from '../../../a2a/index.js';
import { ByteBudget, valueBytes } from '../../../activities/byte-budget.js';
import { TaskView, tailText } from '../../../activities/task-outcome.js';

const MiB = 1024 * 1024;
/** A one-part chunk of a MiB of text, as counted: the text and the key \`text\`. */
const PART = MiB + 'text'.length;
const chunk = (text: string, append = true): StreamResponse => ({
  artifactUpdate: { taskId: 't', contextId: 'c', artifact: { artifactId: 'a', parts: [{ text }] }, append },
});
const task = (text: string): Task =>
  ({
    id: 't',
    contextId: 'c',
    status: { state: 'TASK_STATE_WORKING' },
    artifacts: [{ artifactId: 'a', parts: [{ text }] }],
  }) as Task;

function tooLarge(fn: () => void): ResponseTooLargeError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ResponseTooLargeError);
    return err as ResponseTooLargeError;
  }
  throw new Error('expected the budget to stop it');
}

describe('ByteBudget', () => {
  it('counts what is held and what was dropped, and refuses what would pass it before keeping it', () => {
    const budget = new ByteBudget(100);
    budget.hold(50);
    budget.replace(50, 10);
    expect([budget.used, budget.droppedBytes]).toEqual([60, 50]);
    const error = tooLarge(() => budget.replace(10, 41));
    expect(error.limit).toBe('maxDelegationBytes');
    expect([budget.used, budget.droppedBytes]).toEqual([60, 50]); // nothing changed
    expect(error.message).toMatch(
      /more than 100 bytes of content into one delegation.*raise A2A_MAX_DELEGATION_BYTES.*"maxDelegationBytes"/,
    );
    expect(budget.used).toBe(60);
  });

  it('re-measures what is held on a read of ours, and goes on from what earlier attempts dropped', () => {
    const budget = new ByteBudget(100, 30);
    budget.hold(50);
    budget.rebase(50); // the same task read again costs nothing more
    budget.rebase(70);
    expect(budget.used).toBe(100);
    tooLarge(() => budget.rebase(71));
    expect(budget.used).toBe(100);
  });

  it('measures strings by length, other scalars as 8, keys included, without serialising', () => {
    expect(valueBytes({ text: 'abc' })).toBe(7);
    expect(valueBytes({ data: [1, true, null, 'xy'] })).toBe(4 + 8 * 3 + 2);
  });
});

describe('a task view under a byte budget', () => {
  it('stops a stream of appended chunks at the budget, before assembling the chunk that passes it', () => {
    const view = new TaskView('t', undefined, { budget: new ByteBudget(3 * PART + 100) });
    const big = 'x'.repeat(MiB);
    view.apply({ task: task('') }, true);
    for (let i = 0; i < 3; i++) view.apply(chunk(big));
    tooLarge(() => view.apply(chunk(big)));
    expect(view.artifacts.artifacts[0]?.parts).toHaveLength(4); // the snapshot's empty part and three chunks
  });

  it('counts replaced artifacts and superseded statuses as dropped, so replacing cannot stream without end', () => {
    const view = new TaskView('t', undefined, { budget: new ByteBudget(10 * PART + 100) });
    const big = 'x'.repeat(MiB);
    view.apply({ task: task('') }, true);
    const replace = () => view.apply(chunk(big, false));
    for (let i = 0; i < 10; i++) replace();
    tooLarge(replace);
    expect(view.progress().droppedBytes).toBe(9 * PART + 'text'.length); // the 11th dropped nothing
  });

  it('costs nothing more when the same task is read again (poll), and counts a snapshot the agent pushes mid-stream', () => {
    const view = new TaskView('t', undefined, { budget: new ByteBudget(3 * PART) });
    const big = 'x'.repeat(MiB);
    for (let i = 0; i < 50; i++) view.snapshot(task(big));
    expect(view.budget.used).toBe(PART);
    view.apply({ task: task(big) }, false);
    view.apply({ task: task(big) }, false);
    tooLarge(() => view.apply({ task: task(big) }, false));
  });

  it('builds heartbeat text from the end of each artifact, never by joining it whole', () => {
    const view = new TaskView('t', undefined);
    view.apply({ task: task('start ') }, true);
    for (let i = 0; i < 900; i++) view.apply(chunk(`line ${i}\n`.repeat(4)));
    const [shown] = view.progress().artifacts;
    expect(shown?.text).toHaveLength(16_384);
    expect(shown?.text.endsWith('line 899\n')).toBe(true);
    expect(tailText({ artifactId: 'a', parts: [{ text: 'ab' }, { data: {} }, { text: 'cd' }] }, 3)).toBe('bcd');
  });
});
