/**
 * A remote task that outlives many tracking rounds and every short deadline is followed until
 * it ends, in every mode, even when the worker holding it is killed in one of the rounds; the
 * only deadlines are the ones a user sets.
 */
import type { WorkflowHandle } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createA2AClient, fetchAgentCard } from '../../../a2a/index.js';
import { startDependencyCompatAgent, type RunningAgent } from '../../../agents/index.js';
import { a2aTemporalPlugin } from '../../../worker/plugin.js';
import type { RunningWebhookReceiver } from '../../../worker/webhook-receiver.js';
import { FailureType, type DelegateResult, type TrackingOptions } from '../../../contract/index.js';
import { compatRequest, failureOf, registryOf, startDelegate } from '../../helpers/delegations.js';
import { uniqueTaskQueue, useTemporal } from '../../helpers/temporal.js';
import { waitFor } from '../../helpers/wait.js';
import { spawnWorkerProcess } from '../../helpers/worker-process.js';
import { activitiesIn, historyOf, SECRET, startReceiver } from '../push/support.js';

const temporal = useTemporal();
let agent: RunningAgent;
let receiver: RunningWebhookReceiver;

beforeAll(async () => {
  agent = await startDependencyCompatAgent({ port: 0, workDelayMs: 0, chunkDelayMs: 10 });
  receiver = await startReceiver(await temporal.client());
});
afterAll(async () => {
  await receiver?.close();
  await agent?.close();
});

/** Rounds of 300 ms, 2 s to notice a dead worker, and a short-profile deadline (unreachable) of 2 s. */
const fast: TrackingOptions = {
  roundTimeout: '300 milliseconds',
  heartbeatTimeout: '2 seconds',
  unreachableTimeout: '2 seconds',
  pollInitialInterval: '100 milliseconds',
  pollMaxInterval: '200 milliseconds',
  pushSafetyNetInterval: '300 milliseconds',
};

/** The activity that follows the task in each mode: one per round. */
const roundActivity = { stream: 'trackTask', poll: 'trackTask', push: 'getTask' } as const;
type Mode = keyof typeof roundActivity;

async function roundsSoFar(handle: WorkflowHandle, mode: Mode): Promise<number> {
  return activitiesIn(await historyOf(handle)).filter((a) => a === roundActivity[mode]).length;
}

/** True while a round is under way: its activity runs (stream, poll), or push mode's timer waits. */
async function inRound(handle: WorkflowHandle, mode: Mode): Promise<boolean> {
  if (mode === 'push') return (await historyOf(handle)).at(-1)?.timerStartedEventAttributes != null;
  const { raw } = await handle.describe();
  return (raw.pendingActivities ?? []).some((a) => a.activityType?.name === `a2a.${roundActivity[mode]}`);
}

async function remoteTask(taskId: string) {
  const { card } = await fetchAgentCard(agent.baseUrl);
  return createA2AClient({ card }).getTask({ id: taskId, historyLength: 0 });
}

describe('a long remote task', () => {
  for (const mode of ['stream', 'poll', 'push'] as const) {
    it(`is followed through many rounds and past the short deadline in ${mode} mode, across a worker killed in a round`, async () => {
      const client = await temporal.client();
      const taskQueue = uniqueTaskQueue(`long-${mode}`);
      const webhook = { A2A_WEBHOOK_URL: receiver.url, A2A_WEBHOOK_SECRET: SECRET };
      const doomed = await spawnWorkerProcess(taskQueue, { agents: { compat: { url: agent.baseUrl } } }, webhook);
      // Created now, polling only after the kill: loading the workflow bundle took seconds on a
      // loaded machine, and a rescuer that came after the agent had finished saw no more rounds.
      const rescuer = await temporal.worker({
        taskQueue,
        plugins: [
          a2aTemporalPlugin({
            registry: registryOf({ compat: agent }),
            webhook: { publicUrl: receiver.url, secret: SECRET },
          }),
        ],
      });
      agent.resetStats();
      // The agent works for 10 s: longer than the unreachable timeout, two heartbeat timeouts, and 5 rounds
      // besides the ones the kill costs (a heartbeat timeout and the sticky queue's 1 s).
      const request = compatRequest({
        mode,
        text: 'Check for Node.js 24',
        metadata: { workDelayMs: 10_000 },
        tracking: fast,
      });
      const handle = await startDelegate(client, taskQueue, request);
      // Killed in the middle of a round: while a tracking activity runs, or while push mode waits for a notice.
      await waitFor(async () => (await roundsSoFar(handle, mode)) >= 2 && (await inRound(handle, mode)), {
        what: 'the second tracking round',
      });
      await doomed.kill('SIGKILL');
      const result = (await rescuer.runUntil(handle.result())) as DelegateResult;

      expect(result).toMatchObject({ kind: 'task', state: 'TASK_STATE_COMPLETED' });
      expect(result.artifacts.length).toBeGreaterThan(0);
      expect(await roundsSoFar(handle, mode)).toBeGreaterThanOrEqual(5);
      expect(agent.stats.tasksCreated).toBe(1);
      expect(new Set(agent.stats.messageIds).size).toBe(agent.stats.messageIds.length);
    });
  }
});

