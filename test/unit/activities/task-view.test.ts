import { describe, expect, it } from 'vitest';
import { phaseOf } from '../../../activities/track-task.js';
import { messageText } from '../../../activities/task-view.js';
import { statusKeyOf } from '../../../contract/answered-status.js';
import type { TaskStatus } from '../../../a2a/index.js';

const asked: TaskStatus = {
  state: 'TASK_STATE_INPUT_REQUIRED',
  timestamp: '2026-11-30T12:00:00.000Z',
  message: { messageId: 'q1', role: 'ROLE_AGENT', parts: [{ text: 'Which Node.js version?' }] },
} as TaskStatus;

describe('tracking decisions', () => {
  it('ends the round at every terminal state', () => {
    for (const [state, phase] of [
      ['TASK_STATE_COMPLETED', 'completed'],
      ['TASK_STATE_FAILED', 'failed'],
      ['TASK_STATE_REJECTED', 'rejected'],
      ['TASK_STATE_CANCELED', 'canceled'],
    ] as const) {
      expect(phaseOf({ state } as TaskStatus, undefined)).toBe(phase);
    }
  });

  it('keeps going while the task is submitted or working', () => {
    expect(phaseOf({ state: 'TASK_STATE_WORKING' } as TaskStatus, undefined)).toBeUndefined();
    expect(phaseOf({ state: 'TASK_STATE_SUBMITTED' } as TaskStatus, undefined)).toBeUndefined();
  });

  it('does not ask the same question twice: the answered status is not a new question', () => {
    const handled = statusKeyOf(asked);
    expect(phaseOf(asked, undefined)).toBe('input-required');
    expect(phaseOf(asked, handled)).toBeUndefined();
    const next = { ...asked, message: { ...asked.message!, messageId: 'q2' } } as TaskStatus;
    expect(phaseOf(next, handled)).toBe('input-required');
  });

  it('reads the text parts of a message', () => {
    expect(messageText(asked.message)).toBe('Which Node.js version?');
    expect(messageText(undefined)).toBe('');
  });
});
