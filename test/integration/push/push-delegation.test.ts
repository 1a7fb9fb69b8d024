import { WorkflowFailedError, type WorkflowHandle } from '@temporalio/client';
import { Worker } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pushCredential } from '../../../activities/index.js';
import { artifactText, createA2AClient, fetchAgentCard } from '../../../a2a/index.js';
import { startDependencyCompatAgent, type RunningAgent } from '../../../agents/index.js';
import type { RunningWebhookReceiver } from '../../../worker/webhook-receiver.js';
import { rejectedTotal } from '../../../worker/webhook-stats.js';
import { a2aTemporalPlugin } from '../../../worker/plugin.js';
import { answerUpdate, FailureType, type DelegateResult } from '../../../contract/index.js';
import { compatRequest, registryOf, startDelegate, statusOf, waitForQuestion } from '../../helpers/delegations.js';
import { cardFor, json, startScriptedServer } from '../../helpers/scripted-http.js';
import { uniqueTaskQueue, useTemporal } from '../../helpers/temporal.js';
import { waitFor } from '../../helpers/wait.js';
import {
  activitiesIn,
  eventCounts,
  historyOf,
  openActivities,
  pushConfigsAt,
  registeredConfigId,
  registrationsIn,
  SECRET,
  startReceiver,
  taskUpdatedSignals,
  withPushWorker,
} from './support.js';

const temporal = useTemporal();
let agent: RunningAgent;
let receiver: RunningWebhookReceiver;

beforeAll(async () => {
  agent = await startDependencyCompatAgent({ port: 0, workDelayMs: 200, chunkDelayMs: 10 });
  receiver = await startReceiver(await temporal.client());
});
afterAll(async () => {
  await receiver?.close();
  await agent?.close();
});

async function pendingActivities(handle: WorkflowHandle): Promise<number> {
  return (await handle.describe()).raw.pendingActivities?.length ?? 0;
}

async function failureOf(handle: WorkflowHandle) {
  const error = await handle.result().then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(error).toBeInstanceOf(WorkflowFailedError);
  return (error as WorkflowFailedError).cause as {
    type?: string;
    name?: string;
    message: string;
    nonRetryable?: boolean;
  };
}

