/** Runs an update and turns its failures into CLI sentences (validator rejections, ended workflows). */
import { setTimeout as sleep } from 'node:timers/promises';
import { WorkflowUpdateFailedError, type WorkflowHandle } from '@temporalio/client';
import { ApplicationFailure, WorkflowNotFoundError } from '@temporalio/common';
import type { UpdateDefinition } from '@temporalio/common';
import { CliError } from './cli-error.js';

/** Tries of an update the server rejected unprocessed, and the pause before the first retry (doubling). */
const UNPROCESSED_TRIES = 5;
const UNPROCESSED_PAUSE_MS = 100;

export async function updateOrExplain<Ret, Arg>(
  handle: WorkflowHandle,
  update: UpdateDefinition<Ret, [Arg]>,
  arg: Arg,
): Promise<Ret> {
  try {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await handle.executeUpdate(update, { args: [arg] });
      } catch (err) {
        // The server rejects an update its worker completed a workflow task without seeing (a race
        // under load with signals and other updates): it never reached the workflow, so it is sent again.
        if (!unprocessed(err) || attempt >= UNPROCESSED_TRIES) throw err;
        await sleep(UNPROCESSED_PAUSE_MS * 2 ** (attempt - 1));
      }
    }
  } catch (err) {
    if (err instanceof WorkflowUpdateFailedError) {
      throw new CliError(err.cause?.message ?? err.message, 1, { cause: err });
    }
    // The client reports an update to an ended (or unknown) workflow as WorkflowNotFoundError.
    if (err instanceof WorkflowNotFoundError) {
      throw new CliError(
        `Workflow "${handle.workflowId}" has ended or does not exist; nothing was sent. \`a2a-temporal status ${handle.workflowId}\` shows how it ended.`,
        1,
        { cause: err },
      );
    }
    throw err;
  }
}

/** The server's `UnprocessedUpdate` rejection: the update was delivered, never admitted, and nothing of it is in history. */
function unprocessed(err: unknown): boolean {
  return (
    err instanceof WorkflowUpdateFailedError &&
    err.cause instanceof ApplicationFailure &&
    err.cause.type === 'UnprocessedUpdate'
  );
}
