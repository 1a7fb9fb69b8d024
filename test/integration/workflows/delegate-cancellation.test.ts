import { WorkflowFailedError, type WorkflowHandle } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createA2AClient, fetchAgentCard } from '../../../a2a/index.js';
import { startDependencyCompatAgent, type RunningAgent } from '../../../agents/index.js';
import { trackingProgress } from '../../../client/tracking-progress.js';
import { a2aTemporalPlugin } from '../../../worker/plugin.js';
import { FailureType } from '../../../contract/index.js';
import { compatRequest, registryOf, startDelegate, statusOf, waitForQuestion } from '../../helpers/delegations.js';
import { uniqueTaskQueue, useTemporal } from '../../helpers/temporal.js';
import { waitFor } from '../../helpers/wait.js';

const temporal = useTemporal();
let agent: RunningAgent;

beforeAll(async () => {
  agent = await startDependencyCompatAgent({ port: 0, workDelayMs: 0, chunkDelayMs: 10 });
});
afterAll(() => agent?.close());

async function remoteState(taskId: string) {
  const { card } = await fetchAgentCard(agent.baseUrl);
  return (await createA2AClient({ card }).getTask({ id: taskId })).status.state;
}

async function failureOf(handle: WorkflowHandle) {
  const error = await handle.result().then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(error).toBeInstanceOf(WorkflowFailedError);
  return (error as WorkflowFailedError).cause as { type?: string; name?: string; message: string };
}

async function withWorker<T>(fn: (taskQueue: string) => Promise<T>): Promise<T> {
  const taskQueue = uniqueTaskQueue('cancel');
  const worker = await temporal.worker({
    taskQueue,
    plugins: [a2aTemporalPlugin({ registry: registryOf({ compat: agent }) })],
  });
  return worker.runUntil(fn(taskQueue));
}

describe('cancelling a delegation', () => {
  for (const mode of ['stream', 'poll'] as const) {
    it(`cancels the remote task while tracking it (${mode})`, async () => {
      const client = await temporal.client();
      await withWorker(async (taskQueue) => {
        const handle = await startDelegate(
          client,
          taskQueue,
          compatRequest({ mode, text: 'Check for Node.js 24', metadata: { scenario: 'never-finish' } }),
        );
        // The live task id: in stream mode the workflow learns it only when the stream turn returns.
        const { taskId } = await waitFor(() => trackingProgress(handle), { what: 'the tracking activity' });
        await handle.cancel();
        const cause = await failureOf(handle);
        expect(cause.name).toBe('CancelledFailure');
        expect(await remoteState(taskId!)).toBe('TASK_STATE_CANCELED');
        expect((await statusOf(handle)).phase).toBe('canceled');
      });
    });
  }

  it('cancels the remote task while waiting for input', async () => {
    const client = await temporal.client();
    await withWorker(async (taskQueue) => {
      const handle = await startDelegate(client, taskQueue, compatRequest());
      const question = await waitForQuestion(handle);
      await handle.cancel();
      expect((await failureOf(handle)).name).toBe('CancelledFailure');
      expect(await remoteState(question.taskId)).toBe('TASK_STATE_CANCELED');
    });
  });

  it('gives up after the input deadline with A2A_INPUT_TIMEOUT and cancels the remote task', async () => {
    const client = await temporal.client();
    await withWorker(async (taskQueue) => {
      const handle = await startDelegate(client, taskQueue, compatRequest({ inputTimeout: '1 second' }));
      const question = await waitForQuestion(handle);
      const cause = await failureOf(handle);
      expect(cause.type).toBe(FailureType.inputTimeout);
      expect(cause.message).toMatch(/Nobody answered .* within 1 second/);
      expect(await remoteState(question.taskId)).toBe('TASK_STATE_CANCELED');
    });
  });
});