describe('delegate in push mode', () => {
  it('completes an input-required round driven by deliveries, with no tracking activity and nothing running while parked', async () => {
    const client = await temporal.client();
    const before = receiver.stats();
    const { handle, result } = await withPushWorker(temporal, agent, receiver.url, async (taskQueue) => {
      // A safety net of an hour: only deliveries can move this delegation along in time.
      const handle = await startDelegate(
        client,
        taskQueue,
        compatRequest({ mode: 'push', tracking: { pushSafetyNetInterval: '1 hour' } }),
      );
      const question = await waitForQuestion(handle);
      expect(question.text).toMatch(/Node\.js version/);
      expect(await statusOf(handle)).toMatchObject({ mode: 'push', phase: 'waiting-for-input' });
      // The agent asked at once: the send's read found the question, and nothing needs a config
      // until the answer's send finds the task working.
      expect(await pushConfigsAt(agent, question.taskId)).toEqual([]);
      await waitFor(async () => (await pendingActivities(handle)) === 0, { what: 'no pending activity while parked' });
      await handle.executeUpdate(answerUpdate, { args: [{ text: 'Node.js 24' }] });
      return { handle, result: (await handle.result()) as DelegateResult };
    });

    expect(result).toMatchObject({ kind: 'task', state: 'TASK_STATE_COMPLETED', rounds: 1 });
    expect(artifactText(result.artifacts.find((a) => a.artifactId === 'compatibility-report')!)).toMatch(/Node\.js 24/);

    const events = await historyOf(handle);
    const activities = activitiesIn(events);
    expect(activities).not.toContain('trackTask');
    // Parked means nothing running: every activity scheduled before the answer had closed by then.
    const answeredAt = events.findIndex((e) => e.workflowExecutionUpdateAcceptedEventAttributes);
    expect(answeredAt).toBeGreaterThan(0);
    expect(openActivities(events.slice(0, answeredAt))).toBe(0);
    // The answer's send registered the config, and it ended with the task: no activity of their own.
    expect(registrationsIn(events)).toBe(1);
    expect(activities.filter((a) => a === 'registerPushConfig' || a === 'deletePushConfig')).toEqual([]);
    expect(activities).toContain('getTask');
    // One signal, for the news (registered once the answer's send found the task working, the
    // config is never delivered the question just answered).
    expect(taskUpdatedSignals(events)).toHaveLength(1);
    expect(events.some((e) => e.timerFiredEventAttributes)).toBe(false); // no safety-net read was needed

    // The credential is derived, never recorded.
    const credential = pushCredential(SECRET, {
      workflowId: handle.workflowId,
      taskId: result.taskId!,
      configId: registeredConfigId(events),
    });
    expect(JSON.stringify(events)).not.toContain(credential);
    expect(JSON.stringify(events)).not.toContain(SECRET);

    const after = receiver.stats();
    expect(after.signaled).toBeGreaterThan(before.signaled);
    expect(rejectedTotal(after)).toBe(rejectedTotal(before));
    expect(await pushConfigsAt(agent, result.taskId!)).toHaveLength(1); // it ended with the task

    const secondsOf = (e: (typeof events)[number]) => Number(e.eventTime!.seconds) + e.eventTime!.nanos! / 1e9;
    const answerToEnd = secondsOf(events.at(-1)!) - secondsOf(events[answeredAt]!);
    console.log(
      `push delegation with one input round: answer to completion ${answerToEnd.toFixed(2)} s; ${events.length} history events; activities ${JSON.stringify(activities)}; ` +
        `taskUpdated signals ${taskUpdatedSignals(events).length}; by type ${JSON.stringify(eventCounts(events))}`,
    );
  });

  it('relays an AUTH_REQUIRED question and goes on once answered, driven by deliveries', async () => {
    const client = await temporal.client();
    const { handle, result } = await withPushWorker(temporal, agent, receiver.url, async (taskQueue) => {
      const request = compatRequest({
        mode: 'push',
        metadata: { scenario: 'auth-required' },
        tracking: { pushSafetyNetInterval: '1 hour' },
      });
      const handle = await startDelegate(client, taskQueue, request);
      const auth = await waitForQuestion(handle);
      expect(auth).toMatchObject({
        state: 'TASK_STATE_AUTH_REQUIRED',
        text: expect.stringMatching(/private npm registry/),
      });
      await handle.executeUpdate(answerUpdate, { args: [{ text: 'Access granted.' }] });
      const input = await waitForQuestion(handle, auth);
      expect(input).toMatchObject({ state: 'TASK_STATE_INPUT_REQUIRED', taskId: auth.taskId });
      await handle.executeUpdate(answerUpdate, { args: [{ text: 'Node.js 24' }] });
      return { handle, result: (await handle.result()) as DelegateResult };
    });
    expect(result).toMatchObject({ state: 'TASK_STATE_COMPLETED', rounds: 2 });
    const events = await historyOf(handle);
    expect(activitiesIn(events)).not.toContain('trackTask');
    expect(events.some((e) => e.timerFiredEventAttributes)).toBe(false); // deliveries alone moved it along
    expect(await pushConfigsAt(agent, result.taskId!)).toHaveLength(1); // it ended with the task
  });

  it('completes when the agent resumes a task in AUTH_REQUIRED on its own, woken by its deliveries', async () => {
    const client = await temporal.client();
    const result = await withPushWorker(temporal, agent, receiver.url, async (taskQueue) => {
      const request = compatRequest({
        mode: 'push',
        text: 'Check for Node.js 24',
        metadata: { scenario: 'auth-out-of-band' },
        tracking: { pushSafetyNetInterval: '1 hour' },
      });
      const handle = await startDelegate(client, taskQueue, request);
      return (await handle.result()) as DelegateResult;
    });
    expect(result).toMatchObject({ state: 'TASK_STATE_COMPLETED', rounds: 0 });
    expect(artifactText(result.artifacts.find((a) => a.artifactId === 'compatibility-report')!)).toMatch(/Node\.js 24/);
  });

  it('recovers a lost delivery with the safety-net read while the receiver is down', async () => {
    const client = await temporal.client();
    const down = await startReceiver(client);
    const { handle, result, signalsBefore } = await withPushWorker(temporal, agent, down.url, async (taskQueue) => {
      const handle = await startDelegate(
        client,
        taskQueue,
        compatRequest({ mode: 'push', tracking: { pushSafetyNetInterval: '2 seconds' } }),
      );
      await waitForQuestion(handle);
      await down.close(); // every delivery from now on is lost
      const signalsBefore = taskUpdatedSignals(await historyOf(handle)).length;
      await handle.executeUpdate(answerUpdate, { args: [{ text: 'Node.js 22' }] });
      return { handle, result: (await handle.result()) as DelegateResult, signalsBefore };
    });
    expect(result).toMatchObject({ state: 'TASK_STATE_COMPLETED', rounds: 1 });
    const events = await historyOf(handle);
    expect(taskUpdatedSignals(events)).toHaveLength(signalsBefore);
    expect(events.some((e) => e.timerFiredEventAttributes)).toBe(true);
    expect(activitiesIn(events)).not.toContain('trackTask');
  });

  it('cancels the remote task and deletes its push config when the delegation is cancelled while parked', async () => {
    const client = await temporal.client();
    await withPushWorker(temporal, agent, receiver.url, async (taskQueue) => {
      // The task works before it asks: the send's read registered a config, held at the question.
      const request = compatRequest({ mode: 'push', metadata: { askDelayMs: 300 } });
      const handle = await startDelegate(client, taskQueue, request);
      const question = await waitForQuestion(handle);
      expect(await pushConfigsAt(agent, question.taskId)).toHaveLength(1);
      await handle.cancel();
      expect((await failureOf(handle)).name).toBe('CancelledFailure');
      expect(await pushConfigsAt(agent, question.taskId)).toEqual([]);
      expect((await statusOf(handle)).state).toBe('TASK_STATE_CANCELED');
    });
  });

  it('cancels the task of a send cancelled while the agent is still acknowledging it', async () => {
    const client = await temporal.client();
    agent.resetStats();
    const status = await withPushWorker(temporal, agent, receiver.url, async (taskQueue) => {
      const request = compatRequest({ mode: 'push', metadata: { ackDelayMs: 2_000, workDelayMs: 10_000 } });
      const handle = await startDelegate(client, taskQueue, request);
      await waitFor(
        async () =>
          (await handle.describe()).raw.pendingActivities?.some((a) => a.activityType?.name === 'a2a.sendMessage'),
        { what: 'the send' },
      );
      await handle.cancel();
      expect((await failureOf(handle)).name).toBe('CancelledFailure');
      return statusOf(handle);
    });
    // The send finished, named its task, and the delegation canceled it; nothing was registered.
    expect(status).toMatchObject({ phase: 'canceled', state: 'TASK_STATE_CANCELED' });
    const { card } = await fetchAgentCard(agent.baseUrl);
    const { tasks } = await createA2AClient({ card }).listTasks({ contextId: status.contextId });
    expect(agent.stats.tasksCreated).toBe(1);
    expect(tasks.map((t) => t.status.state)).toEqual(['TASK_STATE_CANCELED']);
    expect(await pushConfigsAt(agent, tasks[0]!.id)).toEqual([]);
  });

  it('fails before sending anything when push is asked for and the worker has no webhook receiver', async () => {
    const client = await temporal.client();
    const taskQueue = uniqueTaskQueue('push-none');
    const worker = await temporal.worker({
      taskQueue,
      plugins: [a2aTemporalPlugin({ registry: registryOf({ compat: agent }) })],
    });
    const sent = agent.stats.messageIds.length;
    const cause = await worker.runUntil(async () =>
      failureOf(await startDelegate(client, taskQueue, compatRequest({ mode: 'push' }))),
    );
    expect(cause).toMatchObject({ type: FailureType.pushUnavailable, nonRetryable: true });
    expect(cause.message).toMatch(/no webhook receiver configured.*A2A_WEBHOOK_URL and A2A_WEBHOOK_SECRET/);
    expect(agent.stats.messageIds.length).toBe(sent);
  });

  it('fails before sending anything when push is asked for and the agent cannot push', async () => {
    const client = await temporal.client();
    const routes: Parameters<typeof startScriptedServer>[0] = {};
    const scripted = await startScriptedServer(routes);
    routes['GET /.well-known/agent-card.json'] = json(200, cardFor(scripted.baseUrl));
    try {
      const cause = await withPushWorker(
        temporal,
        { ...agent, baseUrl: scripted.baseUrl },
        receiver.url,
        async (taskQueue) => failureOf(await startDelegate(client, taskQueue, compatRequest({ mode: 'push' }))),
      );
      expect(cause).toMatchObject({ type: FailureType.pushUnavailable, nonRetryable: true });
      expect(cause.message).toMatch(
        /^Agent "compat" does not declare push notifications.*nothing was sent\. Delegate with mode "stream", "poll" or "auto"\.$/,
      );
      expect(scripted.requests).toEqual(['GET /.well-known/agent-card.json']);
    } finally {
      await scripted.close();
    }
  });

  it('is what auto picks for an agent that can push when the worker has a receiver', async () => {
    const client = await temporal.client();
    const result = await withPushWorker(temporal, agent, receiver.url, async (taskQueue) => {
      const handle = await startDelegate(client, taskQueue, compatRequest({ text: 'Check for Node.js 24' }));
      const done = (await handle.result()) as DelegateResult;
      expect((await statusOf(handle)).mode).toBe('push');
      return done;
    });
    expect(result).toMatchObject({ state: 'TASK_STATE_COMPLETED', rounds: 0 });
  });

  it('replays every push history these tests recorded without non-determinism', async () => {
    const client = await temporal.client();
    const histories = client.workflow
      .list({ query: `WorkflowType = 'delegate' AND TaskQueue STARTS_WITH 'push-'` })
      .intoHistories();
    let replayed = 0;
    for await (const result of Worker.runReplayHistories(
      { workflowBundle: { codePath: temporal.server.workflowBundlePath } },
      histories,
    )) {
      expect(result.error, result.workflowId).toBeUndefined();
      replayed += 1;
    }
    expect(replayed).toBeGreaterThan(0);
  });
});
