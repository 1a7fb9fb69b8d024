/**
 * Interop: our client against the Dependency Compatibility Agent built on the official SDK,
 * over both bindings, in A2A 1.0 and (through the SDK's compat layer) 0.3.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDependencyCompatAgent, type RunningAgent } from '../../../agents/index.js';
import {
  applyArtifactUpdate,
  artifactSetFromTask,
  artifactText,
  createA2AClient,
  emptyArtifactSet,
  fetchAgentCard,
  isTerminalState,
  type A2AClient,
  type ArtifactSet,
  type StreamResponse,
  type Task,
} from '../../../a2a/index.js';
import { StreamIdleTimeoutError } from '../../../a2a/errors.js';
import { chunkPosition } from '../../../a2a/artifacts.js';
import { MODES, endpointFor, readTurn, readUntilState, stateOf, textOf, userMessage } from './support.js';

let agent: RunningAgent;

beforeAll(async () => {
  agent = await startDependencyCompatAgent({ port: 0, legacy: true, workDelayMs: 20, chunkDelayMs: 20 });
});

afterAll(async () => {
  await agent?.close();
});

function taskOf(response: { task: Task } | { message: unknown }): Task {
  if (!('task' in response)) throw new Error(`expected a task, got ${JSON.stringify(response)}`);
  return response.task;
}

function assemble(events: StreamResponse[], start: ArtifactSet = emptyArtifactSet()): ArtifactSet {
  let set = start;
  for (const event of events) {
    if ('task' in event) set = artifactSetFromTask(event.task);
    if ('artifactUpdate' in event)
      set = applyArtifactUpdate(set, event.artifactUpdate, chunkPosition(set, event.artifactUpdate));
  }
  return set;
}

describe.each(MODES)('interop over $name', (mode) => {
  let client: A2AClient;

  beforeAll(async () => {
    const { card } = await fetchAgentCard(agent.baseUrl);
    client = createA2AClient({ card, endpoint: endpointFor(card, mode) }, { timeoutMs: 20_000 });
    expect(client.endpoint).toMatchObject({ binding: mode.binding, protocolVersion: mode.version });
  });

  it('blocking send parks in INPUT_REQUIRED with the question; the answer on the same task completes it', async () => {
    const asked = taskOf(await client.sendMessage({ message: userMessage({ text: 'Check my dependencies' }) }));
    expect(asked.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    expect(textOf(asked.status.message)).toMatch(/Which Node\.js version should payment-service target/);

    const done = taskOf(
      await client.sendMessage({
        message: userMessage({
          text: 'Node.js 24',
          manifest: false,
          taskId: asked.id,
          ...(asked.contextId ? { contextId: asked.contextId } : {}),
        }),
      }),
    );
    expect(done.id).toBe(asked.id);
    expect(done.status.state).toBe('TASK_STATE_COMPLETED');
    const report = done.artifacts?.find((a) => a.artifactId === 'compatibility-report');
    expect(report?.parts.length).toBeGreaterThanOrEqual(3);
    expect(artifactText(report!)).toContain('node-sass');
  });

  it('returnImmediately answers at once with the new task, which then parks for input', async () => {
    const sent = taskOf(
      await client.sendMessage({
        message: userMessage({ text: 'Check my dependencies' }),
        configuration: { returnImmediately: true },
      }),
    );
    expect(isTerminalState(sent.status.state)).toBe(false);
    expect(sent.status.state).not.toBe('TASK_STATE_INPUT_REQUIRED');
    const events = await readUntilState(
      client.subscribeToTask({ id: sent.id }, { idleTimeoutMs: 10_000 }),
      (s) => s === 'TASK_STATE_INPUT_REQUIRED',
    );
    expect(stateOf(events.at(-1)!)).toBe('TASK_STATE_INPUT_REQUIRED');
    await client.cancelTask({ id: sent.id });
  });

  it('streams a task whose artifact arrives in chunks, reassembled to what GetTask stores', async () => {
    const events = await readTurn(
      client.sendStreamingMessage({ message: userMessage({ text: 'Check for Node.js 24' }) }),
    );
    expect(events.map((e) => Object.keys(e)[0])[0]).toBe('task');
    const chunks = events.filter((e) => 'artifactUpdate' in e);
    expect(chunks.length).toBeGreaterThanOrEqual(3);
    expect(stateOf(events.at(-1)!)).toBe('TASK_STATE_COMPLETED');

    const assembled = assemble(events);
    expect(assembled.lastChunk['compatibility-report']).toBe(true);
    const taskId = (events[0] as { task: Task }).task.id;
    const stored = await client.getTask({ id: taskId });
    const storedReport = stored.artifacts?.find((a) => a.artifactId === 'compatibility-report');
    expect(artifactText(assembled.artifacts[0]!)).toBe(artifactText(storedReport!));
    expect(artifactText(storedReport!)).toContain('# Compatibility report: payment-service on Node.js 24');
  });

  it('streams input-required, then the answer on the same task through a follow-up stream', async () => {
    const first = await readTurn(
      client.sendStreamingMessage({ message: userMessage({ text: 'Check my dependencies' }) }),
    );
    expect(stateOf(first.at(-1)!)).toBe('TASK_STATE_INPUT_REQUIRED');
    const task = (first[0] as { task: Task }).task;

    const second = await readTurn(
      client.sendStreamingMessage({
        message: userMessage({
          text: 'Node.js 22',
          manifest: false,
          taskId: task.id,
          ...(task.contextId ? { contextId: task.contextId } : {}),
        }),
      }),
    );
    // The SDK trap: the follow-up stream opens with a snapshot still saying INPUT_REQUIRED.
    expect(stateOf(second[0]!)).toBe('TASK_STATE_INPUT_REQUIRED');
    expect(stateOf(second.at(-1)!)).toBe('TASK_STATE_COMPLETED');
    expect(artifactText(assemble(second).artifacts[0]!)).toContain('Node.js 22');
  });

  it('subscribes to a running task: snapshot first, then the rest of its chunks', async () => {
    const sent = taskOf(
      await client.sendMessage({
        message: userMessage({ text: 'Check for Node.js 24', metadata: { chunkDelayMs: 400 } }),
        configuration: { returnImmediately: true },
      }),
    );
    const events = await readTurn(client.subscribeToTask({ id: sent.id }, { idleTimeoutMs: 10_000 }));
    expect('task' in events[0]!).toBe(true);
    expect(stateOf(events.at(-1)!)).toBe('TASK_STATE_COMPLETED');
    const assembled = assemble(events);
    const stored = await client.getTask({ id: sent.id });
    expect(artifactText(assembled.artifacts[0]!)).toBe(artifactText(stored.artifacts![0]!));
  });

  it('keeps a subscription to a parked task open and silent, until the idle timeout', async () => {
    const parked = taskOf(await client.sendMessage({ message: userMessage({ text: 'Check my dependencies' }) }));
    const seen: StreamResponse[] = [];
    const started = Date.now();
    await expect(
      (async () => {
        for await (const event of client.subscribeToTask({ id: parked.id }, { idleTimeoutMs: 400 })) seen.push(event);
      })(),
    ).rejects.toBeInstanceOf(StreamIdleTimeoutError);
    expect(Date.now() - started).toBeGreaterThanOrEqual(350);
    expect(seen).toHaveLength(1);
    expect(stateOf(seen[0]!)).toBe('TASK_STATE_INPUT_REQUIRED');
    await client.cancelTask({ id: parked.id });
  });

  it('gets a task with a bounded history', async () => {
    const parked = taskOf(await client.sendMessage({ message: userMessage({ text: 'Check my dependencies' }) }));
    const full = await client.getTask({ id: parked.id });
    expect(full.history?.length).toBeGreaterThanOrEqual(2);
    const last = await client.getTask({ id: parked.id, historyLength: 1 });
    expect(last.history).toHaveLength(1);
    expect(last.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    await client.cancelTask({ id: parked.id });
  });

  it('cancels a parked task', async () => {
    const parked = taskOf(await client.sendMessage({ message: userMessage({ text: 'Check my dependencies' }) }));
    const canceled = await client.cancelTask({ id: parked.id });
    expect(canceled.status.state).toBe('TASK_STATE_CANCELED');
    expect((await client.getTask({ id: parked.id })).status.state).toBe('TASK_STATE_CANCELED');
  });

  it('cancels a running task, which ends its open stream', async () => {
    const stream = client.sendStreamingMessage({ message: userMessage({ metadata: { scenario: 'never-finish' } }) });
    const events: StreamResponse[] = [];
    for await (const event of stream) {
      events.push(event);
      if (stateOf(event) === 'TASK_STATE_WORKING')
        await client.cancelTask({ id: (events[0] as { task: Task }).task.id });
    }
    expect(stateOf(events.at(-1)!)).toBe('TASK_STATE_CANCELED');
  });

  it('receives a direct Message reply (scenario "message")', async () => {
    const response = await client.sendMessage({ message: userMessage({ metadata: { scenario: 'message' } }) });
    expect('message' in response && response.message.role).toBe('ROLE_AGENT');
    const streamed = await readTurn(
      client.sendStreamingMessage({ message: userMessage({ metadata: { scenario: 'message' } }) }),
    );
    expect(streamed).toHaveLength(1);
    expect('message' in streamed[0]!).toBe(true);
  });

  it("reports FAILED, REJECTED and AUTH_REQUIRED as task states with the agent's words", async () => {
    const failed = taskOf(await client.sendMessage({ message: userMessage({ metadata: { scenario: 'fail' } }) }));
    expect(failed.status.state).toBe('TASK_STATE_FAILED');
    expect(textOf(failed.status.message)).toMatch(/Simulated failure/);
    const rejected = taskOf(await client.sendMessage({ message: userMessage({ metadata: { scenario: 'reject' } }) }));
    expect(rejected.status.state).toBe('TASK_STATE_REJECTED');
    const auth = taskOf(
      await client.sendMessage({ message: userMessage({ metadata: { scenario: 'auth-required' } }) }),
    );
    expect(auth.status.state).toBe('TASK_STATE_AUTH_REQUIRED');
    await client.cancelTask({ id: auth.id });
  });

  it('answers a second question on the same task (scenario "second-question")', async () => {
    const first = taskOf(
      await client.sendMessage({
        message: userMessage({ text: 'Node.js 24', metadata: { scenario: 'second-question' } }),
      }),
    );
    expect(first.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    expect(textOf(first.status.message)).toMatch(/package manager/);
    const done = taskOf(
      await client.sendMessage({ message: userMessage({ text: 'pnpm', manifest: false, taskId: first.id }) }),
    );
    expect(done.status.state).toBe('TASK_STATE_COMPLETED');
  });

  it('registers, reads, lists and deletes a push notification config', async () => {
    const parked = taskOf(await client.sendMessage({ message: userMessage({ text: 'Check my dependencies' }) }));
    const created = await client.createPushConfig({
      taskId: parked.id,
      id: 'hook-1',
      url: 'http://127.0.0.1:9/hook',
      authentication: { scheme: 'Bearer', credentials: 'webhook-secret' },
    });
    expect(created).toMatchObject({ taskId: parked.id, id: 'hook-1', url: 'http://127.0.0.1:9/hook' });
    expect(await client.getPushConfig({ taskId: parked.id, id: 'hook-1' })).toMatchObject({
      id: 'hook-1',
      url: 'http://127.0.0.1:9/hook',
    });
    expect((await client.listPushConfigs({ taskId: parked.id })).configs.map((c) => c.id)).toEqual(['hook-1']);
    await client.deletePushConfig({ taskId: parked.id, id: 'hook-1' });
    expect((await client.listPushConfigs({ taskId: parked.id })).configs).toEqual([]);
    await client.cancelTask({ id: parked.id });
  });
});

describe.each(MODES.filter((m) => m.version === '1.0'))('ListTasks and follow-ups over $name', (mode) => {
  let client: A2AClient;

  beforeAll(async () => {
    const { card } = await fetchAgentCard(agent.baseUrl);
    client = createA2AClient({ card, endpoint: endpointFor(card, mode) }, { timeoutMs: 20_000 });
  });

  it('lists the tasks of a context, newest first, with paging', async () => {
    const first = taskOf(await client.sendMessage({ message: userMessage({ text: 'Check my dependencies' }) }));
    const contextId = first.contextId!;
    const second = taskOf(await client.sendMessage({ message: userMessage({ text: 'Node.js 24', contextId }) }));
    const page = await client.listTasks({ contextId, pageSize: 1 });
    expect(page.tasks.map((t) => t.id)).toEqual([second.id]);
    expect(page.totalSize).toBe(2);
    expect(page.nextPageToken).not.toBe('');
    const rest = await client.listTasks({ contextId, pageSize: 1, pageToken: page.nextPageToken });
    expect(rest.tasks.map((t) => t.id)).toEqual([first.id]);
    const parked = await client.listTasks({ contextId, status: 'TASK_STATE_INPUT_REQUIRED' });
    expect(parked.tasks.map((t) => t.id)).toEqual([first.id]);
    await client.cancelTask({ id: first.id });
  });

  it('starts a new task for a follow-up that references a finished one', async () => {
    const done = taskOf(await client.sendMessage({ message: userMessage({ text: 'Node.js 24' }) }));
    expect(done.status.state).toBe('TASK_STATE_COMPLETED');
    const followUp = taskOf(
      await client.sendMessage({
        message: userMessage({
          text: 'Sort the fix suggestions by risk',
          manifest: false,
          contextId: done.contextId!,
          referenceTaskIds: [done.id],
        }),
      }),
    );
    expect(followUp.id).not.toBe(done.id);
    expect(followUp.contextId).toBe(done.contextId);
    expect(followUp.status.state).toBe('TASK_STATE_COMPLETED');
    expect(followUp.artifacts?.[0]?.artifactId).toBe('sorted-fix-suggestions');
  });
});
