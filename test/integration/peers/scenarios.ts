/**
 * The delegation scenarios of the peer matrix: each one runs the real `delegate` workflow against
 * one peer in one mode and asserts what a user would see (the question, the answer's receipt,
 * the result, the remote task as the agent reports it). Every peer implements the same scenario
 * switches (`metadata.scenario`), so one table covers them all.
 */
import type { WorkflowHandle } from '@temporalio/client';
import { expect } from 'vitest';
import { artifactText, type Artifact, type Task } from '../../../a2a/index.js';
import { trackingProgress } from '../../../client/tracking-progress.js';
import {
  answerUpdate,
  FailureType,
  type DelegateInput,
  type DelegateResult,
  type PendingQuestion,
  type TrackingMode,
} from '../../../contract/index.js';
import { failureOf, statusOf, waitForQuestion } from '../../helpers/delegations.js';
import { waitFor } from '../../helpers/wait.js';
import type { RunningPeer } from '../../peers/peers.js';

export type Mode = Exclude<TrackingMode, 'auto'>;

/** What a scenario gets: the peer, the mode, and a way to start delegations to it. */
export interface Cell {
  peer: RunningPeer;
  /** The agents-file name the delegations use (the peer over one binding, e.g. `js-GRPC`). */
  agent: string;
  mode: Mode;
  /** Starts `delegate` with the payment-service request to this peer in this mode, plus `input`. */
  start(input?: Partial<DelegateInput>): Promise<WorkflowHandle>;
  /** The remote task as the peer reports it (`GetTask` through our own client). */
  remoteTask(taskId: string): Promise<Task>;
}

export interface Scenario {
  /** Column header of the matrix. */
  name: string;
  run(cell: Cell): Promise<void>;
}

const COMPLETED = 'TASK_STATE_COMPLETED';
const WITH_VERSION = 'Check the dependencies of payment-service for Node.js 24.';
const RISK_ORDER = ['high', 'medium', 'low'];

interface FindingData {
  name: string;
  risk: string;
}

function artifactOf(result: DelegateResult, artifactId: string): Artifact {
  const artifact = result.artifacts.find((a) => a.artifactId === artifactId);
  expect(artifact, `artifact ${artifactId} in the result`).toBeDefined();
  return artifact!;
}

function dataOf(artifact: Artifact): unknown[] {
  return artifact.parts.flatMap((part) => ('data' in part ? [part.data] : []));
}

function findingsOf(artifact: Artifact): FindingData[] {
  const data = dataOf(artifact).find((d) => typeof d === 'object' && d !== null && 'findings' in d) as
    { findings: FindingData[] } | undefined;
  expect(data?.findings, `findings in a data part of ${artifact.artifactId}`).toBeDefined();
  return data!.findings;
}

async function completed(handle: WorkflowHandle, rounds: number, taskId?: string): Promise<DelegateResult> {
  const result = (await handle.result()) as DelegateResult;
  expect(result).toMatchObject({ kind: 'task', state: COMPLETED, rounds });
  expect(result.taskId, 'the remote task id in the result').toBeTruthy();
  if (taskId) expect(result.taskId, 'the task that asked the question').toBe(taskId);
  return result;
}

/** The agent's question (see waitForQuestion), which must name the task that asks it. */
async function questionOf(handle: WorkflowHandle, after?: PendingQuestion): Promise<PendingQuestion> {
  const question = await waitForQuestion(handle, after);
  expect(question.taskId, 'the id of the task that asks').toBeTruthy();
  return question;
}

/** The id of the remote task once the peer reports it WORKING (from the live heartbeat or the status). */
async function workingTask(cell: Cell, handle: WorkflowHandle): Promise<string> {
  const taskId = await waitFor(
    async () => (await trackingProgress(handle))?.taskId || (await statusOf(handle)).taskId,
    { what: `the remote task of ${handle.workflowId}` },
  );
  await waitFor(async () => (await cell.remoteTask(taskId)).status.state === 'TASK_STATE_WORKING', {
    what: `task ${taskId} working at the peer`,
  });
  return taskId;
}

async function expectCanceled(cell: Cell, handle: WorkflowHandle, taskId: string): Promise<void> {
  expect((await failureOf(handle)).name).toBe('CancelledFailure');
  expect((await cell.remoteTask(taskId)).status.state, `task ${taskId} at the peer`).toBe('TASK_STATE_CANCELED');
}

