/**
 * The `release` coordinator against scripted activities on Temporal's time-skipping test server:
 * its child delegations each play their own script.
 */
import { WorkflowUpdateFailedError, type WorkflowHandle } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { describe, expect, it } from 'vitest';
import { sampleReleaseInput } from '../../client/sample-release.js';
import {
  answerSignal,
  approveUpdate,
  releaseAnswerUpdate,
  releaseStatusQuery,
  type AnswerInput,
  type ReleaseResult,
  type ReleaseStatus,
} from '../../contract/index.js';
import { waitFor } from '../helpers/wait.js';
import { outcome, task, turn } from './scripted-agent.js';
import { useScriptedWorker } from './support.js';

const temporal = useScriptedWorker('time-skipping');

describe('release', () => {
  it('ends failed without waiting for approval when its delegations fail, reporting each failure', async () => {
    const invalid = ApplicationFailure.nonRetryable(
      'Agent "license": the task is not valid JSON',
      'A2A_INVALID_RESPONSE',
    );
    const { handle, agents } = await temporal.startCoordinator('release', sampleReleaseInput({ mode: 'poll' }), {
      compat: [{ call: 'a2a.pollMessage', answer: turn(outcome('failed', { text: 'backend down', messageId: 'm1' })) }],
      changelog: [
        { call: 'a2a.pollMessage', answer: turn(outcome('rejected', { text: 'no changelog here', messageId: 'm2' })) },
      ],
      license: [
        { call: 'a2a.pollMessage', answer: turn(outcome('running')) },
        { call: 'a2a.trackTask', answer: () => Promise.reject(invalid) },
        { call: 'a2a.cancelTask', answer: task('TASK_STATE_CANCELED') },
      ],
    });
    const result = (await handle.result()) as ReleaseResult;
    expect(result.outcome).toBe('failed');
    expect(result.reason).toBe(
      'The dependency analysis by compat did not complete: Agent "compat" failed task task-1: backend down',
    );
    expect(result.decision).toBeUndefined();
    expect(result.report?.checks.map(({ label, outcome }) => ({ label, outcome }))).toEqual([
      { label: 'changelog', outcome: 'rejected' },
      { label: 'license', outcome: 'failed' },
    ]);
    const status: ReleaseStatus = await handle.query(releaseStatusQuery);
    expect(status.delegations.map(({ label, phase }) => ({ label, phase }))).toEqual([
      { label: 'compat', phase: 'failed' },
      { label: 'changelog', phase: 'failed' },
      { label: 'license', phase: 'failed' },
    ]);
    expect(status.questions).toEqual([]);
    for (const agent of Object.values(agents)) agent.expectPlayed();
  });
  it('refuses a late duplicate of the answer a delegation just got, as the delegation does, unless it names the question', async () => {
    const ask = (n: number) =>
      outcome('input-required', { text: `Question ${String(n)}?`, messageId: `m-${String(n)}` });
    const { handle, agents } = await temporal.startCoordinator('release', sampleReleaseInput({ mode: 'poll' }), {
      compat: [
        { call: 'a2a.pollMessage', answer: turn(outcome('running')) },
        { call: 'a2a.trackTask', answer: ask(1) },
        { call: 'a2a.pollMessage', answer: turn(ask(2)) },
        { call: 'a2a.pollMessage', answer: turn(ask(3)) },
        { call: 'a2a.pollMessage', answer: turn(outcome('completed')) },
      ],
      changelog: [{ call: 'a2a.pollMessage', answer: turn(outcome('completed')) }],
      license: [{ call: 'a2a.pollMessage', answer: turn(outcome('completed')) }],
      'compat-sorted': [{ call: 'a2a.pollMessage', answer: turn(outcome('completed')) }],
    });
    const answer = (a: AnswerInput) => handle.executeUpdate(releaseAnswerUpdate, { args: [a] });
    await questionOfRelease(handle, 'q1');
    expect(await answer({ text: 'Node.js 22' })).toMatchObject({ label: 'compat', questionId: 'q1' });
    await questionOfRelease(handle, 'q2');

    // Without a question id, or bound to the question that waited when the caller started.
    for (const late of [{ text: 'Node.js 22' }, { text: ' Node.js 22 ', questionId: 'q2', boundToPending: true }]) {
      expect(await refusalOf(answer(late))).toMatch(
        /^This answer repeats the one question q1 just got, and question q2 of the delegation to compat of release release-\S+ was asked \d+ s ago, so it is taken for a late duplicate of that answer; nothing was sent\. To give question q2 the same answer on purpose, name it: a2a-temporal answer <id> --question q2 "<text>"/,
      );
    }
    // The signal drops it; the answer meant for q2 is then taken.
    await handle.signal(answerSignal, { text: 'Node.js 22' });
    expect(await answer({ text: 'pnpm' })).toMatchObject({ questionId: 'q2' });
    await questionOfRelease(handle, 'q3');
    // Named on purpose, the same text answers the new question at once.
    expect(await answer({ text: 'pnpm', questionId: 'q3' })).toMatchObject({ questionId: 'q3' });
    await waitFor(async () => (await releaseStatusOf(handle)).phase === 'awaiting-approval');
    await handle.executeUpdate(approveUpdate, { args: [{ by: 'release-manager' }] });
    expect(((await handle.result()) as ReleaseResult).outcome).toBe('approved');
    const answers = agents.compat!.inputsOf('a2a.pollMessage').map((input) => input.message.parts);
    expect(answers.slice(1)).toEqual([[{ text: 'Node.js 22' }], [{ text: 'pnpm' }], [{ text: 'pnpm' }]]);
    for (const agent of Object.values(agents)) agent.expectPlayed();
  });
});

function releaseStatusOf(handle: WorkflowHandle): Promise<ReleaseStatus> {
  return handle.query(releaseStatusQuery);
}

/** Waits until the release relays question `id`. */
function questionOfRelease(handle: WorkflowHandle, id: string): Promise<unknown> {
  return waitFor(async () => (await releaseStatusOf(handle)).questions.find((q) => q.id === id));
}

/** The refusal's sentence, or undefined when the update took the answer. */
function refusalOf(update: Promise<unknown>): Promise<string | undefined> {
  return update.then(
    () => undefined,
    (err: unknown) => {
      expect(err).toBeInstanceOf(WorkflowUpdateFailedError);
      return ((err as WorkflowUpdateFailedError).cause as Error).message;
    },
  );
}
