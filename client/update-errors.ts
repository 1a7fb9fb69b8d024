/** Runs an update and turns its failures into CLI sentences (validator rejections, ended workflows). */
import { WorkflowUpdateFailedError, type WorkflowHandle } from '@temporalio/client';
import { WorkflowNotFoundError } from '@temporalio/common';
import type { UpdateDefinition } from '@temporalio/common';
import { CliError } from './cli-error.js';

export async function updateOrExplain<Ret, Arg>(
  handle: WorkflowHandle,
  update: UpdateDefinition<Ret, [Arg]>,
  arg: Arg,
): Promise<Ret> {
  try {
    return await handle.executeUpdate(update, { args: [arg] });
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
