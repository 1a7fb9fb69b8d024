/**
 * Signals, updates and queries, shared by workflows and clients (one naming scheme: camelCase
 * wire names). Both a delegation and a release answer the `status` query and the `answer`
 * update/signal, so the CLI treats either id the same way.
 */
import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { AnswerInput, AnswerReceipt, DelegationStatus } from './delegation-types.js';

/** The delegation's state: phase, task, pending question, artifacts so far. */
export const delegationStatusQuery = defineQuery<DelegationStatus>('status');

/**
 * Answers the agent's pending question. The validator rejects (nothing is written to history)
 * when no question is pending, when `taskId` names another task, or when the text is empty.
 */
export const answerUpdate = defineUpdate<AnswerReceipt, [AnswerInput]>('answer');

/** The same answer, fire-and-forget (for `temporal workflow signal` and callers that cannot wait). Invalid answers are dropped and logged. */
export const answerSignal = defineSignal<[AnswerInput]>('answer');
