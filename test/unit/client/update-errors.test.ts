import { WorkflowUpdateFailedError, type WorkflowHandle } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { answerUpdate as answer } from '../../../contract/index.js';
import { describe, expect, it } from 'vitest';
import { CliError } from '../../../client/cli-error.js';
import { updateOrExplain } from '../../../client/update-errors.js';

/** A handle whose updates end as `outcomes` say, in turn (only what updateOrExplain uses). */
function handleOf(outcomes: Array<string | Error>): { handle: WorkflowHandle; calls: () => number } {
  let calls = 0;
  const handle = {
    workflowId: 'wf-1',
    executeUpdate: async () => {
      const outcome = outcomes[Math.min(calls, outcomes.length - 1)]!;
      calls += 1;
      if (outcome instanceof Error) throw outcome;
      return outcome;
    },
  } as unknown as WorkflowHandle;
  return { handle, calls: () => calls };
}

/** What the server answers an update its worker completed a workflow task without processing. */
const unprocessed = () =>
  new WorkflowUpdateFailedError(
    'Workflow Update failed',
    ApplicationFailure.create({
      message: "Workflow Update is rejected because it wasn't processed by worker.",
      type: 'UnprocessedUpdate',
      nonRetryable: true,
    }),
  );

describe('updateOrExplain', () => {
  it('sends again an update the server rejected unprocessed, which never reached the workflow', async () => {
    const { handle, calls } = handleOf([unprocessed(), unprocessed(), 'taken']);
    expect(await updateOrExplain(handle, answer, { text: 'Node.js 22' })).toBe('taken');
    expect(calls()).toBe(3);
  });

  it('gives up after five tries, with the server sentence', async () => {
    const { handle, calls } = handleOf([unprocessed()]);
    const err = await updateOrExplain(handle, answer, { text: 'Node.js 22' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CliError);
    expect((err as Error).message).toMatch(/wasn't processed by worker/);
    expect(calls()).toBe(5);
  });

  it('sends a validator rejection once and says its sentence', async () => {
    const refused = new WorkflowUpdateFailedError(
      'Workflow Update failed',
      ApplicationFailure.create({ message: 'The delegation to compat is not waiting for input.', nonRetryable: true }),
    );
    const { handle, calls } = handleOf([refused]);
    await expect(updateOrExplain(handle, answer, { text: 'x' })).rejects.toThrow(/not waiting for input/);
    expect(calls()).toBe(1);
  });
});
