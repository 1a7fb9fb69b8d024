import { describe, expect, it } from 'vitest';
import { InvalidResponseError } from '../../../a2a/errors.js';
import type { StreamResponse, Task } from '../../../a2a/index.js';
import { TaskView } from '../../../activities/task-outcome.js';
import { checkTaskIdentity, TaskOwners } from '../../../activities/task-identity.js';

const taskOf = (id: string, contextId: string): Task =>
  ({ id, contextId, status: { state: 'TASK_STATE_WORKING' } }) as Task;

function refusal(fn: () => void): string {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(InvalidResponseError);
    expect((err as InvalidResponseError).retryable).toBe(false);
    return (err as Error).message;
  }
  throw new Error('expected a refusal');
}

describe('checkTaskIdentity', () => {
  it('refuses a task of another context, or another task than the one followed or answered', () => {
    expect(refusal(() => checkTaskIdentity('task-A', 'ctx-A', { contextId: 'ctx-B' }))).toMatch(
      /task "task-A" of context "ctx-A", but this delegation's context is "ctx-B"/,
    );
    expect(refusal(() => checkTaskIdentity('task-A', 'ctx-B', { taskId: 'task-B', contextId: 'ctx-B' }))).toMatch(
      /task "task-A" where this delegation follows task "task-B"/,
    );
    expect(() => checkTaskIdentity('task-B', 'ctx-B', { taskId: 'task-B', contextId: 'ctx-B' })).not.toThrow();
    expect(() => checkTaskIdentity('task-B', undefined, { contextId: 'ctx-B' })).not.toThrow(); // contextId is optional on a Task
  });
});

describe('TaskOwners', () => {
  it('refuses a task another delegation on this worker follows, and a task that changes context', () => {
    const owners = new TaskOwners();
    owners.claim('http://agent/a2a', 'task-A', 'ctx-A', 'delegation-A');
    owners.claim('http://agent/a2a', 'task-A', 'ctx-A', 'delegation-A'); // its own again: fine
    owners.claim('http://other/a2a', 'task-A', 'ctx-X', 'delegation-B'); // same id at another agent: another task
    expect(refusal(() => owners.claim('http://agent/a2a', 'task-A', 'ctx-A', 'delegation-B'))).toMatch(
      /another delegation on this worker follows/,
    );
    expect(refusal(() => owners.claim('http://agent/a2a', 'task-A', 'ctx-Z', 'delegation-A'))).toMatch(
      /moved task "task-A" from context "ctx-A" to "ctx-Z"/,
    );
    expect(owners.ownerOf('http://agent/a2a', 'task-A')).toBe('delegation-A');
  });

  it('forgets the least recently seen task first, within its capacity', () => {
    const owners = new TaskOwners(2);
    owners.claim('u', 't1', undefined, 'd1');
    owners.claim('u', 't2', undefined, 'd2');
    owners.claim('u', 't1', undefined, 'd1');
    owners.claim('u', 't3', undefined, 'd3');
    expect([owners.ownerOf('u', 't1'), owners.ownerOf('u', 't2'), owners.ownerOf('u', 't3')]).toEqual([
      'd1',
      undefined,
      'd3',
    ]);
  });
});

describe('a task view', () => {
  const update = (taskId: string, contextId: string): StreamResponse => ({
    statusUpdate: { taskId, contextId, status: { state: 'TASK_STATE_WORKING' } },
  });

  it("refuses another delegation's task and context where it was handed its own context", () => {
    const owners = new TaskOwners();
    const claim = (who: string) => (taskId: string, contextId: string | undefined) =>
      owners.claim('http://agent/a2a', taskId, contextId, who);
    new TaskView('', undefined, { expect: { contextId: 'ctx-A' }, claim: claim('A') }).snapshot(
      taskOf('task-A', 'ctx-A'),
    );
    // B sent ctx-B and is answered with A's task and context.
    const b = new TaskView('', undefined, { expect: { contextId: 'ctx-B' }, claim: claim('B') });
    expect(refusal(() => b.snapshot(taskOf('task-A', 'ctx-A')))).toMatch(/this delegation's context is "ctx-B"/);
    // Even in B's context, A's task stays A's.
    expect(refusal(() => b.snapshot(taskOf('task-A', 'ctx-B')))).toMatch(/another delegation on this worker follows/);
  });

  it('refuses a context that changes mid-stream', () => {
    const view = new TaskView('task-1', undefined);
    view.apply(update('task-1', 'ctx-1'), true);
    expect(refusal(() => view.apply(update('task-1', 'ctx-2')))).toMatch(/this delegation's context is "ctx-1"/);
  });
});
