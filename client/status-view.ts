/**
 * `status --json`: one documented object for releases and delegations alike, built from the
 * workflows' `status` queries, the tracking activities' heartbeats (live artifact text) and,
 * for workflows that have ended, their results.
 */
import type { WorkflowExecutionStatusName, WorkflowHandle } from '@temporalio/client';
import type { Artifact, Part, TaskState } from '../a2a/index.js';
import {
  fileSummaryOf,
  delegationStatusQuery,
  releaseStatusQuery,
  type DelegateResult,
  type DelegationPhase,
  type DelegationStatus,
  type FileSummary,
  type Decision,
  type PendingQuestion,
  type ReleaseOutcome,
  type ReleasePhase,
  type ReleaseReport,
  type ReleaseResult,
  type ReleaseStatus,
} from '../contract/index.js';
import { workflowUrl, type CliContext } from './context.js';
import type { TrackProgress } from '../activities/index.js';
import { followingProgress, pendingActivities, problemOf, type Problem } from './tracking-progress.js';
import { findTarget, quickQuery, type TargetKind } from './workflow-target.js';

/** One artifact, chunks assembled: `text` is its text parts joined, `data` its data parts. See [docs/guide.md](../docs/guide.md#the-commands). */
export interface ArtifactView {
  /** The artifact's id within its task. */
  artifactId: string;
  /** The artifact's name, as the agent gave it. */
  name?: string;
  /** Its text parts, joined (the tail, while a tracking activity reports it live). */
  text: string;
  /** Its data parts' values. */
  data: unknown[];
  /** Parts received so far. */
  parts: number;
  /** Its files (stored, or still arriving): name, type, size, never bytes. */
  files: FileSummary[];
}

/** A question waiting for an answer, as `status` shows it. See [docs/guide.md](../docs/guide.md#the-commands). */
export interface QuestionView {
  /** The delegation's workflow id (answer it there, or at the release with `--task`). */
  workflowId: string;
  /** The delegation's label in its release (`compat`, `changelog`, …). */
  label?: string;
  /** The question's id within its delegation (`q1`, `q2`, …): an answer names it (`answer --question`). */
  id?: string;
  /** The agent's task that asks. */
  taskId: string;
  /** Why the task waits: `TASK_STATE_INPUT_REQUIRED` or `TASK_STATE_AUTH_REQUIRED`. */
  state: PendingQuestion['state'];
  /** The question, as the agent asked it. */
  text: string;
}

/** One delegation as `status` shows it: its workflow, agent, phase, task, question and artifacts. See [docs/guide.md](../docs/guide.md#the-commands). */
export interface DelegationView {
  /** The delegation's workflow id. */
  workflowId: string;
  /** Its label in its release (`compat`, `changelog`, …). */
  label?: string;
  /** The agent it delegates to (a name in the agents file, or a URL). */
  agent: string;
  /** Temporal's status of the delegation workflow. */
  status: WorkflowExecutionStatusName;
  /** Where the delegation is: resolving, sending, working, waiting for input, completed, … */
  phase: DelegationPhase;
  /** How the delegation follows the task (`stream`, `poll`, `push`) and the binding it speaks (`GRPC`…), once resolved. */
  mode?: DelegationStatus['mode'];
  /** The binding it speaks (`JSONRPC`, `HTTP+JSON`, `GRPC`), once resolved. */
  binding?: DelegationStatus['binding'];
  /** The agent's task id, once the agent named it. */
  taskId?: string;
  /** The agent's context id, once the agent named it. */
  contextId?: string;
  /** The A2A task state (`TASK_STATE_*`), live when a tracking activity reports it. */
  state?: TaskState;
  /** The question it waits on, while it does. */
  question?: QuestionView;
  /** What the agent has produced so far. */
  artifacts: ArtifactView[];
  /** Why it failed, when it did. */
  error?: string;
  /** What became of our CancelTask, when the delegation canceled its remote task: the task's state after it, or why the agent refused it. */
  remoteCancel?: string;
  /** While it runs and something goes wrong: the agent unreachable since when, how often asked, why, the next try and when it gives up; cleared once the agent answers. */
  problem?: Problem;
}

