/**
 * The failures a cluster has, on the production Temporal server on PostgreSQL that
 * `npm run test:cluster` runs (test/cluster/run.ts): two worker processes (the real CLI) on one
 * task queue, a release that waits for an answer, and then a SIGKILLed worker, a SIGKILLed server
 * (its supervisor starts a new one, as a process manager would) or a crash-restarted PostgreSQL.
 * Every time the release completes, each agent saw exactly one remote task per delegation, and the
 * release's histories say which worker ran what. The times go to the runner's figures file.
 */
import { writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import type { WorkflowHandle } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSampleAgents, type SampleAgents } from '../../agents/index.js';
import { trackingProgress } from '../../client/tracking-progress.js';
import { approveUpdate, releaseAnswerUpdate, type ReleaseResult, type ReleaseStatus } from '../../contract/index.js';
import { releaseInput, releaseStatus, waitForQuestions } from '../helpers/releases.js';
import { uniqueTaskQueue, useTemporal } from '../helpers/temporal.js';
import { waitFor } from '../helpers/wait.js';
import { spawnWorkerProcess, type WorkerProcess } from '../helpers/worker-process.js';
import { loadClusterState, serverPid, type ClusterState } from './harness/cluster-state.js';
import { restartPostgres } from './harness/postgres.js';
import { waitForFrontend } from './harness/temporal-server.js';

const temporal = useTemporal();
const taskQueue = uniqueTaskQueue('cluster');
const figures: Record<string, unknown> = {};
let state: ClusterState;
let samples: SampleAgents;
let workers: WorkerProcess[] = [];

const seconds = (ms: number) => Math.round(ms / 10) / 100;
const agentsFile = () => ({
  agents: Object.fromEntries(Object.entries(samples.agents).map(([name, agent]) => [name, { url: agent.baseUrl }])),
});
const identityOf = (worker: WorkerProcess) => `${worker.child.pid}@${hostname()}`;

beforeAll(async () => {
  state = loadClusterState();
  // The compat report streams in chunks 700 ms apart, so a failure can land in the middle of it.
  samples = await startSampleAgents({ workDelayMs: 200, chunkDelayMs: 700 });
  workers = await Promise.all([
    spawnWorkerProcess(taskQueue, agentsFile()),
    spawnWorkerProcess(taskQueue, agentsFile()),
  ]);
});

afterAll(async () => {
  await Promise.all(workers.map((w) => w.kill('SIGTERM')));
  await samples?.close();
  if (state) writeFileSync(state.figuresFile, JSON.stringify(figures, null, 2));
});

/** One workflow task or activity a worker started, as the history records it. */
interface Step {
  at: number;
  identity: string;
  what: string;
}

/** Which worker process (by identity) started each workflow task and activity, per workflow of the release. */
async function whoRanWhat(release: WorkflowHandle): Promise<Record<string, Step[]>> {
  const client = await temporal.client();
  const { delegations } = await releaseStatus(release);
  const ids = [release.workflowId, ...delegations.map((d) => d.workflowId)];
  const ran: Record<string, Step[]> = {};
  for (const id of ids) {
    const { events } = await client.workflow.getHandle(id).fetchHistory();
    const activityTypes = new Map<string, string>();
    ran[id] = events!.flatMap((e): Step[] => {
      const at = Number(e.eventTime!.seconds) * 1000 + Math.floor((e.eventTime!.nanos ?? 0) / 1e6);
      const scheduled = e.activityTaskScheduledEventAttributes;
      if (scheduled) activityTypes.set(String(e.eventId), scheduled.activityType!.name!);
      const workflowTask = e.workflowTaskStartedEventAttributes;
      if (workflowTask?.identity) return [{ at, identity: workflowTask.identity, what: 'workflow task' }];
      const activity = e.activityTaskStartedEventAttributes;
      if (activity?.identity) {
        const type = activityTypes.get(String(activity.scheduledEventId)) ?? 'activity';
        return [{ at, identity: activity.identity, what: `activity ${type}` }];
      }
      return [];
    });
  }
  return ran;
}

