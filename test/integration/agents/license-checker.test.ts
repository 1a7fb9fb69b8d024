import { TaskState } from '@a2a-js/sdk';
import type { Client } from '@a2a-js/sdk/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAMPLE_MANIFEST, startLicenseAgent, type RunningAgent } from '../../../agents/index.js';
import {
  connect,
  dataOfParts,
  sendForTask,
  statusText,
  textOfParts,
  TRANSPORTS,
  userMessage,
} from './support/sdk-client.js';

describe.each(TRANSPORTS)('License Checker over %s', (transport) => {
  let agent: RunningAgent;
  let client: Client;

  beforeAll(async () => {
    agent = await startLicenseAgent({ workDelayMs: 10, chunkDelayMs: 5 });
    client = await connect(agent, transport);
  });
  afterAll(() => agent.close());

  it('returns a license findings artifact for the manifest and completes', async () => {
    const task = await sendForTask(client, userMessage({ text: 'Check the licenses', data: SAMPLE_MANIFEST }));
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    const report = task.artifacts.find((a) => a.artifactId === 'license-report');
    expect(textOfParts(report?.parts ?? [])).toContain('| hyperformula | ^2.6.2 | GPL-3.0-only |');
    const { findings } = dataOfParts(report?.parts ?? [])[0] as {
      findings: { name: string; risk: string; reason: string }[];
    };
    expect(findings.map((f) => [f.name, f.risk])).toEqual([
      ['event-stream', 'high'],
      ['hyperformula', 'high'],
    ]);
    expect(findings[0]?.reason).toContain('event-stream@3.3.6');
  });

  it('fails without a manifest', async () => {
    const task = await sendForTask(client, userMessage({ text: 'Check the licenses' }));
    expect(task.status?.state).toBe(TaskState.TASK_STATE_FAILED);
    expect(statusText(task)).toContain('Cannot check licenses: the request has no dependency manifest');
  });

  it('honours the fail, reject and never-finish switches', async () => {
    const failed = await sendForTask(client, userMessage({ data: SAMPLE_MANIFEST, metadata: { scenario: 'fail' } }));
    expect(failed.status?.state).toBe(TaskState.TASK_STATE_FAILED);
    const rejected = await sendForTask(
      client,
      userMessage({ data: SAMPLE_MANIFEST, metadata: { scenario: 'reject' } }),
    );
    expect(rejected.status?.state).toBe(TaskState.TASK_STATE_REJECTED);

    const parked = await sendForTask(
      client,
      userMessage({ data: SAMPLE_MANIFEST, metadata: { scenario: 'never-finish' } }),
      {
        returnImmediately: true,
      },
    );
    expect((await client.cancelTask({ tenant: '', id: parked.id, metadata: undefined })).status?.state).toBe(
      TaskState.TASK_STATE_CANCELED,
    );
  });
});
