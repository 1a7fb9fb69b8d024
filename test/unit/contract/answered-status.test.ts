import { describe, expect, it } from 'vitest';
import type { TaskStatus } from '../../../a2a/index.js';
import { isAnsweredStatus, statusKeyOf } from '../../../contract/answered-status.js';

const asked = {
  state: 'TASK_STATE_INPUT_REQUIRED',
  timestamp: '2026-11-30T12:00:00.000Z',
  message: { messageId: 'q1', role: 'ROLE_AGENT', parts: [{ text: 'Which Node.js version?' }] },
} as TaskStatus;
const answered = statusKeyOf(asked);

describe('isAnsweredStatus', () => {
  it('recognises the answered question by its status message id, whatever the timestamp', () => {
    expect(isAnsweredStatus(answered, answered)).toBe(true);
    expect(isAnsweredStatus({ ...answered, timestamp: 'later' }, answered)).toBe(true);
    expect(isAnsweredStatus({ ...answered, messageId: 'q2' }, answered)).toBe(false);
  });

  it('tells statuses apart by timestamp when the agent sends no status message', () => {
    const bare = statusKeyOf({ state: 'TASK_STATE_AUTH_REQUIRED', timestamp: 't1' } as TaskStatus);
    expect(isAnsweredStatus(bare, bare)).toBe(true);
    expect(isAnsweredStatus({ ...bare, timestamp: 't2' }, bare)).toBe(false);
  });

  it('takes any status in the answered state for the answered one when neither side identifies it', () => {
    const anonymous = { state: 'TASK_STATE_INPUT_REQUIRED' } as const;
    expect(isAnsweredStatus(anonymous, anonymous)).toBe(true);
  });

  it('never takes another state, a status that cannot be identified against one that can, or nothing answered', () => {
    expect(isAnsweredStatus({ state: 'TASK_STATE_WORKING' }, answered)).toBe(false);
    expect(isAnsweredStatus({ state: 'TASK_STATE_INPUT_REQUIRED' }, answered)).toBe(false);
    expect(isAnsweredStatus({}, answered)).toBe(false);
    expect(isAnsweredStatus(answered, undefined)).toBe(false);
  });
});
