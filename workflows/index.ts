/**
 * `a2a-temporal/workflows`: the sandbox-safe surface, for workflow code (and for clients, which
 * share its message definitions and types). Register our workflow in your worker's bundle by
 * name, from your workflows file: `export { delegate } from 'a2a-temporal/workflows';` (every
 * function a workflows file exports becomes a workflow type, so never `export *` from here).
 *
 * @module a2a-temporal/workflows
 */
export { delegate } from './delegate/delegate.js';
export { delegateTo, startDelegation, type DelegationChildOptions } from './delegate/child.js';
export { answerSignal, answerUpdate, delegationChangedSignal, delegationStatusQuery } from '../contract/messages.js';
export type {
  AgentRef,
  AnswerInput,
  AnswerReceipt,
  DelegateInput,
  DelegateResult,
  DelegationNotice,
  DelegationPhase,
  DelegationStatus,
  PendingQuestion,
  TrackingMode,
  TrackingOptions,
} from '../contract/delegation-types.js';
export { A2A_ERROR_TYPE_PREFIX, FailureType } from '../contract/failure-types.js';
export { A2A_AGENT, A2A_TASK_ID, A2A_TASK_STATE, searchAttributeKeys } from '../contract/search-attributes.js';
