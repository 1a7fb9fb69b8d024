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
  service: string;
  fromVersion: string;
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
  label: string;
  workflowId: string;
  agent: string;
  phase: DelegationPhase;
  taskId?: string;
  contextId?: string;
  state?: TaskState;
  question?: PendingQuestion;
  /** Why it failed, once it did. */
  error?: string;
  /** The last notice taken from it (older ones, arriving late, are ignored). */
  seq?: number;
}

/** A question waiting for an answer, with the delegation it belongs to. See [docs/guide.md](../docs/guide.md#the-commands). */
export interface ReleaseQuestion extends PendingQuestion {
  label: string;
  workflowId: string;
  agent: string;
}

/** One dependency of the report: current and suggested version, risk and reason. See [docs/guide.md](../docs/guide.md#the-commands). */
export interface Finding {
  name: string;
  current?: string;
  suggested?: string;
  risk: 'high' | 'medium' | 'low' | string;
  reason?: string;
}

/** How one check (or the analysis) of a release ended. See [docs/guide.md](../docs/guide.md#the-commands). */
export interface CheckOutcome {
  label: string;
  agent: string;
  workflowId: string;
  outcome: 'completed' | 'failed' | 'rejected' | 'canceled' | 'answered';
  /** The check's result text (shortened) or why it failed. */
  summary: string;
}

/** The report a release builds for approval: the findings sorted by risk and the checks' outcomes. See [docs/guide.md](../docs/guide.md#the-commands). */
export interface ReleaseReport {
  service: string;
  fromVersion: string;
  toVersion: string;
  targetNode?: number;
  /** Fix suggestions, highest risk first. */
  dependencies: Finding[];
  /** Whether `dependencies` comes from the agent's sorted follow-up (false: sorted here after it failed). */
  sortedByAgent: boolean;
  analysis: CheckOutcome;
  checks: CheckOutcome[];
  /** The files the delegations returned into the blob store (their references; the report links each). */
  files: ReportFile[];
  markdown: string;
}

/** A stored file of one of the release's delegations. */
export interface ReportFile {
  /** The delegation's label (`changelog`, `license`…) and its workflow. */
  label: string;
  workflowId: string;
  ref: ArtifactRef;
}

/** The approval or rejection of a release: who decided, when and why. See [docs/guide.md](../docs/guide.md#the-commands). */
export interface Decision {
  outcome: 'approved' | 'rejected';
  by: string;
  reason?: string;
  /** Workflow time of the decision (ISO 8601). */
  at: string;
}

/** What the `release` workflow returns: its outcome, report and decision. See [docs/guide.md](../docs/guide.md#the-commands). */
export interface ReleaseResult {
  releaseId: string;
  service: string;
  fromVersion: string;
  toVersion: string;
  outcome: ReleaseOutcome;
  /** Why it was rejected or failed (the approver's reason, the deadline, the failing agent). */
  reason?: string;
  decision?: Decision;
  report?: ReleaseReport;
}

/** What the `status` query of a release returns: its phase, delegations, questions, report and decision. See [docs/guide.md](../docs/guide.md#the-commands). */
export interface ReleaseStatus {
  kind: 'release';
  releaseId: string;
  service: string;
  fromVersion: string;
  toVersion: string;
  phase: ReleasePhase;
  delegations: ReleaseDelegation[];
  /** Questions waiting for an answer (`answer <release id> <text> [--task <taskId>]`). */
  questions: ReleaseQuestion[];
  report?: ReleaseReport;
  decision?: Decision;
  outcome?: ReleaseOutcome;
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
  label: string;
  workflowId: string;
  taskId: string;
  /** The question answered, within its delegation. */
  questionId?: string;
  answerId: string;
}
