/**
 * `delegate` against scripted activities on Temporal's time-skipping test server: each way a
 * delegation goes, in well under a second, with deadlines of hours that take no time. The wire
 * (real agents, real bytes) is the integration suite's; this is the workflow's logic alone.
 */
import { WorkflowFailedError, type WorkflowHandle } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { describe, expect, it } from 'vitest';
import type { SendMessageInput } from '../../activities/index.js';
import { answerUpdate, FailureType, type DelegateInput, type DelegateResult } from '../../contract/index.js';
import { heldUntilCancelled, heldUntilReleased, outcome, resolved, task, TASK_ID, turn } from './scripted-agent.js';
import { questionOf, statusOf, useScriptedWorker } from './support.js';
import { currentDetails } from '../helpers/delegations.js';
import { waitFor } from '../helpers/wait.js';

const temporal = useScriptedWorker('time-skipping');

const request: DelegateInput = { agent: 'compat', label: 'compat', text: 'Check payment-service for Node.js 24' };
const nodeQuestion = { text: 'Which Node.js version?', messageId: 'm-node' };

async function failureOf(handle: WorkflowHandle): Promise<ApplicationFailure> {
  const err = await handle.result().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(WorkflowFailedError);
  return (err as WorkflowFailedError).cause as ApplicationFailure;
}

