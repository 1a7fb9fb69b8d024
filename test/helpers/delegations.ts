/** Helpers for tests that run `delegate` workflows against the sample agents. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { WorkflowFailedError, type Client, type WorkflowHandle } from '@temporalio/client';
import { expect } from 'vitest';
import type { Part } from '../../a2a/index.js';
import { AgentRegistry } from '../../activities/index.js';
import { packageRoot } from '../../platform/paths.js';
import {
  delegationStatusQuery,
  type DelegateInput,
  type DelegationStatus,
  type PendingQuestion,
} from '../../contract/index.js';
import { waitFor } from './wait.js';

/** The sample agent's payment-service manifest, as a data part. */
export const manifestPart: Part = {
  data: JSON.parse(
    readFileSync(join(packageRoot, 'agents', 'dependency-compat', 'sample-manifest.json'), 'utf8'),
  ) as Record<string, unknown>,
  mediaType: 'application/json',
} as Part;

/** The request of the seed scenario, without the Node.js version (so the agent asks for it). */
export function compatRequest(overrides: Partial<DelegateInput> = {}): DelegateInput {
  return {
    agent: 'compat',
    label: 'compat',
    text: 'Check the dependencies of payment-service for the upgrade from 1.4.0 to 2.0.0.',
    parts: [manifestPart],
    ...overrides,
  };
}

/** A registry naming running agents by their base URLs. */
export function registryOf(
  agents: Record<string, { baseUrl: string }>,
  auth?: Record<string, { tokenEnv: string }>,
): AgentRegistry {
  return new AgentRegistry({
    agents: Object.fromEntries(
      Object.entries(agents).map(([name, agent]) => [
        name,
        {
          url: agent.baseUrl,
          ...(auth?.[name] ? { auth: { type: 'bearer' as const, tokenEnv: auth[name]!.tokenEnv } } : {}),
        },
      ]),
    ),
  });
}

export function startDelegate(
  client: Client,
  taskQueue: string,
  input: DelegateInput,
  workflowId = `${taskQueue}-delegate`,
): Promise<WorkflowHandle> {
  return client.workflow.start('delegate', { taskQueue, workflowId, args: [input] });
}

/** Waits until the delegation publishes a question (optionally a different one than `after`). */
export function waitForQuestion(handle: WorkflowHandle, after?: PendingQuestion): Promise<PendingQuestion> {
  let last: DelegationStatus | undefined;
  return waitFor(
    async () => {
      const status: DelegationStatus = (last = await handle.query(delegationStatusQuery));
      const q = status.phase === 'waiting-for-input' ? status.question : undefined;
      return q && q.messageId !== after?.messageId ? q : undefined;
    },
    {
      what: `a question from ${handle.workflowId}`,
      seen: () => last && `phase ${last.phase}, rounds ${last.rounds}, question ${last.question?.id ?? 'none'}`,
    },
  );
}

export function statusOf(handle: WorkflowHandle): Promise<DelegationStatus> {
  return handle.query(delegationStatusQuery);
}

/** The cause of a delegation's failure (a test failure when the delegation did not fail). */
export async function failureOf(
  handle: WorkflowHandle,
): Promise<{ type?: string; name?: string; message: string; nonRetryable?: boolean; details?: unknown[] }> {
  const error = await handle.result().then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(error, `${handle.workflowId} ends with a failure`).toBeInstanceOf(WorkflowFailedError);
  return (error as WorkflowFailedError).cause as { type?: string; name?: string; message: string };
}

/** The markdown the Temporal UI shows as the workflow's current details. */
export async function currentDetails(handle: WorkflowHandle): Promise<string> {
  const metadata = (await handle.query('__temporal_workflow_metadata')) as { currentDetails?: string };
  return metadata.currentDetails ?? '';
}
