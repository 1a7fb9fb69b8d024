/** Finds a workflow by id and tells releases from delegations, with sentences for what goes wrong. */
import type { WorkflowExecutionDescription, WorkflowHandle } from '@temporalio/client';
import { WorkflowNotFoundError } from '@temporalio/common';
import { CliError } from './cli-error.js';
import type { CliContext } from './context.js';

export type TargetKind = 'release' | 'delegation';

export interface Target {
  kind: TargetKind;
  handle: WorkflowHandle;
  description: WorkflowExecutionDescription;
  /** True while the workflow runs. */
  running: boolean;
}

/** @throws CliError when the id names no workflow, or a workflow that is neither a release nor a delegation. */
export async function findTarget(
  context: Pick<CliContext, 'client' | 'namespace'>,
  workflowId: string,
): Promise<Target> {
  const handle = context.client.workflow.getHandle(workflowId);
  let description: WorkflowExecutionDescription;
  try {
    description = await handle.describe();
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) {
      throw new CliError(
        `No workflow "${workflowId}" in namespace ${context.namespace}; \`a2a-temporal list\` shows the ones there are.`,
        1,
        { cause: err },
      );
    }
    throw err;
  }
  const kind = description.type === 'release' ? 'release' : description.type === 'delegate' ? 'delegation' : undefined;
  if (!kind) {
    throw new CliError(
      `Workflow "${workflowId}" is a ${description.type} workflow, not a release or a delegation; use the temporal CLI for it.`,
    );
  }
  return { kind, handle, description, running: description.status.name === 'RUNNING' };
}

/** The sentence for an update or signal sent to a workflow that has already ended. */
export function endedError(target: Target, action: string): CliError {
  return new CliError(
    `Workflow "${target.handle.workflowId}" has already ended (${target.description.status.name.toLowerCase()}); ${action}. \`a2a-temporal status ${target.handle.workflowId}\` shows how it ended.`,
  );
}

/** Runs a query with a short deadline: without a running worker a query would otherwise wait a long time. */
export async function quickQuery<T>(
  context: Pick<CliContext, 'client'>,
  query: () => Promise<T>,
  deadlineMs = 3_000,
): Promise<T | undefined> {
  try {
    return await context.client.connection.withDeadline(Date.now() + deadlineMs, query);
  } catch {
    return undefined;
  }
}
