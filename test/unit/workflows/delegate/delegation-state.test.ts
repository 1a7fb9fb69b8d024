import { describe, expect, it } from 'vitest';
import { DelegationState } from '../../../../workflows/delegate/delegation-state.js';
import type { PendingQuestion } from '../../../../contract/delegation-types.js';

const question: PendingQuestion = {
  taskId: 'T1',
  state: 'TASK_STATE_INPUT_REQUIRED',
  text: 'Which Node.js version should payment-service target?',
  messageId: 'q1',
  askedAt: '2026-11-30T12:00:00.000Z',
};

function waitingState() {
  const state = new DelegationState({ agent: 'compat', label: 'compat' }, 'C1');
  state.adopt({ id: 'T1', contextId: 'C1', status: { state: 'TASK_STATE_INPUT_REQUIRED' } });
  state.ask(
    {
      phase: 'input-required',
      status: { state: question.state, messageId: question.messageId },
      statusText: question.text,
    },
    question.askedAt,
  );
  return state;
}

describe('DelegationState', () => {
  it('rejects an answer while no question is pending, saying nothing was sent', () => {
    const state = new DelegationState({ agent: 'compat' }, 'C1');
    state.adopt({ id: 'T1', contextId: 'C1', status: { state: 'TASK_STATE_WORKING' } });
    state.working();
    expect(state.rejectionOf({ text: 'Node.js 24' })).toMatchInlineSnapshot(
      `"The delegation to compat is not waiting for input (the agent is working on task T1); nothing was sent. Check its status and answer when the agent asks."`,
    );
  });

  it('rejects an empty or blank answer', () => {
    expect(waitingState().rejectionOf({ text: '   ' })).toMatch(/empty; nothing was sent/);
  });

  it('rejects an answer addressed to another task', () => {
    expect(waitingState().rejectionOf({ text: '24', taskId: 'T9' })).toBe(
      'Task T9 is not the one waiting for input (task T1 is); nothing was sent.',
    );
  });

  it('accepts one answer per question and counts the round when it is taken', () => {
    const state = waitingState();
    const receipt = state.accept({ text: 'Node.js 24' }, 'a1', 'm1');
    expect(receipt).toEqual({ taskId: 'T1', questionId: 'q1', round: 1, answerId: 'a1', messageId: 'm1' });
    expect(state.answered).toBe(true);
    expect(state.rejectionOf({ text: 'Node.js 22' })).toMatch(/not waiting for input/);
    const taken = state.takeAnswer();
    expect(taken.answer.text).toBe('Node.js 24');
    expect(state.status.rounds).toBe(1);
    expect(state.status.question).toBeUndefined();
    expect(state.status.phase).toBe('sending');
  });

  it('answers a repeated answer id with the first receipt and changes nothing', () => {
    const state = waitingState();
    const first = state.accept({ text: 'Node.js 24', answerId: 'a1' }, 'a1', 'm1');
    expect(state.rejectionOf({ text: 'Node.js 24', answerId: 'a1' })).toBeUndefined();
    expect(state.accept({ text: 'Node.js 24', answerId: 'a1' }, 'a1', 'm2')).toBe(first);
    state.takeAnswer();
    // still the same receipt after the round moved on, and no second answer is pending
    expect(state.accept({ text: 'again', answerId: 'a1' }, 'a1', 'm3')).toBe(first);
    expect(state.answered).toBe(false);
  });

  it('binds an answer to the question it names: a late duplicate never answers the next question', () => {
    const state = waitingState();
    expect(state.status.question?.id).toBe('q1');
    state.accept({ text: 'Node.js 22', questionId: 'q1' }, 'a1', 'm1');
    expect(state.rejectionOf({ text: 'Node.js 22', questionId: 'q1' })).toMatch(
      /^Question q1 of the delegation to compat was already answered; nothing was sent\./,
    );
    state.takeAnswer();
    state.ask(
      {
        phase: 'input-required',
        status: { state: 'TASK_STATE_INPUT_REQUIRED', messageId: 'q2m' },
        statusText: 'npm or pnpm?',
      },
      '2026-11-30T12:01:00.000Z',
    );
    expect(state.status.question?.id).toBe('q2');
    expect(state.rejectionOf({ text: 'Node.js 22', questionId: 'q1' })).toMatch(
      /Question q1 .* \(question q2 waits now\)/,
    );
    expect(state.rejectionOf({ text: 'pnpm', questionId: 'q2' })).toBeUndefined();
  });

  it('goes on counting questions across continue-as-new, also past a question the agent resumed by itself', () => {
    const state = new DelegationState({ agent: 'compat' }, 'C1');
    state.adopt({ id: 'T1', contextId: 'C1', status: { state: 'TASK_STATE_AUTH_REQUIRED' } });
    state.ask(
      {
        phase: 'auth-required',
        status: { state: 'TASK_STATE_AUTH_REQUIRED', messageId: 'a1' },
        statusText: 'Grant access',
      },
      '2026-11-30T12:00:00.000Z',
    );
    // Authorized out of band: the task goes on without an answer, so no round is counted.
    state.working();
    const next = new DelegationState({ agent: 'compat' }, 'C1', undefined, {
      resolved: undefined as never,
      ...state.carried(),
    });
    next.ask({ phase: 'input-required', status: { state: 'TASK_STATE_INPUT_REQUIRED' }, statusText: 'more?' }, 'now');
    expect(next.status.rounds).toBe(0);
    expect(next.status.question?.id).toBe('q2');
  });

  it('carries the unreachable clock across continue-as-new: the next round goes on counting', () => {
    const state = waitingState();
    state.observe({
      phase: 'running',
      task: { id: 'T1', contextId: 'C1', status: { state: 'TASK_STATE_WORKING' } },
      status: { state: 'TASK_STATE_WORKING' },
      statusText: '',
      artifacts: [],
      unreachableSince: 1_796_000_000_000,
    });
    const next = new DelegationState({ agent: 'compat' }, 'C1', undefined, {
      resolved: undefined as never,
      ...state.carried(),
    });
    expect(next.unreachableSince).toBe(1_796_000_000_000);
  });

  it('goes on counting the bytes the agent made it drop, across rounds, reads that count afresh and continue-as-new', () => {
    const state = waitingState();
    const round = (droppedBytes?: number) => ({
      phase: 'running' as const,
      task: { id: 'T1', contextId: 'C1', status: { state: 'TASK_STATE_WORKING' as const } },
      status: { state: 'TASK_STATE_WORKING' as const },
      statusText: '',
      artifacts: [],
      ...(droppedBytes ? { droppedBytes } : {}),
    });
    state.observe(round(4_096));
    // Push mode's GetTask starts a budget of its own: a read that dropped nothing keeps the count.
    state.observe(round());
    expect(state.droppedBytes).toBe(4_096);
    state.observe(round(10_000));
    const next = new DelegationState({ agent: 'compat' }, 'C1', undefined, {
      resolved: undefined as never,
      ...state.carried(),
    });
    expect(next.droppedBytes).toBe(10_000);
  });

  it('keeps the chunks a failed round had received visible as text', () => {
    const state = waitingState();
    state.keepProgress({
      taskId: 'T1',
      events: 3,
      artifacts: [
        { artifactId: 'report', name: 'report.md', parts: 2, lastChunk: false, text: '# Report\nsharp: high' },
      ],
    });
    expect(state.status.artifacts).toEqual([
      { artifactId: 'report', name: 'report.md', parts: [{ text: '# Report\nsharp: high' }] },
    ]);
  });
});
