/**
 * `delegate` continuing as new, against scripted activities on the dev server set to suggest it
 * once a run's history has 70 events (Temporal's time-skipping test server never suggests it).
 * A delegation that waits carries everything the next run reads, and a flood of signals while it
 * waits (an answer or a push notice) cannot grow one run's history without bound.
 */
import type { WorkflowHandle, WorkflowHandleWithFirstExecutionRunId } from '@temporalio/client';
import { describe, expect, it } from 'vitest';
import type { DelegateInput, PendingQuestion, ResumeState } from '../../contract/delegation-types.js';
import { answerSignal, answerUpdate, delegationStatusQuery, taskUpdatedSignal } from '../../contract/messages.js';
import { waitFor } from '../helpers/wait.js';
import { CONTEXT_ID, outcome, resolved, sent, TASK_ID, turn } from './scripted-agent.js';
import { useScriptedWorker } from './support.js';

const temporal = useScriptedWorker({ suggestContinueAsNewAfter: 70 });

const request: DelegateInput = { agent: 'compat', label: 'compat', text: 'Check payment-service for Node.js 24' };
const UNREACHABLE_SINCE = 1_796_000_000_000;
const DROPPED_BYTES = 65_536;

function questionOf(handle: WorkflowHandle, id: string): Promise<PendingQuestion> {
  return waitFor(async () => {
    const { question } = await handle.query(delegationStatusQuery);
    return question?.id === id ? question : undefined;
  });
}

/** Sends `signal` until the delegation's first run has continued as new, and returns that run's successor's input. */
async function floodUntilContinued(
  handle: WorkflowHandleWithFirstExecutionRunId,
  signal: () => Promise<void>,
): Promise<ResumeState> {
  const first = temporal.client().workflow.getHandle(handle.workflowId, handle.firstExecutionRunId);
  for (let sentSignals = 0; (await first.describe()).status.name === 'RUNNING'; sentSignals += 25) {
    expect(sentSignals, 'signals before the run continued as new').toBeLessThan(200);
    // A batch at a time; the last may find the workflow done: the next run can end before the loop looks again.
    await Promise.all(Array.from({ length: 25 }, () => signal().catch((err: unknown) => err)));
  }
  expect((await first.describe()).status.name).toBe('CONTINUED_AS_NEW');
  const history = await temporal.client().workflow.getHandle(handle.workflowId).fetchHistory();
  const started = history.events?.[0]?.workflowExecutionStartedEventAttributes;
  const input = JSON.parse(Buffer.from(started!.input!.payloads![0]!.data!).toString('utf8')) as DelegateInput;
  return input.resume!;
}

describe('delegate across continue-as-new', () => {
  it('carries every field to the next run: the waiting question, question ids, the unreachable clock, the byte budget, the deadline', async () => {
    const { handle, agent } = await temporal.start('delegate', { ...request, mode: 'poll', deadline: '1 day' }, [
      { call: 'a2a.pollMessage', answer: turn(outcome('running')) },
      {
        call: 'a2a.trackTask',
        answer: outcome('auth-required', { text: 'Grant registry access', messageId: 'm-auth' }),
      },
      // Authorized out of band: q1 ends without an answer, and the agent asks q2.
      {
        call: 'a2a.trackTask',
        answer: outcome('input-required', {
          text: 'Which Node.js version?',
          messageId: 'm-node',
          unreachableSince: UNREACHABLE_SINCE,
          droppedBytes: DROPPED_BYTES,
        }),
      },
      // The next run: the answer to q2, then a third question.
      { call: 'a2a.pollMessage', answer: turn(outcome('input-required', { text: 'npm or pnpm?', messageId: 'm-pm' })) },
      { call: 'a2a.pollMessage', answer: turn(outcome('completed')) },
    ]);
    await questionOf(handle, 'q2');
    // Refused answers (they name no waiting question) are history events all the same.
    const resume = await floodUntilContinued(handle, () =>
      handle.signal(answerSignal, { text: 'stale', questionId: 'q0' }),
    );
    expect(resume).toEqual({
      resolved: resolved('poll'),
      taskId: TASK_ID,
      contextId: CONTEXT_ID,
      rounds: 0,
      asked: 2,
      handled: { state: 'TASK_STATE_INPUT_REQUIRED', messageId: 'm-node' },
      question: expect.objectContaining({ id: 'q2', taskId: TASK_ID, text: 'Which Node.js version?' }),
      deadlineAt: expect.any(Number),
      unreachableSince: UNREACHABLE_SINCE,
      droppedBytes: DROPPED_BYTES,
      noticesSent: 0,
    });
    // The question goes on waiting in the new run, under the same id.
    expect(await questionOf(handle, 'q2')).toMatchObject({ messageId: 'm-node' });
    const receipt = await handle.executeUpdate(answerUpdate, { args: [{ text: 'Node.js 24', questionId: 'q2' }] });
    expect(receipt).toMatchObject({ questionId: 'q2', round: 1 });
    await questionOf(handle, 'q3');
    await handle.executeUpdate(answerUpdate, { args: [{ text: 'pnpm', questionId: 'q3' }] });
    expect(await handle.result()).toMatchObject({ state: 'TASK_STATE_COMPLETED', rounds: 2 });
    // The new run's turn went on counting the agent's silence and the bytes it made the
    // delegation drop from where they were, in the delegation's context.
    expect(agent.inputsOf('a2a.pollMessage')[1]).toMatchObject({
      unreachableSince: UNREACHABLE_SINCE,
      droppedBytes: DROPPED_BYTES,
      message: { taskId: TASK_ID, contextId: CONTEXT_ID },
    });
    agent.expectPlayed();
  });

  it('continues as new while push mode waits for a notice, keeping its push config', async () => {
    const { handle, agent } = await temporal.start('delegate', { ...request, mode: 'push' }, [
      { call: 'a2a.sendMessage', answer: sent() },
      // The first read registers the config.
      { call: 'a2a.getTask', answer: outcome('running') },
      // The next run reads the task at once, naming the config it carried; the task has ended,
      // and its config with it (A2A): nothing is deleted.
      { call: 'a2a.getTask', answer: outcome('completed') },
    ]);
    await waitFor(async () => agent.inputsOf('a2a.getTask').length === 1);
    // Notices about another task wake nothing, but each is an event.
    const resume = await floodUntilContinued(handle, () =>
      handle.signal(taskUpdatedSignal, { taskId: 'another-task', kind: 'statusUpdate' }),
    );
    const configId = agent.inputsOf('a2a.getTask')[0]!.register!.configId;
    expect(resume).toMatchObject({ taskId: TASK_ID, pushConfigId: configId });
    // Each read names the delegation's context: a task of another conversation is refused.
    expect(agent.inputsOf('a2a.getTask')[0]).toMatchObject({ taskId: TASK_ID, contextId: CONTEXT_ID });
    expect(await handle.result()).toMatchObject({ state: 'TASK_STATE_COMPLETED' });
    expect(agent.inputsOf('a2a.getTask')[1]).toMatchObject({ pushConfigId: configId });
    expect(agent.inputsOf('a2a.getTask')[1]).not.toHaveProperty('register');
    expect(agent.inputsOf('a2a.deletePushConfig')).toEqual([]);
    agent.expectPlayed();
  });
});
