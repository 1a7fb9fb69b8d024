import { describe, expect, it } from 'vitest';
import { isInterruptedState, isTerminalState } from '../../../../a2a/index.js';
import { INTERRUPTED_STATES, TASK_STATES, TERMINAL_STATES } from '../../../../a2a/schemas/task-state.js';

describe('task states', () => {
  it('calls COMPLETED, FAILED, CANCELED and REJECTED terminal, and nothing else', () => {
    expect(TASK_STATES.filter(isTerminalState)).toEqual([
      'TASK_STATE_COMPLETED',
      'TASK_STATE_FAILED',
      'TASK_STATE_CANCELED',
      'TASK_STATE_REJECTED',
    ]);
    expect(TERMINAL_STATES.size).toBe(4);
  });

  it('calls INPUT_REQUIRED and AUTH_REQUIRED interrupted, and nothing else', () => {
    expect(TASK_STATES.filter(isInterruptedState)).toEqual(['TASK_STATE_INPUT_REQUIRED', 'TASK_STATE_AUTH_REQUIRED']);
    expect(INTERRUPTED_STATES.size).toBe(2);
  });
});
