/** What every cell of the fault matrix does: run a delegation through a faulty link and judge it. */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { WorkflowFailedError, type Client, type WorkflowHandle } from '@temporalio/client';
import { defaultPayloadConverter } from '@temporalio/common';
import { optionalTsToMs } from '@temporalio/common/lib/time.js';
import type { TrackProgress } from '../../activities/index.js';
import { artifactText, type Artifact } from '../../a2a/index.js';
import type { RunningAgent } from '../../agents/index.js';
import { problemText } from '../../client/render-status.js';
import { readStatus } from '../../client/status-view.js';
import { packageRoot } from '../../platform/paths.js';
import { trackingProgress } from '../../client/tracking-progress.js';
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

/** What `status` (the CLI's view) showed of a problem: the agent silent and why, or an activity retried after a failure. */
export async function problemShown(client: Client, handle: WorkflowHandle): Promise<string | undefined> {
  const view = await readStatus({ client, namespace: client.options.namespace }, handle.workflowId);
  const problem = view.delegations[0]?.problem;
  return problem ? `${problem.activity}: ${problemText(problem)}` : undefined;
}

/**
 * When Temporal recorded what `status` shows of a problem (epoch ms): the heartbeat that carried
 * the agent's silence, or the end of the failed attempt of a retried activity. `status` reads it
 * from `describe()`, so it showed the problem from then on, however long this test's own look
 * took on a loaded machine.
 */
async function problemRecordedAt(handle: WorkflowHandle): Promise<number | undefined> {
  const { raw } = await handle.describe();
  const times = (raw.pendingActivities ?? []).flatMap((activity) => {
    const payload = activity.heartbeatDetails?.payloads?.[0];
    const progress = payload ? (defaultPayloadConverter.fromPayload(payload) as TrackProgress) : undefined;
    if (progress?.unreachableSince !== undefined) return [optionalTsToMs(activity.lastHeartbeatTime)];
    if ((activity.attempt ?? 1) > 1 && activity.lastFailure) return [optionalTsToMs(activity.lastAttemptCompleteTime)];
    return [];
  });
  const known = times.filter((t): t is number => t !== undefined);
  return known.length > 0 ? Math.min(...known) : undefined;
}

/**
 * Looks at the status every 250 ms from now on; `noticed` resolves when it first showed a problem,
 * and `stop()` says when that was (from Temporal's record of it, see {@link problemRecordedAt}),
 * and what.
 */
