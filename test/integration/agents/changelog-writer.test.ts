import { TaskState } from '@a2a-js/sdk';
import type { Client } from '@a2a-js/sdk/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChangelogAgent, type RunningAgent } from '../../../agents/index.js';
import {
  assembleArtifacts,
  connect,
  drain,
  isStatus,
  readUntil,
  sendForTask,
  sendRequest,
  statusStates,
  statusText,
  streamAll,
  textOfParts,
  TRANSPORTS,
  userMessage,
} from './support/sdk-client.js';

const RELEASE = {
  service: 'payment-service',
  from: '1.4.0',
  to: '1.5.0',
  dependencies: [
    {
      name: 'node-sass',
      current: '^7.0.3',
      suggested: 'sass ^1.77.0',
      risk: 'high',
      reason: 'no binaries for Node.js 24',
    },
    { name: 'express', from: '^4.18.2', to: '^5.1.0' },
  ],
};

describe.each(TRANSPORTS)('Changelog Writer over %s', (transport) => {
  let agent: RunningAgent;
  let client: Client;

  beforeAll(async () => {
    agent = await startChangelogAgent({ workDelayMs: 10, chunkDelayMs: 5 });
    client = await connect(agent, transport);
  });
  afterAll(() => agent.close());

  it('streams a markdown changelog in appended chunks and completes', async () => {
    const events = await streamAll(client, userMessage({ text: 'Write the changelog', data: RELEASE }));
    expect(statusStates(events).at(-1)).toBe(TaskState.TASK_STATE_COMPLETED);
    const changelog = assembleArtifacts(events).get('changelog');
    expect(changelog?.appends).toEqual([false, true, true]);
    expect(changelog?.complete).toBe(true);
    const text = textOfParts(changelog?.parts ?? []);
    expect(text).toContain('# payment-service 1.5.0');
    expect(text).toContain('- **node-sass**: ^7.0.3 → sass ^1.77.0 (no binaries for Node.js 24)');
    expect(text).toContain('- **express**: ^4.18.2 → ^5.1.0');
  });

  it('fails when the release data is missing, saying which field', async () => {
    const task = await sendForTask(
      client,
      userMessage({ text: 'Write the changelog', data: { service: 'payment-service', from: '1.4.0' } }),
    );
    expect(task.status?.state).toBe(TaskState.TASK_STATE_FAILED);
    expect(statusText(task)).toContain('"to" is missing');
  });

  it('honours the fail, reject and never-finish switches', async () => {
    const failed = await sendForTask(client, userMessage({ data: RELEASE, metadata: { scenario: 'fail' } }));
    expect(failed.status?.state).toBe(TaskState.TASK_STATE_FAILED);
    const rejected = await sendForTask(client, userMessage({ data: RELEASE, metadata: { scenario: 'reject' } }));
    expect(rejected.status?.state).toBe(TaskState.TASK_STATE_REJECTED);

    const stream = client
      .sendMessageStream(sendRequest(userMessage({ data: RELEASE, metadata: { scenario: 'never-finish' } })))
      [Symbol.asyncIterator]();
    const head = await readUntil(stream, isStatus(TaskState.TASK_STATE_WORKING));
    const id = head[0]?.payload?.$case === 'task' ? head[0].payload.value.id : '';
    expect((await client.cancelTask({ tenant: '', id, metadata: undefined })).status?.state).toBe(
      TaskState.TASK_STATE_CANCELED,
    );
    expect(statusStates(await drain(stream))).toEqual([TaskState.TASK_STATE_CANCELED]);
  });
});