describe('deadlines', () => {
  async function withWorker<T>(fn: (taskQueue: string) => Promise<T>): Promise<T> {
    const taskQueue = uniqueTaskQueue('deadline');
    const worker = await temporal.worker({
      taskQueue,
      plugins: [a2aTemporalPlugin({ registry: registryOf({ compat: agent }) })],
    });
    return worker.runUntil(fn(taskQueue));
  }

  it('follows an agent that answers but never finishes past the unreachable timeout, until the user deadline cancels it', async () => {
    const client = await temporal.client();
    const failure = await withWorker(async (taskQueue) => {
      const request = compatRequest({
        mode: 'stream',
        text: 'Check for Node.js 24',
        metadata: { scenario: 'never-finish' },
        tracking: { ...fast, unreachableTimeout: '1 second' },
        deadline: '4 seconds',
      });
      const handle = await startDelegate(client, taskQueue, request);
      return failureOf(handle);
    });
    expect(failure.type).toBe(FailureType.deadlineExceeded);
    expect(failure.message).toMatch(
      /did not finish task \S+ \(last seen TASK_STATE_WORKING\) within the delegation's deadline of 4 seconds; the remote task was canceled/,
    );
    const taskId = (failure.details as Array<{ taskId: string }>)[0]!.taskId;
    expect((await remoteTask(taskId)).status.state).toBe('TASK_STATE_CANCELED');
  });

  // An explicit mode resolves the agent in the first send: a card nobody serves is silence too.
  for (const mode of ['stream', 'poll', 'push'] as const)
    it(`fails as unreachable when nobody serves the card, after the unreachable timeout (${mode})`, async () => {
      const client = await temporal.client();
      const gone = await startDependencyCompatAgent({ port: 0 });
      await gone.close();
      const taskQueue = uniqueTaskQueue(`no-card-${mode}`);
      const worker = await temporal.worker({
        taskQueue,
        plugins: [a2aTemporalPlugin({ registry: registryOf({ compat: gone }) })],
      });
      const started = Date.now();
      const { failure, activities } = await worker.runUntil(async () => {
        const request = compatRequest({
          mode,
          text: 'Check for Node.js 24',
          tracking: { ...fast, unreachableTimeout: '1500 milliseconds' },
        });
        const handle = await startDelegate(client, taskQueue, request);
        const failure = await failureOf(handle);
        return { failure, activities: activitiesIn(await historyOf(handle)) };
      });
      expect(failure.type).toBe(FailureType.agentUnreachable);
      // A turn counts the silence itself; push's send is retried by Temporal until its schedule-to-close timeout.
      expect(failure.message).toMatch(
        /^Agent "compat" (did not answer for \d+ s|could not be reached within 1500 milliseconds) \(last error: .+\)\. Start the agent/,
      );
      // Temporal does not start an attempt of push's send that its backoff puts past the timeout.
      if (mode !== 'push') expect(Date.now() - started).toBeGreaterThanOrEqual(1_500);
      const send = mode === 'push' ? 'sendMessage' : `${mode}Message`;
      expect(activities, 'the send resolved the agent, no local activity').toEqual([send]);
    });

  it('fails as unreachable only after the agent stopped answering for the unreachable timeout', async () => {
    const client = await temporal.client();
    const silent = await startDependencyCompatAgent({ port: 0, workDelayMs: 60_000 });
    const taskQueue = uniqueTaskQueue('unreachable');
    const worker = await temporal.worker({
      taskQueue,
      plugins: [a2aTemporalPlugin({ registry: registryOf({ compat: silent }) })],
    });
    const { failure, silentFor } = await worker.runUntil(async () => {
      const request = compatRequest({
        mode: 'poll',
        text: 'Check for Node.js 24',
        tracking: { ...fast, unreachableTimeout: '1500 milliseconds' },
      });
      const handle = await startDelegate(client, taskQueue, request);
      // A few rounds while the agent answers every GetTask: no failure, however long that lasts.
      await waitFor(async () => (await roundsSoFar(handle, 'poll')) >= 4, { what: 'four rounds' });
      const stopped = Date.now();
      await silent.close();
      const failure = await failureOf(handle);
      return { failure, silentFor: Date.now() - stopped };
    });
    expect(failure.type).toBe(FailureType.agentUnreachable);
    expect(failure.message).toMatch(/^Agent "compat" did not answer for \d+ s \(last error: .+\)\. Start the agent/);
    expect(silentFor).toBeGreaterThanOrEqual(1_500);
  });
});
