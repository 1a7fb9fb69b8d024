/**
 * Push mode's reads: the one its send makes (registering the config, and reading again, when the
 * task still works), then those after a delivery, tried first as a local activity (one marker in history) and, when that attempt
 * fails, as an activity with its retries, heartbeats and status.
 */
import { ApplicationFailure } from '@temporalio/common';
import { describe, expect, it } from 'vitest';
import { answerUpdate, type DelegateInput } from '../../contract/index.js';
import { taskUpdatedSignal } from '../../contract/messages.js';
import { outcome, sent, task, TASK_ID } from './scripted-agent.js';
import { questionOf, useScriptedWorker } from './support.js';

const temporal = useScriptedWorker('time-skipping');

const request: DelegateInput = { agent: 'compat', label: 'compat', text: 'Check payment-service', mode: 'push' };

/** The send's answer when its activity registered `configId` (if any) and then read the task (`read`). */
function sentAndRead(read: ReturnType<typeof outcome>, configId?: string) {
  return (input: { push?: unknown }) => {
    expect(input.push).toBeDefined();
    return {
      kind: 'task' as const,
      task: task('TASK_STATE_WORKING'),
      adopted: false,
      read,
      ...(configId ? { pushConfigRegistered: configId } : {}),
    };
  };
}

describe('a push send', () => {
  it('registers the config and reads the task itself: a task that decided by then needs nothing more', async () => {
    const { handle, agent } = await temporal.start('delegate', request, [
      {
        call: 'a2a.sendMessage',
        answer: (input) =>
          sentAndRead(
            outcome('completed', { report: 'ok' }),
            (input.push as { register: { configId: string } }).register.configId,
          )(input),
      },
    ]);
    expect(await handle.result()).toMatchObject({ state: 'TASK_STATE_COMPLETED' });
    const events = (await handle.fetchHistory()).events ?? [];
    expect(events.filter((e) => e.markerRecordedEventAttributes)).toEqual([]); // the send resolved the card, nothing read after
    // A config lasts until its task ends: nothing is deleted (the script plays no deletePushConfig).
    agent.expectPlayed();
  });

  it('of an answer reads the task its config is for; a task still running is read on the next news (here the safety net)', async () => {
    let configId = '';
    const { handle, agent } = await temporal.start('delegate', request, [
      {
        call: 'a2a.sendMessage',
        answer: (input) => {
          configId = (input.push as { register: { configId: string } }).register.configId;
          return sentAndRead(outcome('input-required', { text: 'Which Node.js?', messageId: 'q1' }), configId)(input);
        },
      },
      { call: 'a2a.sendMessage', answer: (input) => sentAndRead(outcome('running'))(input) },
      { call: 'a2a.getTask', answer: outcome('completed') },
    ]);
    await questionOf(handle, 'q1');
    await handle.executeUpdate(answerUpdate, { args: [{ text: 'Node.js 24', questionId: 'q1' }] });
    expect(await handle.result()).toMatchObject({ state: 'TASK_STATE_COMPLETED' });
    const [, answer] = agent.inputsOf('a2a.sendMessage');
    expect(answer?.push).toEqual({ registered: { taskId: TASK_ID, configId } });
    const [read] = agent.inputsOf('a2a.getTask');
    expect(read).not.toHaveProperty('register'); // the send registered it
    expect(read).toMatchObject({ pushConfigId: configId });
    agent.expectPlayed();
  });
  it('holds no config at a question the send found: the send of the answer registers one for the task', async () => {
    let configId = '';
    const { handle, agent } = await temporal.start('delegate', request, [
      // The first read found the question: the activity registered nothing.
      {
        call: 'a2a.sendMessage',
        answer: sentAndRead(outcome('input-required', { text: 'Which Node.js?', messageId: 'q1' })),
      },
      {
        call: 'a2a.sendMessage',
        answer: (input) => {
          configId = (input.push as { register: { configId: string } }).register.configId;
          return sentAndRead(outcome('running'), configId)(input);
        },
      },
      { call: 'a2a.getTask', answer: outcome('completed') },
    ]);
    await questionOf(handle, 'q1');
    await handle.executeUpdate(answerUpdate, { args: [{ text: 'Node.js 24', questionId: 'q1' }] });
    expect(await handle.result()).toMatchObject({ state: 'TASK_STATE_COMPLETED' });
    const [first] = agent.inputsOf('a2a.sendMessage');
    expect(first?.push).toMatchObject({ register: { configId: expect.any(String) } });
    expect(configId).not.toBe((first?.push as { register: { configId: string } }).register.configId);
    expect(agent.inputsOf('a2a.getTask')[0]).toMatchObject({ pushConfigId: configId });
    expect(agent.inputsOf('a2a.registerPushConfig')).toEqual([]);
    agent.expectPlayed();
  });

  it('takes a delivery signalled while it runs (the receiver could not ask) and reads after it, not at the safety net', async () => {
    let started: () => void = () => {};
    const handleKnown = new Promise<void>((resolve) => (started = resolve));
    let workflowId = '';
    const { handle, agent } = await temporal.start('delegate', request, [
      {
        call: 'a2a.sendMessage',
        answer: async (input) => {
          const { configId } = (input.push as { register: { configId: string } }).register;
          await handleKnown;
          // The task is not known to the delegation yet: only the send's result tells it.
          await temporal.client().workflow.getHandle(workflowId).signal(taskUpdatedSignal, {
            taskId: TASK_ID,
            kind: 'statusUpdate',
            state: 'TASK_STATE_COMPLETED',
            configId,
          });
          return sentAndRead(outcome('running'), configId)(input);
        },
      },
      { call: 'a2a.getTask', answer: outcome('completed') },
    ]);
    workflowId = handle.workflowId;
    started();
    expect(await handle.result()).toMatchObject({ state: 'TASK_STATE_COMPLETED' });
    const events = (await handle.fetchHistory()).events ?? [];
    expect(events.filter((e) => e.timerFiredEventAttributes)).toEqual([]);
    agent.expectPlayed();
  });
});

describe('a push read', () => {
  it('is one local activity when the agent answers it', async () => {
    const { handle, agent } = await temporal.start('delegate', request, [
      { call: 'a2a.sendMessage', answer: sent() },
      { call: 'a2a.getTask', answer: outcome('completed') },
    ]);
    expect(await handle.result()).toMatchObject({ state: 'TASK_STATE_COMPLETED' });
    const events = (await handle.fetchHistory()).events ?? [];
    const scheduled = events.flatMap((e) => e.activityTaskScheduledEventAttributes?.activityType?.name ?? []);
    expect(scheduled).toEqual(['a2a.sendMessage']);
    agent.expectPlayed();
  });

  it('runs again as an activity, with the same input, when the local attempt fails', async () => {
    const { handle, agent } = await temporal.start('delegate', request, [
      { call: 'a2a.sendMessage', answer: sent() },
      {
        call: 'a2a.getTask',
        answer: () => {
          throw ApplicationFailure.retryable('Agent "compat": no answer for 2 s', 'A2A_AGENT_UNREACHABLE');
        },
      },
      { call: 'a2a.getTask', answer: outcome('completed') },
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
