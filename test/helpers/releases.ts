/** Helpers for tests that run the release coordinator against the sample agents. */
import type { Client, WorkflowHandle } from '@temporalio/client';
import { sampleReleaseInput } from '../../client/sample-release.js';
import {
  releaseStatusQuery,
  type ReleaseInput,
  type ReleasePhase,
  type ReleaseQuestion,
  type ReleaseStatus,
} from '../../contract/index.js';
import { waitFor } from './wait.js';

/** The reference release (see client/sample-release.ts) with test-specific overrides. */
export const releaseInput = sampleReleaseInput;

export function startRelease(
  client: Client,
  taskQueue: string,
  input: ReleaseInput,
  workflowId = `${taskQueue}-release`,
): Promise<WorkflowHandle> {
  return client.workflow.start('release', { taskQueue, workflowId, args: [input] });
}

export function releaseStatus(handle: WorkflowHandle): Promise<ReleaseStatus> {
  return handle.query(releaseStatusQuery);
}

/** Waits until `count` questions are pending and returns them. */
export function waitForQuestions(handle: WorkflowHandle, count = 1): Promise<ReleaseQuestion[]> {
  return waitFor(
    async () => {
      const { questions } = await releaseStatus(handle);
      return questions.length >= count ? questions : undefined;
    },
    { what: `${count} question(s) from ${handle.workflowId}` },
  );
}

export function waitForPhase(handle: WorkflowHandle, phase: ReleasePhase): Promise<ReleaseStatus> {
  return waitFor(
    async () => {
      const status = await releaseStatus(handle);
      return status.phase === phase ? status : undefined;
    },
    { what: `phase ${phase} of ${handle.workflowId}` },
  );
}
