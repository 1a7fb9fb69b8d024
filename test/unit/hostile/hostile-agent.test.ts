import { afterEach, describe, expect, it } from 'vitest';
import { createA2AClient, fetchAgentCard, type Message, type StreamResponse } from '../../../a2a/index.js';
import { startHostileAgent, type Binding, type HostileAgent, type TaskEvent } from '../../hostile/hostile-agent.js';

let agent: HostileAgent | undefined;
afterEach(async () => {
  await agent?.close();
  agent = undefined;
});

const message = (text: string, taskId?: string): Message =>
  ({ messageId: `m-${text}`, role: 'ROLE_USER', parts: [{ text }], ...(taskId ? { taskId } : {}) }) as Message;

async function clientOf(binding: Binding, turns: TaskEvent[][]) {
  agent = await startHostileAgent({ attack: { agent: { binding, streaming: true, pushNotifications: true, turns } } });
  const { card } = await fetchAgentCard(agent.baseUrl);
  return createA2AClient({ card }, { auth: () => ({ headers: { authorization: 'Bearer t0ken' } }) });
}

describe.each<Binding>(['HTTP+JSON', 'JSONRPC'])('the hostile agent, honest, over %s', (binding) => {
  it('runs its turns, answers GetTask, and records every request with its headers', async () => {
    const client = await clientOf(binding, [
      [{ state: 'TASK_STATE_INPUT_REQUIRED', text: 'Which version?' }],
      [{ artifact: { artifactId: 'a', text: 'result' } }, { state: 'TASK_STATE_COMPLETED', text: 'Done.' }],
    ]);
    const first = await client.sendMessage({ message: message('go') });
    const task = 'task' in first ? first.task : undefined;
    expect(task?.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    await client.sendMessage({ message: message('24', task!.id) });
    const done = await client.getTask({ id: task!.id });
    expect(done.status.state).toBe('TASK_STATE_COMPLETED');
    expect(done.artifacts?.[0]?.parts).toEqual([expect.objectContaining({ text: 'result' })]);
    expect(agent!.requests.map((r) => r.operation)).toEqual(['GetAgentCard', 'SendMessage', 'SendMessage', 'GetTask']);
    expect(agent!.requests.every((r) => r.operation === 'GetAgentCard' || r.binding === binding)).toBe(true);
    expect(agent!.requests[1]?.headers.authorization).toBe('Bearer t0ken');
    expect(agent!.openTasks()).toEqual([]);
  });

  it('streams a turn, cancels a running task and keeps push configs', async () => {
    const client = await clientOf(binding, [[{ state: 'TASK_STATE_WORKING' }]]);
    const events: StreamResponse[] = [];
    for await (const event of client.sendStreamingMessage({ message: message('go') })) events.push(event);
    expect(events.map((e) => Object.keys(e)[0])).toEqual(['task', 'statusUpdate']);
    const taskId = agent!.openTasks()[0]!.id;
    const config = await client.createPushConfig({ taskId, id: 'cfg-1', url: 'http://127.0.0.1:9/hook', token: 'x' });
    expect(config).toMatchObject({ id: 'cfg-1', taskId });
    await client.deletePushConfig({ taskId, id: 'cfg-1' });
    expect((await client.cancelTask({ id: taskId })).status.state).toBe('TASK_STATE_CANCELED');
    expect(agent!.canceled).toEqual([taskId]);
    expect(agent!.openTasks()).toEqual([]);
  });
});