/** The object `status --json` prints. See [docs/guide.md](../docs/guide.md#the-commands). */
export interface StatusView {
  /** The release's or delegation's workflow id. */
  workflowId: string;
  /** Whether the id names a release or a delegation. */
  kind: TargetKind;
  /** Temporal's status: RUNNING, COMPLETED, FAILED, CANCELLED, TERMINATED, TIMED_OUT... */
  status: WorkflowExecutionStatusName;
  /** The release's phase, or the delegation's. */
  phase: ReleasePhase | DelegationPhase;
  /** The workflow's page in the Temporal UI; absent when the UI's address is not known. */
  uiUrl?: string;
  /** The service a release releases. */
  service?: string;
  /** The version a release upgrades from. */
  fromVersion?: string;
  /** The version a release upgrades to. */
  toVersion?: string;
  /** The questions waiting for an answer, of the release and all its delegations. */
  questions: QuestionView[];
  /** The delegations (one for a delegation; a release's children). */
  delegations: DelegationView[];
  /** The release's report, once written. */
  report?: ReleaseReport;
  /** How the release ended: approved, rejected or failed. */
  outcome?: ReleaseOutcome;
  /** The approver's decision on a release, once given. */
  decision?: Decision;
  /** The approver's reason, with the decision. */
  reason?: string;
  /** Why the workflow failed, when it did. */
  error?: string;
}

/** How long a status query waits for a worker's answer (then the view is built from what Temporal knows). */
const QUERY_WAIT_MS = 3_000;

/** Where {@link readStatus} reads: a Temporal client, its namespace and (for links) the Web UI's base URL. See [docs/guide.md](../docs/guide.md#the-commands). */
export type StatusSource = Pick<CliContext, 'client' | 'namespace' | 'uiBase'>;

/**
 * Reads the current view of a release or delegation.
 * @throws Error with a sentence for an id that names no workflow, or neither a release nor a delegation.
 */
export async function readStatus(context: StatusSource, workflowId: string): Promise<StatusView> {
  const asked = Date.now();
  const target = await findTarget(context, workflowId);
  // A query waits for a worker on top of what the link takes (the describe's round trip): a slow
  // link must not pass for a worker that does not answer.
  const queryMs = QUERY_WAIT_MS + (Date.now() - asked);
  const status = target.description.status.name;
  const uiUrl = workflowUrl(context, workflowId);
  if (target.kind === 'delegation') {
    const view = await readDelegation(context, target.handle, status, queryMs);
    return {
      workflowId,
      kind: 'delegation',
      status,
      phase: view.phase,
      uiUrl,
      questions: view.question ? [view.question] : [],
      delegations: [view],
      error: view.error,
    };
  }
  const release =
    (await quickQuery(context, () => target.handle.query(releaseStatusQuery), queryMs)) ??
    (await releaseFromResult(target.handle));
  const delegations = await Promise.all(
    release.delegations.map(async (d): Promise<DelegationView> => {
      const child = context.client.workflow.getHandle(d.workflowId);
      const childStatus = await child.describe().then(
        (x) => x.status.name,
        () => undefined,
      );
      // Not started yet (the release records a delegation just before it starts it): what the release knows.
      if (!childStatus)
        return {
          workflowId: d.workflowId,
          label: d.label,
          agent: d.agent,
          status: 'UNKNOWN',
          phase: d.phase,
          artifacts: [],
        };
      return { ...(await readDelegation(context, child, childStatus, queryMs)), label: d.label };
    }),
  );
  return {
    workflowId,
    kind: 'release',
    status,
    phase: release.phase,
    uiUrl,
    service: release.service,
    fromVersion: release.fromVersion,
    toVersion: release.toVersion,
    questions: release.questions.map((q) => ({
      workflowId: q.workflowId,
      label: q.label,
      ...(q.id ? { id: q.id } : {}),
      taskId: q.taskId,
      state: q.state,
      text: q.text,
    })),
    delegations,
    report: release.report,
    outcome: release.outcome,
    decision: release.decision,
    reason: release.reason,
    error: status === 'FAILED' || status === 'TERMINATED' ? await failureText(target.handle) : undefined,
  };
}

