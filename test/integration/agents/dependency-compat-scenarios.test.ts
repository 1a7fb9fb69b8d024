import { Role, TaskState } from '@a2a-js/sdk';
import type { Client } from '@a2a-js/sdk/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAMPLE_MANIFEST, startDependencyCompatAgent, type RunningAgent } from '../../../agents/index.js';
import { waitFor } from '../../helpers/wait.js';
import {
  assembleArtifacts,
  connect,
  drain,
  isStatus,
  isTask,
  readUntil,
  sendForTask,
  sendRequest,
  statusStates,
  statusText,
  streamAll,
  textOfParts,
  TRANSPORTS,
  userMessage,
  type UserMessageInit,
} from './support/sdk-client.js';

const cancelRequest = (id: string) => ({ tenant: '', id, metadata: undefined });

describe.each(TRANSPORTS)('Dependency Compatibility Agent scenarios over %s', (transport) => {
  let agent: RunningAgent;
  let client: Client;

  beforeAll(async () => {
    agent = await startDependencyCompatAgent({ workDelayMs: 20, chunkDelayMs: 10 });
    client = await connect(agent, transport);
  });
  afterAll(() => agent.close());

  const analyse = (init: UserMessageInit = {}) =>
    userMessage({ text: 'Analyse payment-service for Node.js 24', data: SAMPLE_MANIFEST, ...init });

  it('cancels a task parked in INPUT_REQUIRED', async () => {
    const parked = await sendForTask(client, userMessage({ text: 'Analyse payment-service', data: SAMPLE_MANIFEST }));
    expect(parked.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);

    const canceled = await client.cancelTask(cancelRequest(parked.id));
    expect(canceled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    expect((await client.getTask({ tenant: '', id: parked.id })).status?.state).toBe(TaskState.TASK_STATE_CANCELED);
  });

  it('cancels a never-finish task while it streams, ending the open stream with CANCELED', async () => {
    const stream = client
      .sendMessageStream(sendRequest(analyse({ metadata: { scenario: 'never-finish' } })))
      [Symbol.asyncIterator]();
    const head = await readUntil(stream, isStatus(TaskState.TASK_STATE_WORKING));
    const task = head[0]?.payload?.$case === 'task' ? head[0].payload.value : undefined;

    const canceled = await client.cancelTask(cancelRequest(task?.id ?? ''));
    expect(canceled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    expect(statusStates(await drain(stream))).toEqual([TaskState.TASK_STATE_CANCELED]);
  });

  it('cancels a never-finish task that was sent with returnImmediately', async () => {
    const submitted = await sendForTask(client, analyse({ metadata: { scenario: 'never-finish' } }), {
      returnImmediately: true,
    });
    expect(submitted.status?.state).not.toBe(TaskState.TASK_STATE_COMPLETED);
    const canceled = await client.cancelTask(cancelRequest(submitted.id));
    expect(canceled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
  });

  it('stops streaming the report when a slow task is canceled after its first chunk', async () => {
    const stream = client
      .sendMessageStream(sendRequest(analyse({ metadata: { scenario: 'slow' } })))
      [Symbol.asyncIterator]();
    const head = await readUntil(stream, (e) => e.payload?.$case === 'artifactUpdate');
    const task = head[0]?.payload?.$case === 'task' ? head[0].payload.value : undefined;

    await client.cancelTask(cancelRequest(task?.id ?? ''));
    const rest = await drain(stream);
    expect(rest.some((e) => e.payload?.$case === 'artifactUpdate')).toBe(false);
    expect(statusStates(rest)).toEqual([TaskState.TASK_STATE_CANCELED]);
    const stored = await client.getTask({ tenant: '', id: task?.id ?? '' });
    expect(stored.artifacts[0]?.parts).toHaveLength(1);
  });

  it('fails with the simulated backend failure', async () => {
    const task = await sendForTask(client, analyse({ metadata: { scenario: 'fail' } }));
    expect(task.status?.state).toBe(TaskState.TASK_STATE_FAILED);
    expect(statusText(task)).toBe('Simulated failure: the analysis backend is unavailable.');
  });

  it('rejects the task with a reason', async () => {
    const task = await sendForTask(client, analyse({ metadata: { scenario: 'reject' } }));
    expect(task.status?.state).toBe(TaskState.TASK_STATE_REJECTED);
    expect(statusText(task)).toMatch(/^Rejected: /);
  });

  it('replies with a plain message and creates no task', async () => {
    agent.resetStats();
    const result = await client.sendMessage(sendRequest(analyse({ metadata: { scenario: 'message' } })));
    expect(isTask(result)).toBe(false);
    expect(isTask(result) ? '' : textOfParts(result.parts)).toContain('Direct reply without a task');
    expect(agent.stats.tasksCreated).toBe(0);
  });

  it('asks a second question (package manager) after the Node.js version, then finishes', async () => {
    const first = await sendForTask(
      client,
      userMessage({
        text: 'Analyse payment-service',
        data: SAMPLE_MANIFEST,
        metadata: { scenario: 'second-question' },
      }),
    );
    expect(statusText(first)).toContain('Which Node.js version should payment-service target?');
    const second = await sendForTask(client, userMessage({ text: '24', taskId: first.id }));
    expect(second.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(statusText(second)).toBe('Which package manager does payment-service use: npm or pnpm?');
    const third = await sendForTask(client, userMessage({ text: 'We use pnpm', taskId: first.id }));
    expect(third.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(textOfParts(third.artifacts[0]?.parts ?? [])).toContain('- Package manager: pnpm');
  });

  it('stops in AUTH_REQUIRED until any follow-up message authorizes the private registry', async () => {
    const parked = await sendForTask(client, analyse({ metadata: { scenario: 'auth-required' } }));
    expect(parked.status?.state).toBe(TaskState.TASK_STATE_AUTH_REQUIRED);
    expect(statusText(parked)).toContain('Authorize access to the private npm registry');

    const resumed = await sendForTask(client, userMessage({ text: 'Access granted.', taskId: parked.id }));
    expect(resumed.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
  });

  it('resumes an AUTH_REQUIRED task on its own stream once the client ended the first one', async () => {
    const first = client
      .sendMessageStream(sendRequest(analyse({ metadata: { scenario: 'auth-required' } })))
      [Symbol.asyncIterator]();
    const head = await readUntil(first, isStatus(TaskState.TASK_STATE_AUTH_REQUIRED));
    const task = head[0]?.payload?.$case === 'task' ? head[0].payload.value : undefined;
    // The SDK keeps a stream open at AUTH_REQUIRED (it expects out-of-band credentials), so the
    // client ends the turn itself.
    await first.return?.();

    const resumed = await streamAll(client, userMessage({ text: 'Done, authorized.', taskId: task?.id }));
    expect(statusStates(resumed)).toEqual([TaskState.TASK_STATE_WORKING, TaskState.TASK_STATE_COMPLETED]);
  });

  it('errors a stream held open through AUTH_REQUIRED when the follow-up turn starts (the SDK refuses a second task event on it)', async () => {
    const first = client
      .sendMessageStream(sendRequest(analyse({ metadata: { scenario: 'auth-required' } })))
      [Symbol.asyncIterator]();
    const head = await readUntil(first, isStatus(TaskState.TASK_STATE_AUTH_REQUIRED));
    const task = head[0]?.payload?.$case === 'task' ? head[0].payload.value : undefined;

    const resumed = await sendForTask(client, userMessage({ text: 'Done, authorized.', taskId: task?.id }));
    expect(resumed.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    await expect(drain(first)).rejects.toThrow(/Stream ordering violation/);
  });

  it('resumes an AUTH_REQUIRED task on its own when access is granted out of band', async () => {
    const parked = await sendForTask(client, analyse({ metadata: { scenario: 'auth-out-of-band' } }));
    expect(parked.status?.state).toBe(TaskState.TASK_STATE_AUTH_REQUIRED);
    const done = await waitFor(
      async () => {
        const task = await client.getTask({ tenant: '', id: parked.id });
        return task.status?.state === TaskState.TASK_STATE_COMPLETED && task;
      },
      { what: 'the task to resume and complete', timeoutMs: 10_000 },
    );
    expect(textOfParts(done.artifacts[0]?.parts ?? [])).toContain('Node.js 24');
    // No message was needed: the history holds the request and the agent's own messages only.
    expect(done.history.filter((m) => m.role === Role.ROLE_USER)).toHaveLength(1);
  });

  it('streams an out-of-band resume on the stream that reached AUTH_REQUIRED', async () => {
    const events = await streamAll(client, analyse({ metadata: { scenario: 'auth-out-of-band' } }));
    expect(statusStates(events)).toEqual([
      TaskState.TASK_STATE_WORKING,
      TaskState.TASK_STATE_AUTH_REQUIRED,
      TaskState.TASK_STATE_WORKING,
      TaskState.TASK_STATE_WORKING,
      TaskState.TASK_STATE_COMPLETED,
    ]);
  });

  it('answers the TCK messageId prefixes', async () => {
    const complete = await sendForTask(
      client,
      userMessage({ text: 'hi', messageId: `tck-complete-task-${transport}` }),
    );
    expect(complete.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);

    const reject = await sendForTask(client, userMessage({ text: 'hi', messageId: `tck-reject-task-${transport}` }));
    expect(reject.status?.state).toBe(TaskState.TASK_STATE_REJECTED);

    const reply = await client.sendMessage(
      sendRequest(userMessage({ text: 'hi', messageId: `tck-message-response-${transport}` })),
    );
    expect(isTask(reply)).toBe(false);

    const input = await sendForTask(client, userMessage({ text: 'hi', messageId: `tck-input-required-${transport}` }));
    expect(input.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    const answered = await sendForTask(client, userMessage({ text: 'more input', taskId: input.id }));
    expect(answered.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
  });
});

describe('Dependency Compatibility Agent delays', () => {
  it(
    'lets metadata.workDelayMs and metadata.chunkDelayMs override the agent defaults for one task',
    { timeout: 15_000 },
    async () => {
      const agent = await startDependencyCompatAgent({ workDelayMs: 600_000, chunkDelayMs: 600_000 });
      try {
        const client = await connect(agent, 'JSONRPC');
        const events = await streamAll(
          client,
          userMessage({ text: 'Node.js 24', data: SAMPLE_MANIFEST, metadata: { workDelayMs: 0, chunkDelayMs: 0 } }),
        );
        expect(statusStates(events).at(-1)).toBe(TaskState.TASK_STATE_COMPLETED);
        expect(assembleArtifacts(events).get('compatibility-report')?.complete).toBe(true);
      } finally {
        await agent.close();
      }
    },
  );

  it('refuses negative delays', async () => {
    await expect(startDependencyCompatAgent({ workDelayMs: -1 })).rejects.toThrow(
      /workDelayMs must be a non-negative number/,
    );
  });
});
