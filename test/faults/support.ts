/** What every cell of the fault matrix does: run a delegation through a faulty link and judge it. */
import { WorkflowFailedError, type Client, type WorkflowHandle } from '@temporalio/client';
import { artifactText, type Artifact } from '../../a2a/index.js';
import type { RunningAgent } from '../../agents/index.js';
import { pendingActivities, trackingProgress } from '../../client/tracking-progress.js';
import type { DelegateInput, DelegateResult } from '../../contract/index.js';
import { manifestPart, statusOf } from '../helpers/delegations.js';
import { waitFor } from '../helpers/wait.js';
import type { CellRecord } from './fault-matrix.js';
import type { Fault } from './faults.js';
import type { FaultyLink } from '../helpers/toxiproxy.js';

/**
 * The request of every cell: the sample compatibility agent's report for Node.js 24 (no
 * question), three chunks `chunkDelayMs` apart after `workDelayMs`.
 */
export function cellRequest(agent: string, mode: DelegateInput['mode'], overrides: Partial<DelegateInput> = {}) {
  return {
    agent,
    label: agent,
    text: 'Check the dependencies of payment-service for Node.js 24.',
    parts: [manifestPart],
    mode,
    ...overrides,
  } satisfies DelegateInput;
}

/** The sample agent's pace in the matrix: the report's chunks 2.5 s apart, so a fault can land between them. */
export const AGENT_PACE = { workDelayMs: 500, chunkDelayMs: 2_500 };

export type Settled = { result: DelegateResult; failure?: undefined } | { result?: undefined; failure: string };

/** How a delegation ended: its result, or the type (else the message) of its failure. */
export async function settle(handle: WorkflowHandle): Promise<Settled> {
  try {
    return { result: (await handle.result()) as DelegateResult };
  } catch (err) {
    if (!(err instanceof WorkflowFailedError)) throw err;
    const cause = err.cause as { type?: string; message?: string } | undefined;
    return { failure: cause?.type ?? cause?.message ?? err.message };
  }
}

/**
 * Waits until the delegation is under way: the tracker has seen the report's first chunk
 * (stream, poll), or the workflow knows its task (push, where no activity follows the task).
 */
export async function underWay(handle: WorkflowHandle, mode: DelegateInput['mode']): Promise<void> {
  await waitFor(
    async () => {
      if (mode === 'push') return Boolean((await statusOf(handle)).taskId);
      return ((await trackingProgress(handle))?.artifacts[0]?.parts ?? 0) >= 1;
    },
    { what: `${handle.workflowId} under way`, timeoutMs: 60_000, intervalMs: 100 },
  );
}

/** What the delegation's status showed of a problem: an activity retried after a failure, or an agent that stopped answering. */
export async function problemShown(handle: WorkflowHandle): Promise<string | undefined> {
  for (const activity of await pendingActivities(handle)) {
    if (activity.progress?.unreachableSince !== undefined)
      return `${activity.activityType}: no answer since ${new Date(activity.progress.unreachableSince).toISOString()}`;
    if (activity.attempt > 1 && activity.lastFailure)
      return `${activity.activityType} attempt ${activity.attempt}: ${activity.lastFailure}`;
  }
  return undefined;
}

/** Looks at the status every 250 ms from now on; `stop()` says when it first showed a problem, and what. */
export function watchStatus(handle: WorkflowHandle): { stop(): Promise<{ noticedAfter?: number; said?: string }> } {
  const started = Date.now();
  let stopped = false;
  let seen: { noticedAfter: number; said: string } | undefined;
  const watching = (async () => {
    while (!stopped && !seen) {
      const said = await problemShown(handle).catch(() => undefined);
      if (said) seen = { noticedAfter: (Date.now() - started) / 1000, said: said.split('\n', 1)[0]!.slice(0, 160) };
      else await new Promise((resolve) => setTimeout(resolve, 250));
    }
  })();
  return {
    async stop() {
      stopped = true;
      await watching;
      return seen ?? {};
    },
  };
}

