/**
 * Signals, updates and queries, shared by workflows and clients (one naming scheme: camelCase
 * wire names). Both a delegation and a release answer the `status` query and the `answer`
 * update/signal, so the CLI treats either id the same way.
 */
import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type {
  AnswerInput,
  AnswerReceipt,
  DelegationNotice,
  DelegationStatus,
  TaskUpdatedNotice,
} from './delegation-types.js';
import type { Decision, DecisionInput, ReleaseAnswerReceipt, ReleaseStatus } from './release-types.js';

/** The delegation's state: phase, task, pending question, artifacts so far. */
export const delegationStatusQuery = defineQuery<DelegationStatus>('status');

/**
 * Answers the agent's pending question. The validator rejects (nothing is written to history)
 * when no question is pending, when `taskId` names another task, or when the text is empty.
 */
export const answerUpdate = defineUpdate<AnswerReceipt, [AnswerInput]>('answer');

/** The same answer, fire-and-forget (for `temporal workflow signal` and callers that cannot wait). Invalid answers are dropped and logged. */
export const answerSignal = defineSignal<[AnswerInput]>('answer');

/** Push mode: the webhook receiver verified a delivery for the delegation's task (a hint to read it again). */
export const taskUpdatedSignal = defineSignal<[TaskUpdatedNotice]>('taskUpdated');

/**
 * Push mode's answer to "would you act on this notice?": `yes` (signal it), `no` (another task or
 * push config, or the question already answered: never signal it), `later` (a send or read of the
 * task is under way: offer it again after it, when the delegation knows what that found).
 */
export type TaskUpdateWanted = 'yes' | 'no' | 'later';

/**
 * Push mode: whether the delegation would act on this notice now. The receiver asks before every
 * signal, so the snapshot an agent delivers when an answer arrives costs no history (a query
 * writes nothing), and no signal lands in the workflow task whose read completes the delegation
 * (which would fail that task: it then runs again).
 */
export const taskUpdateWantedQuery = defineQuery<TaskUpdateWanted, [TaskUpdatedNotice]>('taskUpdateWanted');

/** Sent by a child delegation to its parent when a question appears or goes away, or it ends. */
export const delegationChangedSignal = defineSignal<[DelegationNotice]>('delegationChanged');

/** The release's state: phase, delegations, pending questions, report, decision. */
export const releaseStatusQuery = defineQuery<ReleaseStatus>('status');

/**
 * Answers a question of one of the release's delegations: the only one waiting, or the one
 * whose task is `taskId`. The validator rejects when nothing waits, the task is not waiting, or
 * several wait and no task is named.
 */
export const releaseAnswerUpdate = defineUpdate<ReleaseAnswerReceipt, [AnswerInput]>('answer');

/** Approves the release once its report is ready. */
export const approveUpdate = defineUpdate<Decision, [DecisionInput]>('approve');

/** Rejects the release (a reason is required) once its report is ready. */
export const rejectUpdate = defineUpdate<Decision, [DecisionInput]>('reject');
