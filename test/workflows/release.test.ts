/**
 * The `release` coordinator against scripted activities on Temporal's time-skipping test server:
 * its child delegations each play their own script.
 */
import { ApplicationFailure } from '@temporalio/common';
import { describe, expect, it } from 'vitest';
import { sampleReleaseInput } from '../../client/sample-release.js';
import { releaseStatusQuery, type ReleaseResult, type ReleaseStatus } from '../../contract/index.js';
import { outcome, resolved, sent, task } from './scripted-agent.js';
import { useScriptedWorker } from './support.js';

const temporal = useScriptedWorker('time-skipping');

describe('release', () => {
  it('ends failed without waiting for approval when its delegations fail, reporting each failure', async () => {
    const invalid = ApplicationFailure.nonRetryable(
      'Agent "license": the task is not valid JSON',
      'A2A_INVALID_RESPONSE',
    );
    const { handle, agents } = await temporal.startCoordinator('release', sampleReleaseInput({ mode: 'poll' }), {
      compat: [
        { call: 'a2a.resolveAgent', answer: resolved('poll') },
        { call: 'a2a.sendMessage', answer: sent(outcome('failed', { text: 'backend down', messageId: 'm1' })) },
      ],
      changelog: [
        { call: 'a2a.resolveAgent', answer: resolved('poll') },
        { call: 'a2a.sendMessage', answer: sent(outcome('rejected', { text: 'no changelog here', messageId: 'm2' })) },
      ],
      license: [
        { call: 'a2a.resolveAgent', answer: resolved('poll') },
        { call: 'a2a.sendMessage', answer: sent() },
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
});
