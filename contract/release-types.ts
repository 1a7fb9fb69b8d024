/**
 * The release coordinator's contract: input, result, the `status` query's answer, and the
 * payloads of its updates. Plain JSON only: these live in history.
 */
import type { ArtifactRef } from './artifact-ref.js';
import type { Duration } from '@temporalio/common';
import type { DelegationPhase, PendingQuestion, TrackingMode } from './delegation-types.js';
import type { TaskState } from '../a2a/index.js';

/** One delegation the release makes (besides the analysis' follow-up). See [docs/guide.md](../docs/guide.md#the-commands). */
export interface CheckSpec {
  /** Short name, also the last part of the child workflow id: `<release id>/<label>`. */
  label: string;
  /** Agent name from the worker's agents file, or a URL. */
  agent: string;
  /** What to ask; a default per well-known label otherwise. */
  request?: string;
  /** Metadata of the first message (agent-specific switches). */
  metadata?: Record<string, unknown>;
}

/** The input of the `release` workflow: the service, the versions, the manifest and the checks to run. See [docs/guide.md](../docs/guide.md#the-commands). */
export interface ReleaseInput {
  /** The service to release, e.g. `payment-service`. */
  service: string;
  /** The version running now. */
  fromVersion: string;
  /** The version to release. */
  toVersion: string;
  /** The service's dependency manifest (package.json contents). */
  manifest: Record<string, unknown>;
  /** The dependency-compatibility analysis (label `compat`); its findings are followed up and sorted by risk. */
  compat: Omit<CheckSpec, 'label'>;
  /** Further checks run in parallel with the analysis (e.g. changelog, license). */
  checks: CheckSpec[];
  /** How delegations follow their tasks. @default 'auto' */
  mode?: TrackingMode;
  /** Deadline for each question an agent asks. @default none */
  inputTimeout?: Duration;
  /** Deadline for the approval; without a decision by then the release ends rejected. @default none */
  approvalTimeout?: Duration;
}

/** Where a release is, as `status` and the `ReleasePhase` search attribute show it. See [docs/guide.md](../docs/guide.md#the-commands). */
export type ReleasePhase =
  | 'analysing'
  | 'waiting-for-input'
  | 'following-up'
  | 'awaiting-approval'
  | 'approved'
  | 'rejected'
  | 'failed'
  | 'canceled';

/** How a release ended. See [docs/guide.md](../docs/guide.md#the-commands). */
export type ReleaseOutcome = 'approved' | 'rejected' | 'failed';

/** One delegation of the release, as the release last heard of it. See [docs/guide.md](../docs/guide.md#the-commands). */
export interface ReleaseDelegation {
  /** Its label in the release (`compat`, `changelog`, …); its workflow id ends with it. */
  label: string;
  /** The delegation's workflow id. */
  workflowId: string;
  /** The agent it delegates to. */
  agent: string;
  /** Where the delegation is. */
  phase: DelegationPhase;
  /** The agent's task id, once named. */
  taskId?: string;
  /** The agent's context id, once named. */
  contextId?: string;
  /** The task's A2A state, as last reported. */
  state?: TaskState;
  /** The question it waits on, while it does. */
  question?: PendingQuestion;
  /** Why it failed, once it did. */
  error?: string;
  /** The last notice taken from it (older ones, arriving late, are ignored). */
  seq?: number;
}

/** A question waiting for an answer, with the delegation it belongs to. See [docs/guide.md](../docs/guide.md#the-commands). */
export interface ReleaseQuestion extends PendingQuestion {
  /** The asking delegation's label. */
  label: string;
  /** The asking delegation's workflow id. */
  workflowId: string;
  /** The agent that asks. */
  agent: string;
}

/** One dependency of the report: current and suggested version, risk and reason. See [docs/guide.md](../docs/guide.md#the-commands). */
export interface Finding {
  /** The dependency's package name. */
  name: string;
  /** The version the service uses now. */
  current?: string;
  /** The version the agent suggests. */
  suggested?: string;
  /** How risky the upgrade is: `high`, `medium`, `low` (or the agent's own word). */
  risk: 'high' | 'medium' | 'low' | string;
  /** Why, in the agent's words. */
  reason?: string;
}