/** Parts lost or repeated against the undisturbed run's artifacts, and whether every text is byte-exact. */
export function compareArtifacts(
  reference: readonly Artifact[],
  got: readonly Artifact[],
): { lost: number; repeated: number; exact: boolean } {
  let lost = 0;
  let repeated = 0;
  let exact = reference.length === got.length;
  for (const expected of reference) {
    const actual = got.find((a) => a.artifactId === expected.artifactId);
    const parts = actual?.parts.length ?? 0;
    lost += Math.max(0, expected.parts.length - parts);
    repeated += Math.max(0, parts - expected.parts.length);
    if (!actual || artifactText(actual) !== artifactText(expected)) exact = false;
    else if (JSON.stringify(actual.parts) !== JSON.stringify(expected.parts)) exact = false;
  }
  return { lost, repeated, exact };
}

export interface CellPlan {
  link: string;
  mode: string;
  fault: Fault;
  /** The proxy the fault is inflicted on. */
  faulty: FaultyLink;
  /** The agent whose tasks and sends are counted (undefined where no agent is involved). */
  agent?: RunningAgent;
  /** Failure type expected when the fault never ends. */
  failsWith: string;
  /** How long a failing cell may take at most, in seconds. */
  failWithinS?: number;
  /** Starts the delegation. */
  start(): Promise<WorkflowHandle>;
  /** Waits until the delegation is under way (when the fault starts in the middle). */
  underWay(handle: WorkflowHandle): Promise<void>;
}

/**
 * Runs one cell: the fault on the link (from the start, or once the delegation is under way),
 * the status watched while it lasts, the delegation's end compared with the undisturbed run.
 */
export async function runCell(plan: CellPlan, reference: DelegateResult): Promise<CellRecord> {
  const { fault, faulty, agent } = plan;
  agent?.resetStats();
  const started = Date.now();
  let faultOver: Promise<void> = Promise.resolve();
  if (fault.when === 'start') await fault.inflict(faulty);
  const handle = await plan.start();
  let watch: ReturnType<typeof watchStatus> | undefined;
  if (fault.when === 'mid') {
    await plan.underWay(handle);
    watch = watchStatus(handle);
    faultOver = fault.inflict(faulty);
  }
  const settled = await settle(handle);
  const seconds = (Date.now() - started) / 1000;
  await faultOver;
  const seen = (await watch?.stop()) ?? {};
  await faulty.heal();

  const expected = fault.ends ? 'completed' : plan.failsWith;
  const outcome = settled.result ? 'completed' : settled.failure;
  const problems: string[] = [];
  if (outcome !== expected) problems.push(`ended ${outcome}, expected ${expected}`);
  if (!fault.ends && plan.failWithinS !== undefined && seconds > plan.failWithinS)
    problems.push(`failed after ${seconds.toFixed(1)} s, more than ${plan.failWithinS} s`);
  const record: CellRecord = {
    link: plan.link,
    fault: fault.label,
    mode: plan.mode,
    expected,
    outcome,
    seconds,
    ok: true,
    ...(seen.noticedAfter !== undefined ? { noticedAfter: seen.noticedAfter, statusSaid: seen.said } : {}),
  };
  if (agent) {
    const ids = agent.stats.messageIds;
    record.remoteTasks = agent.stats.tasksCreated;
    record.sends = { received: ids.length, distinct: new Set(ids).size };
    if (record.remoteTasks !== 1) problems.push(`${record.remoteTasks} remote tasks`);
    if (ids.length !== 1) problems.push(`the message was received ${ids.length} times`);
  }
  if (settled.result) {
    record.chunks = compareArtifacts(reference.artifacts, settled.result.artifacts);
    const { lost, repeated, exact } = record.chunks;
    if (lost || repeated || !exact) problems.push(`chunks: ${lost} lost, ${repeated} repeated, exact ${exact}`);
  }
  if (fault.when === 'mid' && fault.ends && fault.windowMs >= 10_000 && seen.noticedAfter === undefined)
    problems.push('status never showed the fault');
  record.ok = problems.length === 0;
  if (problems.length > 0) record.problems = problems;
  return record;
}

/** Starts `delegate` on a task queue. */
export function startDelegation(
  client: Client,
  taskQueue: string,
  workflowId: string,
  input: DelegateInput,
): Promise<WorkflowHandle> {
  return client.workflow.start('delegate', { taskQueue, workflowId, args: [input] });
}
