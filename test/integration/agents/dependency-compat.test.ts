import { TaskState } from '@a2a-js/sdk';
import type { Client } from '@a2a-js/sdk/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAMPLE_MANIFEST, startDependencyCompatAgent, type RunningAgent } from '../../../agents/index.js';
import {
  assembleArtifacts,
  connect,
  dataOfParts,
  lastStatusText,
  sendForTask,
  statusStates,
  statusText,
  streamAll,
  textOfParts,
  TRANSPORTS,
  userMessage,
} from './support/sdk-client.js';

const ANALYSE = 'Analyse the dependency manifest of payment-service for the runtime upgrade.';

interface FindingData {
  name: string;
  risk: string;
}

function findingsOf(data: unknown): FindingData[] {
  return (data as { findings: FindingData[] }).findings;
}

describe.each(TRANSPORTS)('Dependency Compatibility Agent over %s', (transport) => {
  let agent: RunningAgent;
  let client: Client;

  beforeAll(async () => {
    agent = await startDependencyCompatAgent({ workDelayMs: 20, chunkDelayMs: 10 });
    client = await connect(agent, transport);
  });
  afterAll(() => agent.close());

  it('asks for the target Node.js version, then completes the same task with the chunked report (blocking)', async () => {
    const first = await sendForTask(client, userMessage({ text: ANALYSE, data: SAMPLE_MANIFEST }));
    expect(first.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(statusText(first)).toBe('Which Node.js version should payment-service target? (for example: Node.js 24)');

    const second = await sendForTask(
      client,
      userMessage({ text: 'Node.js 24', taskId: first.id, contextId: first.contextId }),
    );
    expect(second.id).toBe(first.id);
    expect(second.contextId).toBe(first.contextId);
    expect(second.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    const report = second.artifacts.find((a) => a.artifactId === 'compatibility-report');
    expect(report?.name).toBe('Compatibility report');
    // The SDK's store keeps appended chunks as separate parts: 3 markdown parts + 1 data part.
    expect(report?.parts.map((p) => p.mediaType)).toEqual([
      'text/markdown',
      'text/markdown',
      'text/markdown',
      'application/json',
    ]);
    expect(textOfParts(report?.parts ?? [])).toContain('# Compatibility report: payment-service 1.4.0 on Node.js 24');
    const [data] = dataOfParts(report?.parts ?? []);
    expect(data).toMatchObject({ targetNode: 24 });
    const risks = new Set(findingsOf(data).map((f) => f.risk));
    expect(risks).toEqual(new Set(['high', 'medium', 'low']));
  });

  it('streams the question, then the answer turn as an artifact in appended chunks ending with lastChunk', async () => {
    const turn1 = await streamAll(client, userMessage({ text: ANALYSE, data: SAMPLE_MANIFEST }));
    expect(turn1[0]?.payload?.$case).toBe('task');
    expect(statusStates(turn1)).toEqual([TaskState.TASK_STATE_WORKING, TaskState.TASK_STATE_INPUT_REQUIRED]);
    const task = turn1[0]?.payload?.$case === 'task' ? turn1[0].payload.value : undefined;
    expect(task).toBeDefined();

    const turn2 = await streamAll(client, userMessage({ text: 'v24', taskId: task?.id, contextId: task?.contextId }));
    expect(statusStates(turn2)).toEqual([TaskState.TASK_STATE_WORKING, TaskState.TASK_STATE_COMPLETED]);
    const artifact = assembleArtifacts(turn2).get('compatibility-report');
    expect(artifact?.chunks).toBeGreaterThanOrEqual(3);
    expect(artifact?.appends).toEqual([false, ...Array<boolean>((artifact?.chunks ?? 1) - 1).fill(true)]);
    expect(artifact?.complete).toBe(true);
    expect(textOfParts(artifact?.parts ?? [])).toMatch(/## Findings[\s\S]*## Summary/);
    expect(lastStatusText(turn2)).toMatch(/^The compatibility report for payment-service on Node\.js 24 is ready/);
  });

  it('goes straight to work when the request already names the Node.js version', async () => {
    const task = await sendForTask(
      client,
      userMessage({ text: 'Check payment-service against node 22', data: SAMPLE_MANIFEST }),
    );
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    const report = task.artifacts.find((a) => a.artifactId === 'compatibility-report');
    expect(dataOfParts(report?.parts ?? [])[0]).toMatchObject({ targetNode: 22 });
  });

  it('answers a follow-up that references the finished task with a new task holding the findings sorted by risk', async () => {
    const done = await sendForTask(client, userMessage({ text: `${ANALYSE} Target Node 24.`, data: SAMPLE_MANIFEST }));
    expect(done.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);

    const sorted = await sendForTask(
      client,
      userMessage({
        text: 'Please sort the fix suggestions by risk.',
        contextId: done.contextId,
        referenceTaskIds: [done.id],
      }),
    );
    expect(sorted.id).not.toBe(done.id);
    expect(sorted.contextId).toBe(done.contextId);
    expect(sorted.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    const artifact = sorted.artifacts.find((a) => a.artifactId === 'sorted-fix-suggestions');
    const findings = findingsOf(dataOfParts(artifact?.parts ?? [])[0]);
    const original = findingsOf(dataOfParts(done.artifacts[0]?.parts ?? [])[0]);
    expect(findings).toHaveLength(original.length);
    const order = findings.map((f) => ['high', 'medium', 'low'].indexOf(f.risk));
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(findings.map((f) => f.name).slice(0, 3)).toEqual(['node-sass', 'sharp', 'sqlite3']);
    expect(textOfParts(artifact?.parts ?? [])).toContain('1. **node-sass** (high)');
  });

  it('fails a follow-up whose referenced task is unknown, saying so', async () => {
    const task = await sendForTask(
      client,
      userMessage({ text: 'Sort the fix suggestions by risk', referenceTaskIds: ['no-such-task'] }),
    );
    expect(task.status?.state).toBe(TaskState.TASK_STATE_FAILED);
    expect(statusText(task)).toContain('the referenced task no-such-task is unknown');
  });

  it('fails a request without a manifest, saying what is missing', async () => {
    const noManifest = await sendForTask(client, userMessage({ text: 'Analyse payment-service for Node.js 24' }));
    expect(noManifest.status?.state).toBe(TaskState.TASK_STATE_FAILED);
    expect(statusText(noManifest)).toContain('the request has no dependency manifest');

    const noDependencies = await sendForTask(
      client,
      userMessage({ text: 'Node.js 24', data: { name: 'payment-service' } }),
    );
    expect(noDependencies.status?.state).toBe(TaskState.TASK_STATE_FAILED);
    expect(statusText(noDependencies)).toContain('no "dependencies" object');
  });
});
