import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { WorkflowFailedError, WorkflowUpdateFailedError, type WorkflowHandle } from '@temporalio/client';
import { Worker } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artifactText, type Artifact } from '../../../a2a/index.js';
import { startDependencyCompatAgent, type RunningAgent } from '../../../agents/index.js';
import { trackingProgress } from '../../../client/tracking-progress.js';
import { a2aTemporalPlugin } from '../../../worker/plugin.js';
import { A2A_AGENT, answerSignal, answerUpdate, FailureType, type DelegateResult } from '../../../contract/index.js';
import { compatRequest, registryOf, startDelegate, statusOf, waitForQuestion } from '../../helpers/delegations.js';
import { uniqueTaskQueue, useTemporal } from '../../helpers/temporal.js';
import { waitFor } from '../../helpers/wait.js';

const temporal = useTemporal();
let agent: RunningAgent;

beforeAll(async () => {
  agent = await startDependencyCompatAgent({ port: 0, workDelayMs: 0, chunkDelayMs: 10 });
});
afterAll(() => agent?.close());

/** Runs `fn` with a worker on a fresh task queue that knows the agent as "compat". */
async function withWorker<T>(fn: (taskQueue: string) => Promise<T>): Promise<T> {
  const taskQueue = uniqueTaskQueue('delegate');
  const worker = await temporal.worker({
    taskQueue,
    plugins: [a2aTemporalPlugin({ registry: registryOf({ compat: agent }) })],
  });
  return worker.runUntil(fn(taskQueue));
}

/** The validator's sentence behind a rejected update. */
async function rejectionOf(update: Promise<unknown>): Promise<string> {
  const error = await update.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(error).toBeInstanceOf(WorkflowUpdateFailedError);
  return (error as WorkflowUpdateFailedError).cause?.message ?? '';
}

/** The values the delegation gave its `A2aTaskState` search attribute, in order. */
function taskStatesIn(history: Awaited<ReturnType<WorkflowHandle['fetchHistory']>>): string[] {
  return (history.events ?? []).flatMap((e) => {
    const data = e.upsertWorkflowSearchAttributesEventAttributes?.searchAttributes?.indexedFields?.A2aTaskState?.data;
    return data ? [JSON.parse(Buffer.from(data).toString('utf8')) as string] : [];
  });
}

function report(result: DelegateResult): Artifact {
  const artifact = result.artifacts.find((a) => a.artifactId === 'compatibility-report');
  expect(artifact, 'the compatibility report artifact').toBeDefined();
  return artifact!;
}