/** How one check (or the analysis) of a release ended. See [docs/guide.md](../docs/guide.md#the-commands). */
export interface CheckOutcome {
  /** The check's label (`compat` for the analysis). */
  label: string;
  /** The agent that ran it. */
  agent: string;
  /** Its delegation's workflow id. */
  workflowId: string;
  /** How it ended. */
  outcome: 'completed' | 'failed' | 'rejected' | 'canceled' | 'answered';
  /** The check's result text (shortened) or why it failed. */
  summary: string;
}

/** The report a release builds for approval: the findings sorted by risk and the checks' outcomes. See [docs/guide.md](../docs/guide.md#the-commands). */
export interface ReleaseReport {
  /** The service released. */
  service: string;
  /** The version running before. */
  fromVersion: string;
  /** The version released. */
  toVersion: string;
  /** The Node.js major version the answer to the analysis' question chose. */
  targetNode?: number;
  /** Fix suggestions, highest risk first. */
  dependencies: Finding[];
  /** Whether `dependencies` comes from the agent's sorted follow-up (false: sorted here after it failed). */
  sortedByAgent: boolean;
  /** How the dependency analysis ended. */
  analysis: CheckOutcome;
  /** How each further check ended. */
  checks: CheckOutcome[];
  /** The files the delegations returned into the blob store (their references; the report links each). */
  files: ReportFile[];
  /** The whole report as Markdown (what `status` renders and the UI shows). */
  markdown: string;
}

/** A stored file of one of the release's delegations. */
export interface ReportFile {
  /** The delegation's label (`changelog`, `license`…). */
  label: string;
  /** The delegation's workflow id. */
  workflowId: string;
  /** The file's reference in the blob store. */
  ref: ArtifactRef;
}

/** The approval or rejection of a release: who decided, when and why. See [docs/guide.md](../docs/guide.md#the-commands). */
export interface Decision {
  /** Whether the release was approved or rejected. */
  outcome: 'approved' | 'rejected';
  /** Who decided. */
  by: string;
  /** Why (required to reject). */
  reason?: string;
  /** Workflow time of the decision (ISO 8601). */
  at: string;
}

/** What the `release` workflow returns: its outcome, report and decision. See [docs/guide.md](../docs/guide.md#the-commands). */
export interface ReleaseResult {
  /** The release's workflow id. */
  releaseId: string;
  /** The service released. */
  service: string;
  /** The version running before. */
  fromVersion: string;
  /** The version released (or not). */
  toVersion: string;
  /** How the release ended. */
  outcome: ReleaseOutcome;
  /** Why it was rejected or failed (the approver's reason, the deadline, the failing agent). */
  reason?: string;
  /** The approver's decision, when one was given. */
  decision?: Decision;
  /** The report, when the analysis got that far. */
  report?: ReleaseReport;
}

/** What the `status` query of a release returns: its phase, delegations, questions, report and decision. See [docs/guide.md](../docs/guide.md#the-commands). */
export interface ReleaseStatus {
  /** Always `release` (a delegation's status says `delegation`). */
  kind: 'release';
  /** The release's workflow id. */
  releaseId: string;
  /** The service to release. */
  service: string;
  /** The version running now. */
  fromVersion: string;
  /** The version to release. */
  toVersion: string;
  /** Where the release is. */
  phase: ReleasePhase;
  /** Its delegations, as the release last heard of them. */
  delegations: ReleaseDelegation[];
  /** Questions waiting for an answer (`answer <release id> <text> [--task <taskId>]`). */
  questions: ReleaseQuestion[];
  /** The report, once written. */
  report?: ReleaseReport;
  /** The approver's decision, once given. */
  decision?: Decision;
  /** How it ended, once it did. */
  outcome?: ReleaseOutcome;
  /** Why it was rejected or failed. */
  reason?: string;
}

/** Payload of the `approve` and `reject` updates. See [docs/guide.md](../docs/guide.md#the-commands). */
export interface DecisionInput {
  /** Who decides (shown in the report and the UI). */
  by: string;
  /** Required to reject. */
  reason?: string;
}

/** What the release's `answer` update returns: which delegation got the answer. See [docs/guide.md](../docs/guide.md#the-commands). */
export interface ReleaseAnswerReceipt {
  /** The label of the delegation that got the answer. */
  label: string;
  /** Its workflow id. */
  workflowId: string;
  /** The agent's task that asked. */
  taskId: string;
  /** The question answered, within its delegation. */
  questionId?: string;
  /** The answer's id: the same id is applied once, however often it is delivered. */
  answerId: string;
}
