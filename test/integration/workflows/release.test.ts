import { WorkflowFailedError, WorkflowUpdateFailedError } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createA2AClient, fetchAgentCard } from '../../../a2a/index.js';
import { startSampleAgents, type SampleAgents } from '../../../agents/index.js';
import { listArtifactFiles } from '../../../client/artifacts.js';
import { trackingProgress } from '../../../client/tracking-progress.js';
import { a2aTemporalPlugin } from '../../../worker/plugin.js';
import { approveUpdate, rejectUpdate, releaseAnswerUpdate, type ReleaseResult } from '../../../contract/index.js';
import { runCliProcess } from '../../helpers/cli-process.js';
import { registryOf } from '../../helpers/delegations.js';
import { releaseInput, releaseStatus, startRelease, waitForPhase, waitForQuestions } from '../../helpers/releases.js';
import { uniqueTaskQueue, useTemporal } from '../../helpers/temporal.js';
import { waitFor } from '../../helpers/wait.js';

const temporal = useTemporal();
let samples: SampleAgents;

beforeAll(async () => {
  samples = await startSampleAgents({ workDelayMs: 0, chunkDelayMs: 5 });
});
afterAll(() => samples?.close());

async function withWorker<T>(fn: (taskQueue: string) => Promise<T>): Promise<T> {
  const taskQueue = uniqueTaskQueue('release');
  const worker = await temporal.worker({
    taskQueue,
    plugins: [a2aTemporalPlugin({ registry: registryOf(samples.agents) })],
  });
  return worker.runUntil(fn(taskQueue));
}

async function updateRejection(update: Promise<unknown>): Promise<string> {
  const error = await update.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(error).toBeInstanceOf(WorkflowUpdateFailedError);
  return (error as WorkflowUpdateFailedError).cause?.message ?? '';
}

