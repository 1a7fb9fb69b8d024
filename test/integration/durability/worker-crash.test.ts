import proto from '@temporalio/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artifactText } from '../../../a2a/index.js';
import { startDependencyCompatAgent, type RunningAgent } from '../../../agents/index.js';
import { pendingActivities, trackingProgress } from '../../../client/tracking-progress.js';
import { a2aTemporalPlugin } from '../../../worker/plugin.js';
import type { DelegateResult } from '../../../contract/index.js';
import { compatRequest, registryOf, startDelegate } from '../../helpers/delegations.js';
import { uniqueTaskQueue, useTemporal } from '../../helpers/temporal.js';
import { waitFor } from '../../helpers/wait.js';
import { spawnWorkerProcess } from '../../helpers/worker-process.js';

const temporal = useTemporal();
let agent: RunningAgent;

beforeAll(async () => {
  agent = await startDependencyCompatAgent({ port: 0, workDelayMs: 0, chunkDelayMs: 10 });
});
afterAll(() => agent?.close());

const request = (mode: 'stream' | 'poll', chunkDelayMs: number) =>
  compatRequest({
    mode,
    text: 'Check the dependencies of payment-service for Node.js 24.',
    metadata: { chunkDelayMs },
  });

describe('a worker killed in the middle of a delegation', () => {
  for (const mode of ['stream', 'poll'] as const) {
    it(`is replaced by a new worker that finishes the ${mode} delegation without repeating artifact text or work`, async () => {
      const client = await temporal.client();
      const registry = registryOf({ compat: agent });

      // The undisturbed result, for comparison (the agent is deterministic).
      const referenceQueue = uniqueTaskQueue('reference');
      const referenceWorker = await temporal.worker({
        taskQueue: referenceQueue,
        plugins: [a2aTemporalPlugin({ registry })],
      });
      const reference = (await referenceWorker.runUntil(
        startDelegate(client, referenceQueue, request(mode, 10)).then((h) => h.result()),
      )) as DelegateResult;

      const taskQueue = uniqueTaskQueue(`crash-${mode}`);
      const doomed = await spawnWorkerProcess(taskQueue, { agents: { compat: { url: agent.baseUrl } } });
      agent.resetStats();
      const handle = await startDelegate(client, taskQueue, request(mode, 600));
      // Wait until the tracker has seen at least one chunk of the report, then kill the worker.
      await waitFor(async () => ((await trackingProgress(handle))?.artifacts[0]?.parts ?? 0) >= 1, {
        what: 'the first chunk',
      });
      await doomed.kill('SIGKILL');

      const rescuer = await temporal.worker({ taskQueue, plugins: [a2aTemporalPlugin({ registry })] });
      const result = (await rescuer.runUntil(handle.result())) as DelegateResult;

      expect(result.state).toBe('TASK_STATE_COMPLETED');
      const [artifact] = result.artifacts;
      const [expected] = reference.artifacts;
      expect(artifactText(artifact!)).toBe(artifactText(expected!));
      expect(artifact!.parts).toHaveLength(expected!.parts.length);
      expect(agent.stats.tasksCreated).toBe(1);
      expect(agent.stats.messageIds).toHaveLength(1);
      // The retried turn moved the workflow off the dead worker's sticky queue: the task that took
      // its result did not wait there for the sticky timeout first.
      const { events } = await handle.fetchHistory();
      const stickyTimeouts = events!.filter(
        (e) =>
          e.workflowTaskTimedOutEventAttributes?.timeoutType ===
          proto.temporal.api.enums.v1.TimeoutType.TIMEOUT_TYPE_SCHEDULE_TO_START,
      );
      expect(stickyTimeouts).toEqual([]);
    });
  }
});

/**
 * Issue 26's exactly-once case: the worker dies while the agent takes 8 s to acknowledge the first
 * message. The new attempt (about 5.5 s later) finds no task for the message id yet; it must look
 * again until the first send's request timeout has passed instead of sending a second time.
 */
describe('a worker killed while the agent is slow to acknowledge the first message', () => {
  for (const mode of ['stream', 'poll'] as const) {
    it(`${mode}: the retry waits for the task the first send creates, and sends nothing again`, async () => {
      const client = await temporal.client();
      const taskQueue = uniqueTaskQueue(`slow-ack-${mode}`);
      const doomed = await spawnWorkerProcess(taskQueue, { agents: { compat: { url: agent.baseUrl } } });
      agent.resetStats();
      const handle = await startDelegate(
        client,
        taskQueue,
        compatRequest({
          mode,
          text: 'Check the dependencies of payment-service for Node.js 24.',
          metadata: { ackDelayMs: 8_000, chunkDelayMs: 10 },
        }),
      );
      // The send has reached the agent, and the heartbeat says when it left: kill before the agent answers.
      await waitFor(
        async () =>
          agent.stats.messageIds.length === 1 &&
          (await pendingActivities(handle)).some(
            (a) => typeof (a.progress as { sentAt?: unknown } | undefined)?.sentAt === 'number',
          ),
        { what: 'the first send under way', intervalMs: 100 },
      );
      expect(agent.stats.tasksCreated).toBe(0);
      await doomed.kill('SIGKILL');

      const rescuer = await temporal.worker({
        taskQueue,
        plugins: [a2aTemporalPlugin({ registry: registryOf({ compat: agent }) })],
      });
      const result = (await rescuer.runUntil(handle.result())) as DelegateResult;

      expect(result.state).toBe('TASK_STATE_COMPLETED');
      expect(agent.stats.tasksCreated).toBe(1);
      expect(agent.stats.messageIds).toHaveLength(1);
    });
  }
});