describe('delegate', () => {
  it('completes without a tracking round when the turn that sent already decided it', async () => {
    const { handle, agent } = await temporal.start('delegate', { ...request, mode: 'poll' }, [
      { call: 'a2a.pollMessage', answer: turn(outcome('completed', { report: 'all compatible' })) },
    ]);
    const result = (await handle.result()) as DelegateResult;
    expect(result).toMatchObject({ kind: 'task', taskId: TASK_ID, state: 'TASK_STATE_COMPLETED', rounds: 0 });
    expect(result.artifacts).toEqual([{ artifactId: 'report', parts: [{ text: 'all compatible' }] }]);
    agent.expectPlayed();
  });

  it('sends the answer to its question on the same task and context, then completes', async () => {
    const { handle, agent } = await temporal.start('delegate', { ...request, mode: 'stream' }, [
      { call: 'a2a.streamMessage', answer: turn(outcome('input-required', nodeQuestion)) },
      { call: 'a2a.streamMessage', answer: turn(outcome('completed', { report: 'sharp: high' })) },
    ]);
    const question = await questionOf(handle, 'q1');
    expect(question).toMatchObject({ taskId: TASK_ID, state: 'TASK_STATE_INPUT_REQUIRED', text: nodeQuestion.text });
    const receipt = await handle.executeUpdate(answerUpdate, { args: [{ text: 'Node.js 24', questionId: 'q1' }] });
    expect(receipt).toMatchObject({ taskId: TASK_ID, questionId: 'q1', round: 1 });
    expect(await handle.result()).toMatchObject({ state: 'TASK_STATE_COMPLETED', rounds: 1 });
    const answer = agent.inputsOf('a2a.streamMessage')[1]!.message;
    expect(answer).toMatchObject({ taskId: TASK_ID, contextId: 'context-1', parts: [{ text: 'Node.js 24' }] });
    expect(answer.messageId).toBe(receipt.messageId);
    agent.expectPlayed();
  });

  it('goes on when the agent resumes an auth question by itself; its next question is q2', async () => {
    // Watched while the auth question waits: authorized out of band, the agent asks the next question.
    const resumed = heldUntilReleased(outcome('input-required', nodeQuestion));
    const { handle, agent } = await temporal.start('delegate', { ...request, mode: 'poll' }, [
      {
        call: 'a2a.pollMessage',
        answer: turn(outcome('auth-required', { text: 'Grant registry access', messageId: 'm-auth' })),
      },
      { call: 'a2a.trackTask', answer: resumed.answer },
      { call: 'a2a.pollMessage', answer: turn(outcome('completed')) },
    ]);
    expect(await questionOf(handle, 'q1')).toMatchObject({ state: 'TASK_STATE_AUTH_REQUIRED' });
    resumed.release();
    expect(await questionOf(handle, 'q2')).toMatchObject({ state: 'TASK_STATE_INPUT_REQUIRED' });
    await handle.executeUpdate(answerUpdate, { args: [{ text: 'Node.js 24', questionId: 'q2' }] });
    expect(await handle.result()).toMatchObject({ state: 'TASK_STATE_COMPLETED', rounds: 1 });
    // The watch followed the task as the question it already had; the answer went to the task.
    expect(agent.inputsOf('a2a.trackTask')[0]!.handled).toMatchObject({ messageId: 'm-auth' });
    expect(agent.inputsOf('a2a.pollMessage')[1]!.message.parts).toEqual([{ text: 'Node.js 24' }]);
    agent.expectPlayed();
  });

  it('cancels the remote task when nobody answers within the input deadline', async () => {
    const { handle, agent } = await temporal.start('delegate', { ...request, mode: 'poll', inputTimeout: '1 hour' }, [
      { call: 'a2a.pollMessage', answer: turn(outcome('input-required', nodeQuestion)) },
      { call: 'a2a.cancelTask', answer: task('TASK_STATE_CANCELED') },
    ]);
    await questionOf(handle, 'q1');
    const failure = await failureOf(handle); // the hour passes as the test server skips time
    expect(failure.type).toBe(FailureType.inputTimeout);
    expect(failure.message).toMatch(
      /^Nobody answered compat's question within 1 hour .*the remote task task-1 was canceled/,
    );
    expect(agent.inputsOf('a2a.cancelTask')).toMatchObject([{ taskId: TASK_ID }]);
    expect(await statusOf(handle)).toMatchObject({ phase: 'failed', state: 'TASK_STATE_CANCELED' });
    agent.expectPlayed();
  });

  it('fails at its deadline while the question waits, and cancels the remote task', async () => {
    const { handle, agent } = await temporal.start('delegate', { ...request, mode: 'poll', deadline: '1 day' }, [
      { call: 'a2a.pollMessage', answer: turn(outcome('input-required', nodeQuestion)) },
      { call: 'a2a.cancelTask', answer: task('TASK_STATE_CANCELED') },
    ]);
    await questionOf(handle, 'q1');
    const failure = await failureOf(handle); // the day passes as the test server skips time
    expect(failure.type).toBe(FailureType.deadlineExceeded);
    expect(failure.message).toBe(
      `Agent "compat" did not finish task task-1 (last seen TASK_STATE_INPUT_REQUIRED) within the delegation's deadline of 1 day; the remote task was canceled. Raise the deadline, or ask the agent for less.`,
    );
    expect(agent.inputsOf('a2a.cancelTask')).toMatchObject([{ taskId: TASK_ID }]);
    expect(await statusOf(handle)).toMatchObject({ phase: 'failed', state: 'TASK_STATE_CANCELED' });
    agent.expectPlayed();
  });

  it('names the state the turn it cut short saw last, before the workflow had the task', async () => {
    // A stream turn hands the task over when it ends; the deadline passes while it still runs
    // (in real time: the test server does not skip time while an activity runs).
    const turnRunning = heldUntilCancelled({ taskId: TASK_ID, state: 'TASK_STATE_WORKING', events: 2, artifacts: [] });
    const tracking = { heartbeatTimeout: '1 second' };
    const { handle, agent } = await temporal.start(
      'delegate',
      { ...request, mode: 'stream', deadline: '1 second', tracking },
      [
        { call: 'a2a.streamMessage', answer: turnRunning.answer },
        { call: 'a2a.cancelTask', answer: task('TASK_STATE_CANCELED') },
      ],
    );
    const failure = await failureOf(handle);
    expect(failure.message).toMatch(
      /^Agent "compat" did not finish task task-1 \(last seen TASK_STATE_WORKING\) within/,
    );
    expect(agent.inputsOf('a2a.cancelTask')).toMatchObject([{ taskId: TASK_ID }]);
    agent.expectPlayed();
  });

  it('cancels the task it leaves running when it fails on what the agent sent', async () => {
    const invalid = ApplicationFailure.nonRetryable(
      'Agent "compat": the task is not valid JSON',
      'A2A_INVALID_RESPONSE',
    );
    const { handle, agent } = await temporal.start('delegate', { ...request, mode: 'poll' }, [
      { call: 'a2a.pollMessage', answer: turn(outcome('running')) },
      { call: 'a2a.trackTask', answer: () => Promise.reject(invalid) },
      { call: 'a2a.cancelTask', answer: task('TASK_STATE_CANCELED') },
    ]);
    const failure = await failureOf(handle);
    expect(failure).toMatchObject({ type: 'A2A_INVALID_RESPONSE', message: invalid.message });
    expect(await statusOf(handle)).toMatchObject({
      phase: 'failed',
      error: invalid.message,
      remoteCancel: 'the agent reports TASK_STATE_CANCELED',
    });
    agent.expectPlayed();
  });

  it('ends CANCELED when a person cancels it, whatever the agent answers to CancelTask', async () => {
    const refused = ApplicationFailure.nonRetryable(
      'Agent "compat" answered CancelTask with an event stream',
      'A2A_INVALID_RESPONSE',
    );
    const { handle, agent } = await temporal.start('delegate', { ...request, mode: 'poll' }, [
      { call: 'a2a.pollMessage', answer: turn(outcome('input-required', nodeQuestion)) },
      { call: 'a2a.cancelTask', answer: () => Promise.reject(refused) },
    ]);
    await questionOf(handle, 'q1');
    await handle.cancel();
    await expect(handle.result()).rejects.toThrow(WorkflowFailedError);
    expect((await handle.describe()).status.name).toBe('CANCELLED');
    const status = await statusOf(handle);
    expect(status.phase).toBe('canceled');
    expect(status.remoteCancel).toMatch(/^CancelTask failed: .*answered CancelTask with an event stream/);
    agent.expectPlayed();
  });

  // A person cancels while the poll turn runs: the task it named (its failure's details say
  // which), or before the agent named one, the task of the message in flight, is canceled.
  for (const named of [true, false])
    it(`cancels the task of a poll turn cancelled ${named ? 'after' : 'before'} the agent named it`, async () => {
      const turnRunning = heldUntilCancelled({ taskId: named ? TASK_ID : '', events: named ? 1 : 0, artifacts: [] });
      // A short heartbeat timeout: the turn hears the cancel with its next heartbeat.
      const tracking = { heartbeatTimeout: '1 second' };
      const { handle, agent } = await temporal.start('delegate', { ...request, mode: 'poll', tracking }, [
        { call: 'a2a.pollMessage', answer: turnRunning.answer },
        { call: 'a2a.cancelTask', answer: task('TASK_STATE_CANCELED') },
      ]);
      await turnRunning.started;
      await handle.cancel();
      await expect(handle.result()).rejects.toThrow(WorkflowFailedError);
      const [cancel] = agent.inputsOf('a2a.cancelTask');
      if (named) expect(cancel).toEqual({ agent: expect.anything(), taskId: TASK_ID });
      else expect(cancel).toEqual({ agent: expect.anything(), sent: agent.inputsOf('a2a.pollMessage')[0]!.message });
      expect(await statusOf(handle)).toMatchObject({
        phase: 'canceled',
        remoteCancel: 'the agent reports TASK_STATE_CANCELED',
      });
      agent.expectPlayed();
    });

  // Push mode's send the same way; its failure also names the config it may have registered,
  // which is deleted on the way out (unless the send was to resolve the agent: its task's cancel
  // ends the config then).
  for (const { named, resolvedFirst } of [
    { named: true, resolvedFirst: true },
    { named: false, resolvedFirst: true },
    { named: true, resolvedFirst: false },
  ])
    it(`cancels the task of a push send cancelled ${named ? 'after' : 'before'} the agent named it${resolvedFirst ? '' : ', the agent given by name'}`, async () => {
      let configId = '';
      const sending = heldUntilCancelled(({ push }: SendMessageInput) => {
        configId = push && 'register' in push ? push.register.configId : '';
        return { taskId: named ? TASK_ID : '', events: 0, artifacts: [], ...(named ? { pushConfigId: configId } : {}) };
      });
      const tracking = { heartbeatTimeout: '1 second' };
      const deletes = named && resolvedFirst;
      const { handle, agent } = await temporal.start(
        'delegate',
        { ...request, mode: resolvedFirst ? 'auto' : 'push', tracking },
        [
          ...(resolvedFirst ? [{ call: 'a2a.resolveAgent' as const, answer: resolved('push') }] : []),
          { call: 'a2a.sendMessage', answer: sending.answer },
          { call: 'a2a.cancelTask', answer: task('TASK_STATE_CANCELED') },
          ...(deletes ? [{ call: 'a2a.deletePushConfig' as const, answer: undefined }] : []),
        ],
      );
      await sending.started;
      await handle.cancel();
      await expect(handle.result()).rejects.toThrow(WorkflowFailedError);
      expect((await handle.describe()).status.name).toBe('CANCELLED');
      const [cancel] = agent.inputsOf('a2a.cancelTask');
      if (named) expect(cancel).toEqual({ agent: expect.anything(), taskId: TASK_ID });
      else expect(cancel).toEqual({ agent: expect.anything(), sent: agent.inputsOf('a2a.sendMessage')[0]!.message });
      expect(agent.inputsOf('a2a.deletePushConfig')).toEqual(
        deletes ? [{ agent: expect.anything(), taskId: TASK_ID, configId }] : [],
      );
      expect(configId).not.toBe('');
      agent.expectPlayed();
    });

  it("shows the agent's silence in the UI's current details while it lasts, and clears it once the agent answers", async () => {
    const since = Date.parse('2026-01-05T14:02:11.000Z');
    const silent = {
      ...outcome('running', { unreachableSince: since }),
      silence: {
        lastError: 'GetTask could not complete because the connection failed (ECONNREFUSED)',
        attempts: 3,
        givesUpAt: since + 120_000,
      },
    };
    // Each round after the first is held until the test has read what the UI shows.
    const answered = heldUntilReleased(outcome('running'));
    const completed = heldUntilReleased(outcome('completed', { report: 'all compatible' }));
    const { handle, agent } = await temporal.start('delegate', { ...request, mode: 'poll' }, [
      { call: 'a2a.pollMessage', answer: turn(outcome('running')) },
      { call: 'a2a.trackTask', answer: silent },
      { call: 'a2a.trackTask', answer: answered.answer },
      { call: 'a2a.trackTask', answer: completed.answer },
    ]);
    const line =
      'agent unreachable since 14:02:11Z (last: GetTask could not complete because the connection failed (ECONNREFUSED)); gives up at 14:04:11Z';
    expect(await waitFor(async () => ((await currentDetails(handle)).includes(line) ? line : undefined))).toBe(line);
    // The next round went on counting the silence from the same moment.
    expect(agent.inputsOf('a2a.trackTask')[1]!.unreachableSince).toBe(since);
    answered.release();
    await waitFor(async () => !(await currentDetails(handle)).includes('unreachable'));
    expect(await currentDetails(handle)).toMatch(
      /^\*\*Delegation to compat \(compat\)\*\* · poll mode\n\nPhase: \*\*working\*\*/,
    );
    completed.release();
    expect(await handle.result()).toMatchObject({ state: 'TASK_STATE_COMPLETED' });
    agent.expectPlayed();
  });
});