async function readDelegation(
  context: StatusSource,
  handle: WorkflowHandle,
  status: WorkflowExecutionStatusName,
  queryMs: number,
): Promise<DelegationView> {
  const queried: DelegationStatus | undefined = await quickQuery(
    context,
    () => handle.query(delegationStatusQuery),
    queryMs,
  );
  const base = queried ?? (await delegationFromResult(handle, status));
  const view: DelegationView = {
    workflowId: handle.workflowId,
    label: base.label,
    agent: base.agent,
    status,
    phase: base.phase,
    ...(base.mode ? { mode: base.mode } : {}),
    ...(base.binding ? { binding: base.binding } : {}),
    taskId: base.taskId,
    contextId: base.contextId,
    state: base.state,
    question: base.question
      ? {
          workflowId: handle.workflowId,
          label: base.label,
          ...(base.question.id ? { id: base.question.id } : {}),
          taskId: base.question.taskId,
          state: base.question.state,
          text: base.question.text,
        }
      : undefined,
    artifacts: base.artifacts.map(artifactView),
    error: base.error,
    ...(base.remoteCancel ? { remoteCancel: base.remoteCancel } : {}),
  };
  if (status !== 'RUNNING') return view;
  const pending = await pendingActivities(handle).catch(() => []);
  const problem = problemOf(pending);
  if (problem) view.problem = problem;
  const progress = followingProgress(pending);
  if (!progress) return view;
  // The tracker's heartbeat is fresher than the workflow's state (it only learns at round ends).
  view.state = progress.state ?? view.state;
  view.taskId ??= progress.taskId || undefined; // a stream turn knows the task before the workflow does
  for (const live of progress.artifacts) {
    const known = view.artifacts.find((a) => a.artifactId === live.artifactId);
    if (!known)
      view.artifacts.push({
        artifactId: live.artifactId,
        name: live.name,
        text: live.text,
        data: [],
        parts: live.parts,
        files: liveFiles(live.files),
      });
    else if (live.parts > known.parts)
      Object.assign(known, { text: live.text, parts: live.parts, files: liveFiles(live.files) });
  }
  return view;
}

/** Without a worker to answer the query: what the ended delegation returned. */
async function delegationFromResult(
  handle: WorkflowHandle,
  status: WorkflowExecutionStatusName,
): Promise<DelegationStatus> {
  const described = await handle.describe();
  const agent = described.searchAttributes.A2aAgent?.[0];
  const base: DelegationStatus = {
    kind: 'delegation',
    agent: typeof agent === 'string' ? agent : 'unknown',
    phase: 'working',
    contextId: '',
    rounds: 0,
    artifacts: [],
  };
  if (status === 'COMPLETED') {
    const result = (await handle.result()) as DelegateResult;
    return {
      ...base,
      phase: 'completed',
      taskId: result.taskId,
      contextId: result.contextId,
      state: result.state,
      rounds: result.rounds,
      artifacts: result.artifacts,
    };
  }
  if (status === 'RUNNING') return base;
  return { ...base, phase: status === 'CANCELLED' ? 'canceled' : 'failed', error: await failureText(handle) };
}

async function releaseFromResult(handle: WorkflowHandle): Promise<ReleaseStatus> {
  const result = (await handle.result().catch(() => undefined)) as ReleaseResult | undefined;
  const described = await handle.describe();
  return {
    kind: 'release',
    releaseId: handle.workflowId,
    service: result?.service ?? String(described.searchAttributes.ReleaseService?.[0] ?? ''),
    fromVersion: result?.fromVersion ?? '',
    toVersion: result?.toVersion ?? '',
    phase: result?.outcome ?? (described.status.name === 'CANCELLED' ? 'canceled' : 'failed'),
    delegations: [],
    questions: [],
    report: result?.report,
    outcome: result?.outcome,
    decision: result?.decision,
    reason: result?.reason,
  };
}

async function failureText(handle: WorkflowHandle): Promise<string | undefined> {
  return handle.result().then(
    () => undefined,
    (err: unknown) => {
      const cause = (err as { cause?: Error }).cause;
      return cause?.message ?? (err as Error).message;
    },
  );
}

export function artifactView(artifact: Artifact): ArtifactView {
  const text = artifact.parts.map((p: Part) => ('text' in p && typeof p.text === 'string' ? p.text : '')).join('');
  const data = artifact.parts.flatMap((p: Part) => ('data' in p ? [p.data] : []));
  const files = artifact.parts.flatMap((p: Part) => {
    const file = fileSummaryOf(p);
    return file ? [file] : [];
  });
  return { artifactId: artifact.artifactId, name: artifact.name, text, data, parts: artifact.parts.length, files };
}

/** The files a tracking heartbeat reports: still arriving. */
function liveFiles(files: TrackProgress['artifacts'][number]['files']): FileSummary[] {
  return (files ?? []).map((f) => ({ ...f, stored: false }));
}
