import { describe, expect, it } from 'vitest';
import { ReleaseState } from '../../../../workflows/release/release-state.js';
import type { DelegationNotice } from '../../../../contract/delegation-types.js';

function state() {
  const s = new ReleaseState({ service: 'payment-service', fromVersion: '1.4.0', toVersion: '2.0.0' }, 'rel-1');
  s.track('compat', 'rel-1/compat', 'compat');
  s.track('license', 'rel-1/license', 'license');
  return s;
}

let seq = 0;

function asking(label: string, taskId: string, text: string): DelegationNotice {
  return {
    seq: ++seq,
    workflowId: `rel-1/${label}`,
    agent: label,
    label,
    phase: 'waiting-for-input',
    contextId: 'C',
    taskId,
    rounds: 0,
    question: {
      taskId,
      state: 'TASK_STATE_INPUT_REQUIRED',
      text,
      messageId: `q-${taskId}`,
      askedAt: '2026-11-30T12:00:00.000Z',
    },
  };
}

describe('ReleaseState', () => {
  it('shows waiting-for-input while a delegation asks, and goes back to its phase after the answer', () => {
    const s = state();
    s.onNotice(asking('compat', 'T1', 'Which Node.js version?'));
    expect(s.status.phase).toBe('waiting-for-input');
    expect(s.status.questions).toMatchObject([{ label: 'compat', taskId: 'T1', workflowId: 'rel-1/compat' }]);
    s.answered({ label: 'compat', workflowId: 'rel-1/compat', taskId: 'T1', answerId: 'a1' });
    expect(s.status.phase).toBe('analysing');
    expect(s.status.questions).toEqual([]);
  });

  it('routes to the only question, or to the named task, and refuses to guess between two', () => {
    const s = state();
    expect(s.answerRejection({ text: '24' })).toBe(
      'Release rel-1 has no question waiting for an answer (phase: analysing); nothing was sent.',
    );
    s.onNotice(asking('compat', 'T1', 'Which Node.js version?'));
    expect(s.route({ text: '24' })?.label).toBe('compat');
    s.onNotice(asking('license', 'T2', 'Which registry?'));
    expect(s.answerRejection({ text: '24' })).toMatchInlineSnapshot(
      `"2 delegations of release rel-1 wait for an answer (compat: task T1 — "Which Node.js version?"; license: task T2 — "Which registry?"); nothing was sent. Answer one of them with --task <taskId>."`,
    );
    expect(s.answerRejection({ text: 'npmjs', taskId: 'T2' })).toBeUndefined();
    expect(s.route({ text: 'npmjs', taskId: 'T2' })?.label).toBe('license');
    expect(s.answerRejection({ text: 'x', taskId: 'T9' })).toMatch(/^No delegation of release rel-1 waits on task T9/);
  });

  it('ignores a notice that arrives after a newer one (signals sent together may be reordered)', () => {
    const s = state();
    const question = asking('compat', 'T1', 'Which Node.js version?');
    const working: DelegationNotice = { ...question, phase: 'working', question: undefined, seq: question.seq - 1 };
    s.onNotice(question);
    s.onNotice(working);
    expect(s.status.questions).toMatchObject([{ label: 'compat', taskId: 'T1' }]);
    expect(s.status.phase).toBe('waiting-for-input');
  });

  it('relays an answer once: a repeated answer id gets its first receipt and is not forwarded again', () => {
    const s = state();
    s.onNotice(asking('compat', 'T1', 'Which Node.js version?'));
    const first = s.relay({ text: '24' }, 'a1');
    expect(first).toEqual({
      receipt: { label: 'compat', workflowId: 'rel-1/compat', taskId: 'T1', answerId: 'a1' },
      forward: true,
    });
    expect(s.status.questions).toEqual([]);
    expect(s.answerRejection({ text: '24', answerId: 'a1' })).toBeUndefined();
    expect(s.relay({ text: '24' }, 'a1')).toEqual({ receipt: first.receipt, forward: false });
  });

  it('accepts a decision only while awaiting approval, and a rejection only with a reason', () => {
    const s = state();
    expect(s.decisionRejection('approved', { by: 'ana' })).toMatch(/not waiting for approval \(phase: analysing\)/);
    s.setPhase('awaiting-approval');
    expect(s.decisionRejection('approved', { by: ' ' })).toMatch(/Say who decides/);
    expect(s.decisionRejection('rejected', { by: 'ana' })).toMatch(/needs a reason/);
    expect(s.decisionRejection('approved', { by: 'ana' })).toBeUndefined();
    expect(s.decide('approved', { by: ' ana ', reason: ' ' }, 'now')).toEqual({
      outcome: 'approved',
      by: 'ana',
      at: 'now',
    });
    expect(s.decisionRejection('rejected', { by: 'ben', reason: 'no' })).toBe(
      'Release rel-1 was already approved by ana; nothing changed.',
    );
  });

  it('is rejected by the approval deadline, and says how it finished', () => {
    const s = state();
    s.setPhase('awaiting-approval');
    const decision = s.decisionTimedOut('2 days', 'now');
    expect(decision).toEqual({
      outcome: 'rejected',
      by: 'approval deadline',
      reason: 'no decision within 2 days',
      at: 'now',
    });
    s.finished(decision.outcome, decision.reason);
    expect(s.status).toMatchObject({
      phase: 'rejected',
      outcome: 'rejected',
      reason: 'no decision within 2 days',
      decision,
    });
  });
});
