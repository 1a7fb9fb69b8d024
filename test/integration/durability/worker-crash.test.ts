import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artifactText } from '../../../a2a/index.js';
import { startDependencyCompatAgent, type RunningAgent } from '../../../agents/index.js';
import { trackingProgress } from '../../../client/tracking-progress.js';
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
    });
  }
});