/** `{ "<label>": { "<identity>": "workflow task × 3, activity streamMessage × 1" } }`, for the figures file. */
function summary(release: WorkflowHandle, ran: Record<string, Step[]>) {
  return Object.fromEntries(
    Object.entries(ran).map(([id, steps]) => {
      const label = id === release.workflowId ? 'release' : id.slice(release.workflowId.length + 1);
      const byWorker: Record<string, Record<string, number>> = {};
      for (const { identity, what } of steps) {
        byWorker[identity] ??= {};
        byWorker[identity][what] = (byWorker[identity][what] ?? 0) + 1;
      }
      return [
        label,
        Object.fromEntries(
          Object.entries(byWorker).map(([identity, counts]) => [
            identity,
            Object.entries(counts)
              .map(([what, n]) => `${what} × ${n}`)
              .join(', '),
          ]),
        ),
      ];
    }),
  );
}

/** Remote tasks each agent created, and delegations the release made to it: they must be equal. */
function tasksPerDelegation(status: ReleaseStatus) {
  const delegations: Record<string, number> = {};
  for (const d of status.delegations) delegations[d.agent] = (delegations[d.agent] ?? 0) + 1;
  const tasks = Object.fromEntries(
    Object.entries(samples.agents).map(([name, agent]) => [name, agent.stats.tasksCreated]),
  );
  return { delegations, tasks };
}

interface Run {
  release: WorkflowHandle;
  /** When the answer was sent (epoch ms). */
  answeredAt: number;
  /** Answer sent → the release awaits approval (the report streamed, followed up, sorted). */
  answerToApprovalMs: number;
  /** Answer sent → the update was accepted (a worker ran its validator). */
  answerAcceptedMs: number;
  result: ReleaseResult;
}

/**
 * Runs one release to its end: waits for the question, calls `beforeAnswer` (which may kill the
 * worker that holds it), answers, calls `whileStreaming` once the report streams, approves.
 */
async function release(
  name: string,
  inject: { beforeAnswer?: (release: WorkflowHandle) => Promise<void>; whileStreaming?: () => Promise<void> } = {},
): Promise<Run> {
  const client = await temporal.client();
  for (const agent of Object.values(samples.agents)) agent.resetStats();
  const handle = await client.workflow.start('release', {
    taskQueue,
    workflowId: `${taskQueue}-${name}`,
    args: [releaseInput()],
  });
  const [question] = await waitForQuestions(handle);
  await inject.beforeAnswer?.(handle);

  const answeredAt = Date.now();
  // While the server restarts the call fails; an operator (or the CLI, run again) retries.
  await waitFor(() => handle.executeUpdate(releaseAnswerUpdate, { args: [{ text: 'Node.js 24' }] }).then(() => true), {
    timeoutMs: 60_000,
    intervalMs: 100,
    what: `the answer to ${question!.label}`,
  });
  const answerAcceptedMs = Date.now() - answeredAt;
  if (inject.whileStreaming) {
    const compat = client.workflow.getHandle(`${handle.workflowId}/compat`);
    await waitFor(async () => ((await trackingProgress(compat))?.artifacts[0]?.parts ?? 0) >= 1, {
      what: 'the first chunk of the report',
    });
    await inject.whileStreaming();
  }
  await waitFor(async () => (await releaseStatus(handle).catch(() => undefined))?.phase === 'awaiting-approval', {
    timeoutMs: 120_000,
    intervalMs: 100,
    what: 'the release to await approval',
  });
  const answerToApprovalMs = Date.now() - answeredAt;
  await handle.executeUpdate(approveUpdate, { args: [{ by: 'cluster-test' }] });
  const result = (await handle.result()) as ReleaseResult;
  return { release: handle, answeredAt, answerToApprovalMs, answerAcceptedMs, result };
}

/** What every run must show, whatever failed. */
async function expectCompletedOnce(run: Run) {
  expect(run.result.outcome).toBe('approved');
  const status = await releaseStatus(run.release);
  const { delegations, tasks } = tasksPerDelegation(status);
  expect(delegations).toEqual({ compat: 2, changelog: 1, license: 1 }); // compat, compat-sorted, the two checks
  expect(tasks).toEqual(delegations);
  const ran = await whoRanWhat(run.release);
  const known = new Set(workers.map(identityOf).concat(Object.keys(killedIdentities)));
  for (const [id, steps] of Object.entries(ran)) {
    expect(
      steps.some((step) => step.what === 'workflow task'),
      id,
    ).toBe(true);
    for (const { identity } of steps) expect(known, `${id}: ${identity}`).toContain(identity);
  }
  return ran;
}

