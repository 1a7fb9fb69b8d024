/**
 * `npm run soak [-- --minutes N]`: delegations whose remote tasks work for N minutes of real time
 * (30 by default), in stream, poll and push mode, with questions answered on the way, the worker
 * SIGKILLed at 30 % of the work and the Temporal server restarted at 60 %; then what happened,
 * and exit code 1 if a promise was broken (a delegation that did not complete, a second remote
 * task or message, a report that differs from the agent's, a resume slower than its bound,
 * `status` losing report text). The default tracking settings apply: 10-minute rounds, so a
 * 30-minute task crosses several. Not part of `npm test`.
 */
import { rmSync } from 'node:fs';
import { artifactText, createA2AClient, fetchAgentCard, type Artifact } from '../../a2a/index.js';
import type { CliContext } from '../../client/context.js';
import { durationMs } from '../../contract/durations.js';
import type { DelegateResult } from '../../contract/index.js';
import { TRACKING_DEFAULTS } from '../../workflows/delegate/tracking-settings.js';
import {
  answerQuestions,
  SOAK_SPECS,
  startSoakAgents,
  startSoakDelegation,
  type SoakDelegation,
} from './delegations.js';
import { historySummary } from './history.js';
import { isFollowing, resumption, watchStatus } from './observe.js';
import { brokenPromises, soakReport, type DelegationOutcome, type SoakEvent } from './report.js';
import { startSoakStack, type SoakStack } from './stack.js';
import { loadBlobSettings, openBlobStore } from '../../storage/config.js';

const USAGE = 'usage: npm run soak [-- --minutes <N>]   (N > 0, default 30: how long each remote task works)';

function parseMinutes(argv: string[]): number {
  if (argv.length === 0) return 30;
  const [flag, value, ...rest] = argv;
  const minutes = Number(value);
  if (flag !== '--minutes' || rest.length || !Number.isFinite(minutes) || minutes <= 0) {
    console.error(USAGE);
    process.exit(2);
  }
  return minutes;
}

const startedAt = Date.now();
const log = (line: string) => console.error(`[soak +${((Date.now() - startedAt) / 1000).toFixed(0)} s] ${line}`);
const sleepUntil = (at: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, at - Date.now())));
/** Issue 11: every kill point resumes within the heartbeat timeout + 2 s. */
const RESUME_SLACK_MS = durationMs(TRACKING_DEFAULTS.heartbeatTimeout, 'heartbeatTimeout') + 2_000;

async function main(): Promise<void> {
  const minutes = parseMinutes(process.argv.slice(2));
  const workMs = minutes * 60_000;
  log(`remote tasks work ${minutes} min each; default tracking settings (rounds of ${TRACKING_DEFAULTS.roundTimeout})`);
  const agents = await startSoakAgents();
  const stack = await startSoakStack(
    log,
    Object.fromEntries(Object.entries(agents).map(([label, agent]) => [label, agent.baseUrl])),
  );
  const delegations: SoakDelegation[] = [];
  try {
    delegations.push(
      ...(await Promise.all(
        SOAK_SPECS.map((spec) => startSoakDelegation(stack.client, spec, agents[spec.label]!, workMs)),
      )),
    );
    for (const d of delegations) log(`${d.spec.label}: ${d.spec.mode} mode, workflow ${d.handle.workflowId}`);
    await Promise.all(delegations.map((d) => answerQuestions(d, log)));
    const workStart = Math.max(...delegations.map((d) => d.workingSince));
    log(`all remote tasks working; they finish around +${((workStart + workMs - startedAt) / 1000).toFixed(0)} s`);

    const blobSettings = loadBlobSettings();
    const context: CliContext = {
      client: stack.client,
      address: stack.address,
      namespace: 'default',
      uiBase: stack.uiUrl,
      json: false,
      blobs: { settings: blobSettings, store: openBlobStore(blobSettings.store) },
      close: async () => {},
    };
    const watcher = watchStatus(
      context,
      delegations.map((d) => ({ label: d.spec.label, workflowId: d.handle.workflowId })),
    );
    const ends = delegations.map((d) => waitForEnd(stack, d, workStart + 1.5 * workMs + 15 * 60_000));
    const events: SoakEvent[] = [];
    await sleepUntil(workStart + 0.3 * workMs);
    events.push(await disrupt('worker SIGKILL', delegations, () => stack.killWorker().then((r) => r.readyAt)));
    await sleepUntil(workStart + 0.6 * workMs);
    events.push(await disrupt('server restart', delegations, () => stack.restartServer().then((r) => r.readyAt)));
    const outcomes = await Promise.all(ends);
    watcher.stop();

    console.log(`\n## Soak: remote tasks of ${minutes} min, ${new Date(startedAt).toISOString()}\n`);
    console.log(soakReport(outcomes, events, startedAt, watcher.samples()));
    const broken = brokenPromises(outcomes, events, watcher.shrinks, startedAt);
    console.log(
      broken.length ? `\nBroken promises:\n${broken.map((b) => `- ${b}`).join('\n')}` : '\nEvery promise held.',
    );
    console.log(
      `\nWall time ${((Date.now() - startedAt) / 60_000).toFixed(1)} min${broken.length ? `; worker logs and the SQLite file kept in ${stack.dir}` : ''}`,
    );
    process.exitCode = broken.length ? 1 : 0;
  } finally {
    await Promise.all(Object.values(agents).map((agent) => agent.close()));
    await stack.close();
    if (process.exitCode === 0) rmSync(stack.dir, { recursive: true, force: true });
  }
}

