import { Role } from '@a2a-js/sdk';
import type { Message } from '@a2a-js/sdk';
import { describe, expect, it } from 'vitest';
import { resolveTurnSettings, SLOW_CHUNK_DELAY_MS } from '../../../../agents/shared/scenario.js';

const defaults = { workDelayMs: 300, chunkDelayMs: 150 };

function message(role: Role, metadata?: Record<string, unknown>, messageId = 'm'): Message {
  return { messageId, contextId: '', taskId: '', role, parts: [], metadata, extensions: [], referenceTaskIds: [] };
}

describe('resolveTurnSettings', () => {
  it('uses the agent defaults when no message sets a switch', () => {
    expect(resolveTurnSettings([message(Role.ROLE_USER)], defaults)).toEqual({
      scenario: undefined,
      ...defaults,
      ackDelayMs: 0,
      askDelayMs: 0,
    });
  });

  it('keeps a scenario from an earlier turn and lets a later one replace it', () => {
    const first = message(Role.ROLE_USER, { scenario: 'second-question' });
    expect(resolveTurnSettings([first, message(Role.ROLE_AGENT), message(Role.ROLE_USER)], defaults).scenario).toBe(
      'second-question',
    );
    expect(resolveTurnSettings([first, message(Role.ROLE_USER, { scenario: 'fail' })], defaults).scenario).toBe('fail');
  });

  it('ignores unknown scenario names and agent metadata', () => {
    const settings = resolveTurnSettings(
      [message(Role.ROLE_USER, { scenario: 'explode' }), message(Role.ROLE_AGENT, { scenario: 'fail' })],
      defaults,
    );
    expect(settings.scenario).toBeUndefined();
  });

  it('slows chunks down for "slow" unless the message sets chunkDelayMs itself', () => {
    expect(resolveTurnSettings([message(Role.ROLE_USER, { scenario: 'slow' })], defaults).chunkDelayMs).toBe(
      SLOW_CHUNK_DELAY_MS,
    );
    expect(
      resolveTurnSettings([message(Role.ROLE_USER, { scenario: 'slow', chunkDelayMs: 5 })], defaults).chunkDelayMs,
    ).toBe(5);
  });

  it('reads delay overrides, numeric strings included, and ignores invalid ones', () => {
    const settings = resolveTurnSettings([message(Role.ROLE_USER, { workDelayMs: '0', chunkDelayMs: -4 })], defaults);
    expect(settings).toMatchObject({ workDelayMs: 0, chunkDelayMs: 150 });
  });

  it('reads askDelayMs (work before a question) from any user message, 0 when none sets it', () => {
    const first = message(Role.ROLE_USER, { askDelayMs: 300 });
    expect(resolveTurnSettings([message(Role.ROLE_USER)], defaults).askDelayMs).toBe(0);
    expect(resolveTurnSettings([first, message(Role.ROLE_USER)], defaults).askDelayMs).toBe(300);
  });

  it('reads ackDelayMs (a slow acknowledgement) from any user message, 0 when none sets it', () => {
    const first = message(Role.ROLE_USER, { ackDelayMs: 250 });
    expect(resolveTurnSettings([first], defaults).ackDelayMs).toBe(250);
    expect(resolveTurnSettings([first, message(Role.ROLE_USER)], defaults).ackDelayMs).toBe(250);
    expect(resolveTurnSettings([first, message(Role.ROLE_USER, { ackDelayMs: 0 })], defaults).ackDelayMs).toBe(0);
  });

  it('maps the TCK messageId prefixes to scenarios', () => {
    expect(resolveTurnSettings([message(Role.ROLE_USER, undefined, 'tck-reject-task-001')], defaults).scenario).toBe(
      'tck-reject-task',
    );
    expect(resolveTurnSettings([message(Role.ROLE_USER, undefined, 'tck-complete-task')], defaults).scenario).toBe(
      'tck-complete-task',
    );
  });
});