describe('the release coordinator', () => {
  it('relays the question, follows up in the same context, reports sorted risks and ends approved', async () => {
    const client = await temporal.client();
    const result = await withWorker(async (taskQueue) => {
      const handle = await startRelease(client, taskQueue, releaseInput());
      const [question] = await waitForQuestions(handle);
      expect(question).toMatchObject({ label: 'compat', workflowId: `${handle.workflowId}/compat` });
      expect(question!.text).toMatch(/Node\.js version/);
      expect((await releaseStatus(handle)).phase).toBe('waiting-for-input');
      expect(await updateRejection(handle.executeUpdate(approveUpdate, { args: [{ by: 'ana' }] }))).toMatch(
        /not waiting for approval/,
      );

      const receipt = await handle.executeUpdate(releaseAnswerUpdate, { args: [{ text: 'Node.js 24' }] });
      expect(receipt).toMatchObject({ label: 'compat', taskId: question!.taskId });
      const ready = await waitForPhase(handle, 'awaiting-approval');
      expect(ready.report?.markdown).toMatch(/^# Release report: payment-service 1\.4\.0 → 2\.0\.0/);
      await handle.executeUpdate(approveUpdate, { args: [{ by: 'ana', reason: 'risks understood' }] });
      const ended = (await handle.result()) as ReleaseResult;
      // `a2a-temporal artifacts <release>`: every delegation's files, found from the release's history.
      const listing = await listArtifactFiles({ client, namespace: temporal.server.namespace }, handle.workflowId);
      expect(listing.unfinished).toEqual([]);
      expect([...new Set(listing.files.map((f) => f.agent))].sort()).toEqual(['changelog', 'compat', 'license']);
      expect(listing.files.every((f) => f.workflowId.startsWith(`${handle.workflowId}/`) && f.size! > 0)).toBe(true);
      return ended;
    });

    expect(result).toMatchObject({
      outcome: 'approved',
      decision: { outcome: 'approved', by: 'ana', reason: 'risks understood' },
    });
    const report = result.report!;
    expect(report.targetNode).toBe(24);
    expect(report.sortedByAgent).toBe(true);
    const risks = report.dependencies.map((f) => f.risk);
    expect(risks.length).toBeGreaterThan(3);
    expect(risks).toEqual(
      [...risks].sort((a, b) => ['high', 'medium', 'low'].indexOf(a) - ['high', 'medium', 'low'].indexOf(b)),
    );
    expect(report.analysis.outcome).toBe('completed');
    expect(report.checks.map((c) => [c.label, c.outcome])).toEqual([
      ['changelog', 'completed'],
      ['license', 'completed'],
    ]);
  });

  it('ends rejected with the approver and the reason', async () => {
    const client = await temporal.client();
    const result = await withWorker(async (taskQueue) => {
      const handle = await startRelease(client, taskQueue, releaseInput());
      await waitForQuestions(handle);
      await handle.executeUpdate(releaseAnswerUpdate, { args: [{ text: 'Node.js 22' }] });
      await waitForPhase(handle, 'awaiting-approval');
      expect(await updateRejection(handle.executeUpdate(rejectUpdate, { args: [{ by: 'ben' }] }))).toMatch(
        /needs a reason/,
      );
      await handle.executeUpdate(rejectUpdate, { args: [{ by: 'ben', reason: 'sharp needs a rebuild first' }] });
      return (await handle.result()) as ReleaseResult;
    });
    expect(result).toMatchObject({
      outcome: 'rejected',
      reason: 'sharp needs a rebuild first',
      decision: { by: 'ben' },
    });
  });

  it('reports a failing check without losing the others', async () => {
    const client = await temporal.client();
    const result = await withWorker(async (taskQueue) => {
      const input = releaseInput({
        checks: [
          { label: 'changelog', agent: 'changelog' },
          { label: 'license', agent: 'license', metadata: { scenario: 'fail' } },
        ],
      });
      const handle = await startRelease(client, taskQueue, input);
      await waitForQuestions(handle);
      await handle.executeUpdate(releaseAnswerUpdate, { args: [{ text: 'Node.js 24' }] });
      await waitForPhase(handle, 'awaiting-approval');
      await handle.executeUpdate(approveUpdate, { args: [{ by: 'ana' }] });
      return (await handle.result()) as ReleaseResult;
    });
    const [changelog, license] = result.report!.checks;
    expect(changelog).toMatchObject({ label: 'changelog', outcome: 'completed' });
    expect(license).toMatchObject({ label: 'license', outcome: 'failed' });
    expect(license!.summary).toMatch(/Agent "license" failed task .*Simulated failure/);
    expect(result.report!.dependencies.length).toBeGreaterThan(0);
    expect(result.report!.markdown).toMatch(/\| license \| license \| failed \|/);
  });

  it('routes each answer to the delegation that asked when two wait', async () => {
    const client = await temporal.client();
    const result = await withWorker(async (taskQueue) => {
      const input = releaseInput({
        checks: [
          {
            label: 'compat-staging',
            agent: 'compat',
            request: 'Analyse the dependencies of payment-service for the staging fleet.',
          },
        ],
      });
      const handle = await startRelease(client, taskQueue, input);
      const questions = await waitForQuestions(handle, 2);
      expect(
        await updateRejection(handle.executeUpdate(releaseAnswerUpdate, { args: [{ text: 'Node.js 24' }] })),
      ).toMatch(
        /^2 delegations of release \S+ wait for an answer \(compat: task \S+ question q1 — ".*"; compat-staging: task \S+ question q1 — ".*"\); nothing was sent\. Answer one of them with --task <taskId>\.$/,
      );
      const staging = questions.find((q) => q.label === 'compat-staging')!;
      const receipt = await handle.executeUpdate(releaseAnswerUpdate, {
        args: [{ text: 'Node.js 20', taskId: staging.taskId }],
      });
      expect(receipt).toMatchObject({ label: 'compat-staging', workflowId: `${handle.workflowId}/compat-staging` });
      const [remaining] = await waitForQuestions(handle, 1).then((qs) => qs.filter((q) => q.label === 'compat'));
      expect(remaining).toBeDefined();
      await handle.executeUpdate(releaseAnswerUpdate, { args: [{ text: 'Node.js 24' }] });
      await waitForPhase(handle, 'awaiting-approval');
      await handle.executeUpdate(approveUpdate, { args: [{ by: 'ana' }] });
      return (await handle.result()) as ReleaseResult;
    });
    expect(result.report!.targetNode).toBe(24);
    expect(result.report!.checks[0]!.summary).toMatch(/Node\.js 20/);
  });

  it("answers through the CLI name the delegation's question, and a late duplicate of the previous answer is refused", async () => {
    const client = await temporal.client();
    const result = await withWorker(async (taskQueue) => {
      const input = releaseInput({ compat: { agent: 'compat', metadata: { scenario: 'second-question' } } });
      const handle = await startRelease(client, taskQueue, input);
      const [first] = await waitForQuestions(handle, 1);
      const answered = await runCliProcess(['answer', handle.workflowId, 'Node.js', '22']);
      expect(answered.code).toBe(0);
      expect(answered.stdout).toContain(
        `Answered question q1 ("${first!.text}"): sent to compat (task ${first!.taskId})`,
      );
      const second = await waitFor(async () => (await releaseStatus(handle)).questions.find((q) => q.id === 'q2'), {
        what: 'the second question',
      });
      // The same `answer` again, started once the second question shows: a late duplicate.
      const late = await runCliProcess(['answer', handle.workflowId, 'Node.js', '22']);
      expect(late.code).toBe(1);
      expect(late.stderr).toMatch(
        /This answer repeats the one question q1 just got, and question q2 of the delegation to compat of release \S+ was asked \d+ s ago, so it is taken for a late duplicate of that answer; nothing was sent\. To give question q2 the same answer on purpose, name it: a2a-temporal answer <id> --question q2/,
      );
      const meant = await runCliProcess(['answer', handle.workflowId, 'pnpm']);
      expect(meant.code).toBe(0);
      expect(meant.stdout).toContain(`Answered question q2 ("${second.text}"): sent to compat (task ${second.taskId})`);
      await waitForPhase(handle, 'awaiting-approval');
      await handle.executeUpdate(approveUpdate, { args: [{ by: 'ana' }] });
      return (await handle.result()) as ReleaseResult;
    });
    expect(result.outcome).toBe('approved');
  });

  it('cancels its delegations and their remote tasks when it is cancelled', async () => {
    const client = await temporal.client();
    await withWorker(async (taskQueue) => {
      const handle = await startRelease(
        client,
        taskQueue,
        releaseInput({ checks: [{ label: 'license', agent: 'license', metadata: { scenario: 'never-finish' } }] }),
      );
      const [question] = await waitForQuestions(handle);
      const running = await waitForTask(handle, 'license');
      await handle.cancel();
      const error = await handle.result().then(
        () => undefined,
        (err: unknown) => err,
      );
      expect(error).toBeInstanceOf(WorkflowFailedError);
      expect((await releaseStatus(handle)).phase).toBe('canceled');
      expect(await remoteState(samples.agents.compat.baseUrl, question!.taskId)).toBe('TASK_STATE_CANCELED');
      expect(await remoteState(samples.agents.license.baseUrl, running)).toBe('TASK_STATE_CANCELED');
    });
  });
});

/** The task a delegation of the release works on, from its live tracking heartbeat. */
async function waitForTask(handle: Awaited<ReturnType<typeof startRelease>>, label: string): Promise<string> {
  const child = (await temporal.client()).workflow.getHandle(`${handle.workflowId}/${label}`);
  return waitFor(async () => (await trackingProgress(child))?.taskId, { what: `the ${label} task` });
}

async function remoteState(baseUrl: string, taskId: string) {
  const { card } = await fetchAgentCard(baseUrl);
  return (await createA2AClient({ card }).getTask({ id: taskId })).status.state;
}