export const SCENARIOS: Scenario[] = [
  {
    name: 'input round',
    async run(cell) {
      const handle = await cell.start();
      const question = await questionOf(handle);
      expect(question).toMatchObject({
        state: 'TASK_STATE_INPUT_REQUIRED',
        text: expect.stringMatching(/Node\.js version/),
      });
      const receipt = await handle.executeUpdate(answerUpdate, { args: [{ text: 'Node.js 24' }] });
      expect(receipt).toMatchObject({ taskId: question.taskId, round: 1 });
      const result = await completed(handle, 1, question.taskId);
      expect(artifactText(artifactOf(result, 'compatibility-report'))).toMatch(/Node\.js 24/);
    },
  },
  {
    name: 'two rounds',
    async run(cell) {
      const handle = await cell.start({ metadata: { scenario: 'second-question' } });
      const first = await questionOf(handle);
      await handle.executeUpdate(answerUpdate, { args: [{ text: 'Node.js 22' }] });
      const second = await questionOf(handle, first);
      expect(second).toMatchObject({ taskId: first.taskId, text: expect.stringMatching(/npm or pnpm/) });
      await handle.executeUpdate(answerUpdate, { args: [{ text: 'pnpm' }] });
      const text = artifactText(artifactOf(await completed(handle, 2, first.taskId), 'compatibility-report'));
      expect(text).toMatch(/Node\.js 22/);
      expect(text).toMatch(/Package manager: pnpm/);
    },
  },
  {
    name: 'artifacts',
    async run(cell) {
      const handle = await cell.start({ text: WITH_VERSION, metadata: { chunkDelayMs: 20 } });
      const result = await completed(handle, 0);
      const ours = artifactOf(result, 'compatibility-report');
      expect(artifactText(ours)).toMatch(/^# Compatibility report: [\s\S]*## Findings[\s\S]*## Summary/);
      expect(findingsOf(ours).length).toBeGreaterThan(0);
      // Assembled from three chunks, it must equal the artifact the agent itself stored.
      const theirs = (await cell.remoteTask(result.taskId!)).artifacts?.find((a) => a.artifactId === ours.artifactId);
      expect(theirs, 'the report at the peer').toBeDefined();
      expect(artifactText(ours)).toBe(artifactText(theirs!));
      expect(dataOf(ours)).toEqual(dataOf(theirs!));
    },
  },
  {
    name: 'cancel waiting',
    async run(cell) {
      const handle = await cell.start();
      const question = await questionOf(handle);
      await handle.cancel();
      await expectCanceled(cell, handle, question.taskId);
    },
  },
  {
    name: 'cancel working',
    async run(cell) {
      const handle = await cell.start({ text: WITH_VERSION, metadata: { scenario: 'never-finish' } });
      const taskId = await workingTask(cell, handle);
      await handle.cancel();
      await expectCanceled(cell, handle, taskId);
    },
  },
  {
    name: 'follow-up',
    async run(cell) {
      const report = await completed(await cell.start({ text: WITH_VERSION }), 0);
      const handle = await cell.start({
        text: 'Sort the fix suggestions by risk',
        parts: [],
        contextId: report.contextId,
        referenceTaskIds: [report.taskId!],
      });
      const sorted = await completed(handle, 0);
      expect(sorted.contextId).toBe(report.contextId);
      expect(sorted.taskId).not.toBe(report.taskId);
      const findings = findingsOf(artifactOf(sorted, 'sorted-fix-suggestions'));
      const ranks = findings.map((f) => RISK_ORDER.indexOf(f.risk));
      expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
      const reported = findingsOf(artifactOf(report, 'compatibility-report')).map((f) => f.name);
      expect(findings.map((f) => f.name).sort()).toEqual([...reported].sort());
    },
  },
  {
    name: 'auth',
    async run(cell) {
      const handle = await cell.start({ text: WITH_VERSION, metadata: { scenario: 'auth-required' } });
      const question = await questionOf(handle);
      expect(question).toMatchObject({
        state: 'TASK_STATE_AUTH_REQUIRED',
        text: expect.stringMatching(/Authorize access to the private npm registry/),
      });
      await handle.executeUpdate(answerUpdate, { args: [{ text: 'Access granted.' }] });
      await completed(handle, 1, question.taskId);
    },
  },
  {
    name: 'message',
    async run(cell) {
      const result = (await (await cell.start({ metadata: { scenario: 'message' } })).result()) as DelegateResult;
      expect(result.kind).toBe('message');
      expect(result.message?.role).toBe('ROLE_AGENT');
      expect(result.taskId).toBeUndefined();
    },
  },
  {
    name: 'failed',
    async run(cell) {
      const handle = await cell.start({ text: WITH_VERSION, metadata: { scenario: 'fail' } });
      const cause = await failureOf(handle);
      expect(cause).toMatchObject({ type: FailureType.taskFailed, nonRetryable: true });
      expect(cause.message.startsWith(`Agent "${cell.agent}" failed task `), cause.message).toBe(true);
      expect(cause.message).toMatch(/failed task \S+: \S+/);
    },
  },
];