describe('delegate', () => {
  for (const mode of ['stream', 'poll'] as const) {
    it(`completes an input-required round in ${mode} mode, answered by update`, async () => {
      const client = await temporal.client();
      const result = await withWorker(async (taskQueue) => {
        const handle = await startDelegate(client, taskQueue, compatRequest({ mode }), `${taskQueue}-${mode}`);
        const question = await waitForQuestion(handle);
        expect(question.text).toMatch(/Node\.js version/);
        const receipt = await handle.executeUpdate(answerUpdate, { args: [{ text: 'Node.js 24' }] });
        expect(receipt).toMatchObject({ taskId: question.taskId, round: 1 });
        return (await handle.result()) as DelegateResult;
      });
      expect(result).toMatchObject({ kind: 'task', state: 'TASK_STATE_COMPLETED', rounds: 1, agent: 'compat' });
      const artifact = report(result);
      expect(artifactText(artifact)).toMatch(/Node\.js 24/);
      const data = artifact.parts.find((p) => 'data' in p) as { data: { findings: unknown[] } } | undefined;
      expect(data?.data.findings.length).toBeGreaterThan(0);
    });
  }

  it('upserts its search attributes at most once per workflow task, and not the A2aAgent its starter set', async () => {
    const client = await temporal.client();
    const events = await withWorker(async (taskQueue) => {
      const handle = await client.workflow.start('delegate', {
        taskQueue,
        workflowId: `${taskQueue}-upserts`,
        args: [compatRequest({ mode: 'stream' })],
        typedSearchAttributes: [{ key: A2A_AGENT, value: 'compat' }],
      });
      await waitForQuestion(handle);
      await handle.signal(answerSignal, { text: 'Node.js 24' });
      await handle.result();
      return (await handle.fetchHistory()).events ?? [];
    });
    const upserts = events.flatMap((e) => {
      const fields = e.upsertWorkflowSearchAttributesEventAttributes?.searchAttributes?.indexedFields;
      return fields ? [Object.keys(fields)] : [];
    });
    expect(upserts.flat()).not.toContain('A2aAgent');
    expect(upserts.flat()).toContain('A2aTaskId');
    const perWorkflowTask = events.reduce<number[]>(
      (counts, e) =>
        e.workflowTaskCompletedEventAttributes
          ? [...counts, 0]
          : e.upsertWorkflowSearchAttributesEventAttributes
            ? [...counts.slice(0, -1), counts.at(-1)! + 1]
            : counts,
      [0],
    );
    // E.g. the task adopted, working and the question asked, all learned from one stream turn.
    expect(Math.max(...perWorkflowTask), JSON.stringify(upserts)).toBe(1);
  });

  for (const mode of ['stream', 'poll'] as const) {
    it(`relays an AUTH_REQUIRED question and goes on once answered, in ${mode} mode`, async () => {
      const client = await temporal.client();
      const result = await withWorker(async (taskQueue) => {
        const handle = await startDelegate(
          client,
          taskQueue,
          compatRequest({ mode, metadata: { scenario: 'auth-required' } }),
          `${taskQueue}-${mode}`,
        );
        const auth = await waitForQuestion(handle);
        expect(auth).toMatchObject({
          state: 'TASK_STATE_AUTH_REQUIRED',
          text: expect.stringMatching(/Authorize access to the private npm registry/),
        });
        expect(await statusOf(handle)).toMatchObject({ state: 'TASK_STATE_AUTH_REQUIRED', phase: 'waiting-for-input' });
        // In stream mode the agent then logs a "Stream ordering violation" for its first stream: the
        // SDK holds a stream open at AUTH_REQUIRED and, although our turn closed it, notices only
        // at the next event of the task. Nothing reaches us; the official client does the same.
        await handle.executeUpdate(answerUpdate, { args: [{ text: 'Access granted.' }] });
        const input = await waitForQuestion(handle, auth);
        expect(input).toMatchObject({ state: 'TASK_STATE_INPUT_REQUIRED', taskId: auth.taskId });
        await handle.executeUpdate(answerUpdate, { args: [{ text: 'Node.js 24' }] });
        return (await handle.result()) as DelegateResult;
      });
      expect(result).toMatchObject({ state: 'TASK_STATE_COMPLETED', rounds: 2 });
      expect(artifactText(report(result))).toMatch(/Node\.js 24/);
    });
  }

  for (const mode of ['stream', 'poll'] as const) {
    it(`keeps watching a task in AUTH_REQUIRED and completes when the agent resumes on its own, in ${mode} mode`, async () => {
      const client = await temporal.client();
      const request = compatRequest({ mode, text: 'Check for Node.js 24', metadata: { scenario: 'auth-out-of-band' } });
      const { result, states } = await withWorker(async (taskQueue) => {
        const handle = await startDelegate(client, taskQueue, request, `${taskQueue}-${mode}`);
        const result = (await handle.result()) as DelegateResult;
        return { result, states: taskStatesIn(await handle.fetchHistory()) };
      });
      expect(result).toMatchObject({ state: 'TASK_STATE_COMPLETED', rounds: 0 });
      expect(artifactText(report(result))).toMatch(/Node\.js 24/);
      // Poll mode may read the task only after it resumed; a stream sees every state.
      if (mode === 'stream') expect(states).toContain('TASK_STATE_AUTH_REQUIRED');
      expect(states.at(-1)).toBe('TASK_STATE_COMPLETED');
    });
  }

  it('answers two questions in a row, by signal, in poll mode', async () => {
    const client = await temporal.client();
    const result = await withWorker(async (taskQueue) => {
      const handle = await startDelegate(
        client,
        taskQueue,
        compatRequest({ mode: 'poll', metadata: { scenario: 'second-question' } }),
      );
      const first = await waitForQuestion(handle);
      await handle.signal(answerSignal, { text: 'Node.js 22' });
      const second = await waitForQuestion(handle, first);
      expect(second.text).toMatch(/npm or pnpm/);
      await handle.signal(answerSignal, { text: 'pnpm' });
      return (await handle.result()) as DelegateResult;
    });
    expect(result).toMatchObject({ state: 'TASK_STATE_COMPLETED', rounds: 2 });
  });

  it('takes the answer from `temporal workflow signal` (the CLI binary)', async () => {
    const client = await temporal.client();
    const result = await withWorker(async (taskQueue) => {
      const handle = await startDelegate(client, taskQueue, compatRequest({ mode: 'stream' }));
      await waitForQuestion(handle);
      const { address, namespace, cliPath } = temporal.server;
      await promisify(execFile)(cliPath, [
        'workflow',
        'signal',
        '--address',
        address,
        '--namespace',
        namespace,
        '--workflow-id',
        handle.workflowId,
        '--name',
        'answer',
        '--input',
        JSON.stringify({ text: 'Node.js 24' }),
      ]);
      return (await handle.result()) as DelegateResult;
    });
    expect(result).toMatchObject({ state: 'TASK_STATE_COMPLETED', rounds: 1 });
  });

  it('rejects an answer while the agent is working, and an empty answer, with nothing sent', async () => {
    const client = await temporal.client();
    await withWorker(async (taskQueue) => {
      const handle = await startDelegate(
        client,
        taskQueue,
        compatRequest({ text: 'Check for Node.js 24', metadata: { scenario: 'never-finish' } }),
      );
      await waitFor(() => trackingProgress(handle), { what: 'the tracking activity' });
      const sent = agent.stats.messageIds.length;
      expect(await rejectionOf(handle.executeUpdate(answerUpdate, { args: [{ text: 'Node.js 24' }] }))).toMatch(
        /^The delegation to compat is not waiting for input \(the agent is working on (task \S+|its request)\); nothing was sent\./,
      );
      expect(await rejectionOf(handle.executeUpdate(answerUpdate, { args: [{ text: '' }] }))).toMatch(
        /empty; nothing was sent/,
      );
      await handle.signal(answerSignal, { text: 'ignored: nothing is waiting' });
      expect(await statusOf(handle)).toMatchObject({ phase: 'working', rounds: 0 });
      expect(agent.stats.messageIds.length).toBe(sent);
      await handle.cancel();
    });
  });

  it('applies a repeated answer id once and refuses an answer for another task', async () => {
    const client = await temporal.client();
    await withWorker(async (taskQueue) => {
      const handle = await startDelegate(
        client,
        taskQueue,
        compatRequest({ mode: 'stream', metadata: { scenario: 'second-question' } }),
      );
      const question = await waitForQuestion(handle);
      expect(
        await rejectionOf(handle.executeUpdate(answerUpdate, { args: [{ text: '24', taskId: 'not-this-one' }] })),
      ).toBe(`Task not-this-one is not the one waiting for input (task ${question.taskId} is); nothing was sent.`);
      const first = await handle.executeUpdate(answerUpdate, { args: [{ text: 'Node.js 24', answerId: 'ans-1' }] });
      const again = await handle.executeUpdate(answerUpdate, { args: [{ text: 'Node.js 24', answerId: 'ans-1' }] });
      expect(again).toEqual(first);
      await waitForQuestion(handle, question);
      await handle.executeUpdate(answerUpdate, { args: [{ text: 'npm' }] });
      expect(await handle.result()).toMatchObject({ rounds: 2 });
      // one message per answer reached the agent: the first message and two answers
      const history = await handle.fetchHistory();
      const sends = history.events?.filter((e) =>
        ['a2a.sendMessage', 'a2a.streamMessage', 'a2a.pollMessage'].includes(
          e.activityTaskScheduledEventAttributes?.activityType?.name ?? '',
        ),
      );
      expect(sends).toHaveLength(3);
    });
    const ids = agent.stats.messageIds;
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('returns a direct message reply as such', async () => {
    const client = await temporal.client();
    const result = await withWorker(async (taskQueue) => {
      const handle = await startDelegate(client, taskQueue, compatRequest({ metadata: { scenario: 'message' } }));
      return (await handle.result()) as DelegateResult;
    });
    expect(result.kind).toBe('message');
    expect(result.message?.role).toBe('ROLE_AGENT');
  });

  for (const [scenario, type] of [
    ['fail', FailureType.taskFailed],
    ['reject', FailureType.taskRejected],
  ] as const) {
    it(`ends with a non-retryable ${type} carrying the agent's message when the agent ${scenario}s`, async () => {
      const client = await temporal.client();
      const failure = await withWorker(async (taskQueue) => {
        const handle = await startDelegate(
          client,
          taskQueue,
          compatRequest({ text: 'Check for Node.js 24', metadata: { scenario } }),
        );
        return handle.result().then(
          () => undefined,
          (err: unknown) => err,
        );
      });
      expect(failure).toBeInstanceOf(WorkflowFailedError);
      const cause = (failure as WorkflowFailedError).cause as {
        type?: string;
        nonRetryable?: boolean;
        message: string;
      };
      expect(cause.type).toBe(type);
      expect(cause.nonRetryable).toBe(true);
      expect(cause.message).toMatch(/Agent "compat" (failed|rejected) task \S+: \S+/);
    });
  }

  it('replays every history these tests recorded without non-determinism', async () => {
    const client = await temporal.client();
    const histories = client.workflow
      .list({ query: `WorkflowType = 'delegate' AND TaskQueue STARTS_WITH 'delegate-'` })
      .intoHistories();
    const results = Worker.runReplayHistories(
      { workflowBundle: { codePath: temporal.server.workflowBundlePath } },
      histories,
    );
    let replayed = 0;
    for await (const result of results) {
      expect(result.error, result.workflowId).toBeUndefined();
      replayed += 1;
    }
    expect(replayed).toBeGreaterThan(0);
  });
});