export function watchStatus(
  client: Client,
  handle: WorkflowHandle,
): { noticed: Promise<void>; stop(): Promise<{ noticedAfter?: number; said?: string }> } {
  const started = Date.now();
  let stopped = false;
  let seen: { noticedAfter: number; said: string } | undefined;
  let noticed!: () => void;
  const watching = (async () => {
    while (!stopped && !seen) {
      const said = await problemShown(client, handle).catch(() => undefined);
      if (said) {
        const seenAt = Date.now();
        const recordedAt = (await problemRecordedAt(handle).catch(() => undefined)) ?? seenAt;
        seen = {
          noticedAfter: (Math.min(seenAt, recordedAt) - started) / 1000,
          said: said.split('\n', 1)[0]!.slice(0, 160),
        };
      } else await new Promise((resolve) => setTimeout(resolve, 250));
    }
    if (seen) noticed();
  })();
  return {
    noticed: new Promise((resolve) => (noticed = resolve)),
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

/** The most a cell whose link never comes back waits for the status to show it before another part takes over. */
const RESCUE_AFTER_S = 60;

export interface CellPlan {
  /** Reads the status (over a healthy connection). */
  client: Client;
  link: string;
  mode: string;
  fault: Fault;
  /** The proxy the fault is inflicted on. */
  faulty: FaultyLink;
  /** The agent whose tasks and sends are counted (undefined where no agent is involved). */
  agent?: RunningAgent;
  /**
   * When the fault never ends: the outcome expected (a failure type, or `completed` when another
   * part takes over: `rescue` starts it), and the most seconds it may take from the fault's start.
   */
  endless: { expect: string; withinS?: number; rescue?: () => Promise<void> };
  /** Overrides the fault's own bound on when the status must show it (undefined: the fault's). */
  noticeWithinS?: number;
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
  let faultAt = started;
  if (fault.when === 'mid') {
    await plan.underWay(handle);
    faultAt = Date.now();
    watch = watchStatus(plan.client, handle);
    faultOver = fault.inflict(faulty);
    if (!fault.ends && plan.endless.rescue) {
      await faultOver;
      // The status must show what is wrong while it is wrong: the part that takes over starts only
      // once it did (or, if it never does, after RESCUE_AFTER_S, and the cell fails for it).
      if (fault.breaks) {
        const giveUp = new AbortController();
        await Promise.race([
          watch.noticed,
          sleep(RESCUE_AFTER_S * 1000, undefined, { signal: giveUp.signal }).catch(() => undefined),
        ]);
        giveUp.abort();
      }
      await plan.endless.rescue();
    }
  }
  const settled = await settle(handle);
  const endedAt = await closedAt(handle);
  const seconds = (endedAt - started) / 1000;
  const afterFault = (endedAt - faultAt) / 1000;
  await faultOver;
  const seen = (await watch?.stop()) ?? {};
  await faulty.heal();

  const expected = fault.ends ? 'completed' : plan.endless.expect;
  const outcome = settled.result ? 'completed' : settled.failure;
  const problems: string[] = [];
  if (outcome !== expected) problems.push(`ended ${outcome}, expected ${expected}`);
  const endsWithin = plan.endless.withinS;
  if (!fault.ends && endsWithin !== undefined && afterFault > endsWithin)
    problems.push(`ended ${afterFault.toFixed(1)} s after the fault, more than ${endsWithin} s`);
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
  if (fault.breaks && seen.noticedAfter === undefined) problems.push('the status never showed the fault');
  const within = plan.noticeWithinS ?? fault.noticeWithinS;
  if (within !== undefined && seen.noticedAfter !== undefined && seen.noticedAfter > within)
    problems.push(`the status showed the fault after ${seen.noticedAfter.toFixed(1)} s, more than ${within} s`);
  record.ok = problems.length === 0;
  if (problems.length > 0) record.problems = problems;
  return record;
}

/**
 * When the workflow closed (epoch ms), as Temporal recorded it: the delegation's end, without the
 * time this test's own long poll took to hear of it on a loaded machine.
 */
async function closedAt(handle: WorkflowHandle): Promise<number> {
  const { closeTime } = await handle.describe();
  return closeTime?.getTime() ?? Date.now();
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

/** A run of the real CLI: what it printed so far (stdout and stderr), and its exit code. */
export interface CliProcess {
  output(): string;
  exited: Promise<number | null>;
  /** When the process was spawned (epoch ms): it may wait for its turn to start, see {@link spawnCli}. */
  spawned: Promise<number>;
}

/**
 * How many CLI processes may be starting at once. Loading the CLI (tsx, the Temporal client,
 * gRPC) costs a few CPU seconds; a dozen cells spawning it at the same moment on a loaded 2-core
 * machine made each wait a minute for the CPU, and a cell's clock ran while it did.
 */
const CLI_STARTS_AT_ONCE = 2;
let cliStarting = 0;
const cliTurns: Array<() => void> = [];

function releaseCliStart(): void {
  cliStarting -= 1;
  cliTurns.shift()?.();
}

/**
 * The real CLI (`a2a-temporal …` from source), talking to Temporal at `address`. At most
 * {@link CLI_STARTS_AT_ONCE} are starting at a time: a process counts as started once it printed
 * something or exited, and the next one is spawned then.
 */
export function spawnCli(args: string[], address: string, namespace: string): CliProcess {
  let output = '';
  const spawned = (async () => {
    if (cliStarting >= CLI_STARTS_AT_ONCE) await new Promise<void>((resolve) => cliTurns.push(resolve));
    cliStarting += 1;
    return Date.now();
  })();
  const exited = spawned.then(
    () =>
      new Promise<number | null>((resolve) => {
        const child = spawn(process.execPath, ['--import', 'tsx', join(packageRoot, 'client', 'cli.ts'), ...args], {
          cwd: packageRoot,
          env: { ...process.env, TEMPORAL_ADDRESS: address, TEMPORAL_NAMESPACE: namespace },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let starting = true;
        const started = () => {
          if (starting) releaseCliStart();
          starting = false;
        };
        const onData = (chunk: Buffer) => {
          output += chunk.toString();
          started();
        };
        child.stdout.on('data', onData);
        child.stderr.on('data', onData);
        // 'close', not 'exit': the output is complete once the pipes are closed.
        child.once('close', (code) => {
          started();
          resolve(code);
        });
      }),
  );
  return { output: () => output, exited, spawned };
}

/**
 * Delegations beside the cells, one after another 2 s apart while `busy()` says cells still run:
 * how long each took, and the failures (a delegation not ended within `withinS` counts as one and
 * is terminated).
 */
export async function runCanaries(
  client: Client,
  taskQueue: string,
  input: DelegateInput,
  busy: () => boolean,
  withinS = Infinity,
): Promise<{ seconds: number[]; failures: string[]; slowest: number }> {
  const seconds: number[] = [];
  const failures: string[] = [];
  for (let i = 0; i === 0 || busy(); i++) {
    const started = Date.now();
    const handle = await startDelegation(client, taskQueue, `${taskQueue}-canary-${i}`, input);
    let timer: NodeJS.Timeout | undefined;
    const settled = await Promise.race<Settled>([
      settle(handle),
      ...(Number.isFinite(withinS)
        ? [
            new Promise<Settled>(
              (resolve) =>
                (timer = setTimeout(() => resolve({ failure: `not ended within ${withinS} s` }), withinS * 1000)),
            ),
          ]
        : []),
    ]);
    clearTimeout(timer);
    // From the start call to the workflow's close as Temporal recorded it.
    seconds.push(((settled.result ? await closedAt(handle) : Date.now()) - started) / 1000);
    if (!settled.result) {
      failures.push(settled.failure);
      await handle.terminate('the canary did not end in time').catch(() => undefined);
    }
    await new Promise((resolve) => setTimeout(resolve, 2_000));
  }
  return { seconds, failures, slowest: Math.max(...seconds) };
}
