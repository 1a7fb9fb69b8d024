/**
 * The release coordinator's contract: input, result, the `status` query's answer, and the
 * payloads of its updates. Plain JSON only: these live in history.
 */
import type { ArtifactRef } from './artifact-ref.js';
import type { Duration } from '@temporalio/common';
import type { DelegationPhase, PendingQuestion, TrackingMode } from './delegation-types.js';
import type { TaskState } from '../a2a/index.js';

/** One delegation the release makes (besides the analysis' follow-up). */
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

export type ReleasePhase =
  | 'analysing'
  | 'waiting-for-input'
  | 'following-up'
  | 'awaiting-approval'
  | 'approved'
  | 'rejected'
  | 'failed'
  | 'canceled';

export type ReleaseOutcome = 'approved' | 'rejected' | 'failed';

/** One delegation of the release, as the release last heard of it. */
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

/** A question waiting for an answer, with the delegation it belongs to. */
export interface ReleaseQuestion extends PendingQuestion {
  label: string;
  workflowId: string;
  agent: string;
}

export interface Finding {
  name: string;
  current?: string;
  suggested?: string;
  risk: 'high' | 'medium' | 'low' | string;
  reason?: string;
}

export interface CheckOutcome {
  label: string;
  agent: string;
  workflowId: string;
  outcome: 'completed' | 'failed' | 'rejected' | 'canceled' | 'answered';
  /** The check's result text (shortened) or why it failed. */
  summary: string;
}

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

export interface Decision {
  outcome: 'approved' | 'rejected';
  by: string;
  reason?: string;
  /** Workflow time of the decision (ISO 8601). */
  at: string;
}

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

/** Payload of the `approve` and `reject` updates. */
export interface DecisionInput {
  /** Who decides (shown in the report and the UI). */
  by: string;
  /** Required to reject. */
  reason?: string;
}

/** What the release's `answer` update returns: which delegation got the answer. */
export interface ReleaseAnswerReceipt {
  label: string;
  workflowId: string;
  taskId: string;
  /** The question answered, within its delegation. */
  questionId?: string;
  answerId: string;
}