/**
 * A release during which `outage` happens while the report streams; `outage` returns once the
 * service is back. @returns how long it was out, and what it cost against the baseline.
 */
async function releaseThroughOutage(name: string, outage: () => Promise<void>) {
  let outageMs = 0;
  const run = await release(name, {
    whileStreaming: async () => {
      const started = Date.now();
      await outage();
      outageMs = Date.now() - started;
    },
  });
  await expectCompletedOnce(run);
  return {
    back_after_s: seconds(outageMs),
    answer_to_approval_s: seconds(run.answerToApprovalMs),
    cost_s: seconds(run.answerToApprovalMs - baseline.answerToApprovalMs),
  };
}

const killedIdentities: Record<string, true> = {};
let baseline: Run;

describe('a release on a Temporal cluster with two workers', () => {
  it('completes undisturbed (the baseline the failures are measured against)', async () => {
    baseline = await release('baseline');
    const ran = await expectCompletedOnce(baseline);
    figures.baseline = {
      answer_accepted_s: seconds(baseline.answerAcceptedMs),
      answer_to_approval_s: seconds(baseline.answerToApprovalMs),
      workers_used: [...new Set(Object.values(ran).flatMap((steps) => steps.map((step) => step.identity)))],
    };
  });

  it('completes on the other worker when the worker holding the waiting release is SIGKILLed', async () => {
    let killed = '';
    let killedAt = 0;
    const run = await release('worker-kill', {
      beforeAnswer: async (handle) => {
        // The worker that ran the release's last workflow task has it cached (sticky): the answer goes there.
        const { events } = await handle.fetchHistory();
        killed = events!.filter((e) => e.workflowTaskStartedEventAttributes).pop()!.workflowTaskStartedEventAttributes!
          .identity!;
        const victim = workers.find((w) => identityOf(w) === killed);
        expect(victim, `no worker has identity ${killed}`).toBeDefined();
        killedIdentities[killed] = true;
        killedAt = Date.now();
        await victim!.kill('SIGKILL');
        workers = workers.filter((w) => w !== victim);
      },
    });
    const ran = await expectCompletedOnce(run);
    // The history says it: the killed worker ran the release until the kill, the survivor everything after.
    const survivor = identityOf(workers[0]!);
    const releaseSteps = ran[run.release.workflowId]!;
    expect(releaseSteps.filter((step) => step.at < killedAt).map((step) => step.identity)).toContain(killed);
    const after = Object.values(ran).flatMap((steps) => steps.filter((step) => step.at > killedAt));
    expect(after.length).toBeGreaterThan(0);
    expect(new Set(after.map((step) => step.identity))).toEqual(new Set([survivor]));
    figures.worker_sigkill = {
      kill_to_answer_accepted_s: seconds(run.answeredAt + run.answerAcceptedMs - killedAt),
      answer_to_approval_s: seconds(run.answerToApprovalMs),
      cost_s: seconds(run.answerToApprovalMs - baseline.answerToApprovalMs),
      who_ran_what: summary(run.release, ran),
    };
    // Back to two workers, as a restart policy would do.
    workers.push(await spawnWorkerProcess(taskQueue, agentsFile()));
  });

  it('completes when the Temporal server is SIGKILLed while the report streams, and a new one starts', async () => {
    figures.server_sigkill = await releaseThroughOutage('server-kill', async () => {
      const pid = serverPid(state);
      process.kill(pid, 'SIGKILL');
      await waitFor(() => serverPid(state) !== pid, { what: 'the supervisor to start a new server' });
      await waitForFrontend(state.address, 60_000);
    });
  });

  it('completes when PostgreSQL crashes and restarts while the report streams', async () => {
    figures.postgres_restart = await releaseThroughOutage('postgres-restart', () =>
      restartPostgres(state.postgres, 'immediate'),
    );
  });
});