/** Runs `act` (a kill, a restart) and measures how long each delegation that was following its task stops following it. */
async function disrupt(name: string, delegations: SoakDelegation[], act: () => Promise<number>): Promise<SoakEvent> {
  const following = await Promise.all(delegations.map((d) => isFollowing(d.handle).catch(() => false)));
  const at = Date.now();
  log(`${name}`);
  const [readyAt, ...resumptions] = await Promise.all([
    act().then((ready) => (log(`${name}: replacement ready after ${((ready - at) / 1000).toFixed(1)} s`), ready)),
    ...delegations.map((d, i) => resumption(d.handle, at, following[i]!)),
  ]);
  const downMs = (readyAt as number) - at;
  return {
    name,
    at,
    downMs,
    boundMs: (name === 'server restart' ? downMs : 0) + RESUME_SLACK_MS,
    resumptions: new Map(
      delegations.map((d, i) => [d.spec.label, resumptions[i] as Awaited<ReturnType<typeof resumption>>]),
    ),
  };
}

/** Waits for the delegation to end (reading through the server's restart), then gathers what it did. */
async function waitForEnd(stack: SoakStack, d: SoakDelegation, deadline: number): Promise<DelegationOutcome> {
  const handle = stack.client.workflow.getHandle(d.handle.workflowId);
  let status = 'RUNNING';
  while (status === 'RUNNING' && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    status = await handle.describe().then(
      (x) => x.status.name,
      () => 'RUNNING',
    );
  }
  let outcome = status === 'RUNNING' ? 'did not end in time' : status.toLowerCase();
  let result: DelegateResult | undefined;
  if (status === 'COMPLETED') result = (await handle.result()) as DelegateResult;
  if (status === 'FAILED') {
    outcome = await handle.result().then(
      () => 'failed',
      (err: unknown) => `failed: ${(err as { cause?: Error }).cause?.message ?? (err as Error).message}`,
    );
  }
  log(`${d.spec.label}: ${outcome}`);
  const closedAt = (await handle.describe()).closeTime?.getTime();
  const agentSide = result ? await compareWithAgent(d, result) : undefined;
  return {
    spec: d.spec,
    workflowId: d.handle.workflowId,
    outcome,
    result,
    history: await historySummary(stack.client, d.handle.workflowId, d.firstRunId),
    tasksCreated: d.agent.stats.tasksCreated,
    messageIds: [...d.agent.stats.messageIds],
    reportMismatch: agentSide?.mismatch,
    lagMs: closedAt !== undefined && agentSide?.endedAt !== undefined ? closedAt - agentSide.endedAt : undefined,
  };
}

/**
 * The agent's own task: whether the delegation's artifacts are the ones it holds (ids, text, part
 * counts; `mismatch` says why not), and when the agent ended it.
 */
async function compareWithAgent(
  d: SoakDelegation,
  result: DelegateResult,
): Promise<{ mismatch?: string; endedAt?: number }> {
  if (!result.taskId) return { mismatch: 'it has no task id to compare with the agent.' };
  const { card } = await fetchAgentCard(d.agent.baseUrl);
  const task = await createA2AClient({ card }).getTask({ id: result.taskId, historyLength: 0 });
  const endedAt = task.status.timestamp ? Date.parse(task.status.timestamp) : undefined;
  const shape = (artifacts: Artifact[]) =>
    JSON.stringify(artifacts.map((a) => [a.artifactId, a.parts.length, artifactText(a)]).sort());
  if (!result.artifacts.length) return { mismatch: 'the delegation returned no artifacts.', endedAt };
  if (shape(result.artifacts) === shape(task.artifacts ?? [])) return { endedAt };
  return {
    mismatch: `its artifacts differ from the agent's task (${result.artifacts.length} against ${task.artifacts?.length ?? 0} artifacts, or their text).`,
    endedAt,
  };
}

await main().catch((err: unknown) => {
  console.error(`soak: ${(err as Error).stack ?? String(err)}`);
  process.exitCode = 1;
});
