/**
 * The failures a cluster has, on the production Temporal server on PostgreSQL that
 * `npm run test:cluster` runs (test/cluster/run.ts): two worker processes (the real CLI) on one
 * task queue, a release that waits for an answer, and then a SIGKILLed worker, a SIGKILLed server
 * (its supervisor starts a new one, as a process manager would) or a crash-restarted PostgreSQL.
 * Every time the release completes, each agent saw exactly one remote task per delegation, and the
 * release's histories say which worker ran what. The times go to the runner's figures file.
 *
 * The server reaches PostgreSQL through a Toxiproxy link (test/cluster/run.ts): two cells of the
 * fault matrix disturb it while the report streams (+2 s latency, the link down), and are written
 * to test/artifacts/fault-matrix-cluster.md.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { WorkflowHandle } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSampleAgents, type SampleAgents } from '../../agents/index.js';
import { trackingProgress } from '../../client/tracking-progress.js';
import {
  approveUpdate,
  releaseAnswerUpdate,
  type DelegateResult,
  type ReleaseResult,
  type ReleaseStatus,
} from '../../contract/index.js';
import { packageRoot } from '../../platform/paths.js';
import { matrixMarkdown, type CellRecord } from '../faults/fault-matrix.js';
import { compareArtifacts } from '../faults/support.js';
import { openLink, TOXIPROXY_VERSION, type FaultyLink } from '../helpers/toxiproxy.js';
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
  if (cells.length > 0) {
    mkdirSync(dirname(CLUSTER_MATRIX_FILE), { recursive: true });
    writeFileSync(
      CLUSTER_MATRIX_FILE,
      matrixMarkdown(cells, [
        `Toxiproxy ${TOXIPROXY_VERSION} between the production Temporal server and PostgreSQL (npm run test:cluster), while a release's report streams on two worker processes.`,
        "remote tasks and sends: over the release's four delegations (the question's answer is a message of its own); chunks: the compat report against the undisturbed release.",
      ]),
    );
  }
});

/** The cluster's rows of the fault matrix (Temporal → PostgreSQL). */
const CLUSTER_MATRIX_FILE = join(packageRoot, 'test', 'artifacts', 'fault-matrix-cluster.md');
const cells: CellRecord[] = [];
/** How long each fault on the server's link to PostgreSQL lasts. */
const DB_FAULT_MS = 20_000;

/**
 * A release while the server's link to PostgreSQL is disturbed (`disturb` resolves once the link
 * is healthy again): it must complete with one remote task per delegation, each message received
 * once, and the report's chunks as in the undisturbed release.
 */
async function releaseThroughDbFault(name: string, fault: string, disturb: (link: FaultyLink) => Promise<void>) {
  const link = await openLink(state.postgresLink.apiUrl, state.postgresLink.name);
  const started = Date.now();
  try {
    const outcome = await releaseThroughOutage(name, () => disturb(link));
    const status = await releaseStatus((await temporal.client()).workflow.getHandle(`${taskQueue}-${name}`));
    const { tasks, delegations } = tasksPerDelegation(status);
    const ids = Object.values(samples.agents).flatMap((agent) => agent.stats.messageIds);
    const chunks = compareArtifacts((await compatResult('baseline')).artifacts, (await compatResult(name)).artifacts);
    const remoteTasks = Object.values(tasks).reduce((a, b) => a + b, 0);
    const problems = [
      ...(new Set(ids).size === ids.length ? [] : [`${ids.length - new Set(ids).size} messages received twice`]),
      ...(chunks.lost || chunks.repeated || !chunks.exact ? [`chunks: ${JSON.stringify(chunks)}`] : []),
    ];
    cells.push({
      link: 'Temporal → PostgreSQL',
      fault,
      mode: 'release (stream)',
      expected: 'completed',
      outcome: 'completed',
      seconds: (Date.now() - started) / 1000,
      remoteTasks,
      sends: { received: ids.length, distinct: new Set(ids).size },
      chunks,
      note: `${Object.values(delegations).reduce((a, b) => a + b, 0)} delegations; answer to approval ${outcome.answer_to_approval_s} s (undisturbed ${seconds(baseline.answerToApprovalMs)} s), the fault lasting ${outcome.back_after_s} s of it`,
      ok: problems.length === 0,
      ...(problems.length > 0 ? { problems } : {}),
    });
    expect(problems).toEqual([]);
    return outcome;
  } finally {
    await link.heal();
  }
}

/** The result of a release's compat delegation. */
async function compatResult(name: string): Promise<DelegateResult> {
  const client = await temporal.client();
  return (await client.workflow.getHandle(`${taskQueue}-${name}/compat`).result()) as DelegateResult;
}

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
    let deadAt = 0;
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
        deadAt = Date.now();
        workers = workers.filter((w) => w !== victim);
      },
    });
    const ran = await expectCompletedOnce(run);
    // The history says it: the killed worker ran the release until the kill, the survivor everything
    // after its death. (Between the signal and the death the victim may still take a task: it is lost
    // with the process and taken over like any other.)
    const survivor = identityOf(workers[0]!);
    const releaseSteps = ran[run.release.workflowId]!;
    expect(releaseSteps.filter((step) => step.at < killedAt).map((step) => step.identity)).toContain(killed);
    const after = Object.values(ran).flatMap((steps) => steps.filter((step) => step.at > deadAt));
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

  it('completes when the link from the server to PostgreSQL has 2 s more latency for 20 s while the report streams', async () => {
    figures.postgres_link_latency = await releaseThroughDbFault(
      'postgres-latency',
      `latency +2 s for ${DB_FAULT_MS / 1000} s`,
      async (link) => {
        await link.add({ type: 'latency', attributes: { latency: 2_000, jitter: 0 } }, 'downstream');
        await sleep(DB_FAULT_MS);
        await link.heal();
      },
    );
  });

  it('completes when the link from the server to PostgreSQL is down for 20 s while the report streams', async () => {
    figures.postgres_link_down = await releaseThroughDbFault('postgres-down', `down ${DB_FAULT_MS / 1000} s`, (link) =>
      link.outage(DB_FAULT_MS),
    );
  });
});
