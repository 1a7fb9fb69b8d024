/**
 * Push mode's reads: tried first as a local activity (one marker in history), then, when that
 * attempt fails, as an activity with its retries, heartbeats and status.
 */
import { ApplicationFailure } from '@temporalio/common';
import { describe, expect, it } from 'vitest';
import type { DelegateInput } from '../../contract/index.js';
import { outcome, resolved, sent } from './scripted-agent.js';
import { useScriptedWorker } from './support.js';

const temporal = useScriptedWorker('time-skipping');

const request: DelegateInput = { agent: 'compat', label: 'compat', text: 'Check payment-service', mode: 'push' };

describe('a push read', () => {
  it('is one local activity when the agent answers it', async () => {
    const { handle, agent } = await temporal.start('delegate', request, [
      { call: 'a2a.resolveAgent', answer: resolved('push') },
      { call: 'a2a.sendMessage', answer: sent() },
      { call: 'a2a.getTask', answer: { ...outcome('completed'), pushConfigDeleted: true } },
    ]);
    expect(await handle.result()).toMatchObject({ state: 'TASK_STATE_COMPLETED' });
    const events = (await handle.fetchHistory()).events ?? [];
    const scheduled = events.flatMap((e) => e.activityTaskScheduledEventAttributes?.activityType?.name ?? []);
    expect(scheduled).toEqual(['a2a.sendMessage']);
    agent.expectPlayed();
  });

  it('runs again as an activity, with the same input, when the local attempt fails', async () => {
    const { handle, agent } = await temporal.start('delegate', request, [
      { call: 'a2a.resolveAgent', answer: resolved('push') },
      { call: 'a2a.sendMessage', answer: sent() },
      {
        call: 'a2a.getTask',
        answer: () => {
          throw ApplicationFailure.retryable('Agent "compat": no answer for 2 s', 'A2A_AGENT_UNREACHABLE');
        },
      },
      { call: 'a2a.getTask', answer: { ...outcome('completed'), pushConfigDeleted: true } },
    ]);
    expect(await handle.result()).toMatchObject({ state: 'TASK_STATE_COMPLETED' });
    const [local, activity] = agent.inputsOf('a2a.getTask');
    expect(activity).toEqual(local);
    expect(local).toMatchObject({ register: { configId: expect.any(String) } });
    const events = (await handle.fetchHistory()).events ?? [];
    const scheduled = events.flatMap((e) => e.activityTaskScheduledEventAttributes?.activityType?.name ?? []);
    expect(scheduled).toEqual(['a2a.sendMessage', 'a2a.getTask']);
    agent.expectPlayed();
  });
});
