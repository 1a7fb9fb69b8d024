/**
 * The contract between workflows, activities and clients: payload types, message definitions,
 * failure types, search attributes, and the few helpers every side uses. Sandbox-safe (no Node
 * built-ins, no I/O): workflows, activities, workers and clients all import it.
 */
export {
  type AgentRef,
  type AnswerInput,
  type AnswerReceipt,
  type DelegateInput,
  type DelegateResult,
  type DelegationNotice,
  type DelegationPhase,
  type DelegationStatus,
  type PendingQuestion,
  type ResolvedAgent,
  type ResumeState,
  type StatusKey,
  type TaskUpdatedNotice,
  type TrackingMode,
  type TrackingOptions,
} from './delegation-types.js';
export {
  type CheckOutcome,
  type CheckSpec,
  type Decision,
  type DecisionInput,
  type Finding,
  type ReleaseAnswerReceipt,
  type ReleaseDelegation,
  type ReleaseInput,
  type ReleaseOutcome,
  type ReleasePhase,
  type ReleaseQuestion,
  type ReleaseReport,
  type ReleaseResult,
  type ReleaseStatus,
} from './release-types.js';
export { A2A_ERROR_TYPE_PREFIX, FailureType } from './failure-types.js';
export {
  answerSignal,
  answerUpdate,
  approveUpdate,
  delegationChangedSignal,
  delegationStatusQuery,
  rejectUpdate,
  releaseAnswerUpdate,
  releaseStatusQuery,
  taskUpdatedSignal,
} from './messages.js';
export {
  A2A_AGENT,
  A2A_TASK_ID,
  A2A_TASK_STATE,
  RELEASE_PHASE,
  RELEASE_SERVICE,
  searchAttributeKeys,
} from './search-attributes.js';
export { durationMs, InvalidDurationError, InvalidSettingError, optionalDurationMs } from './durations.js';
export { truncateBytes } from './text.js';
export { A2A_ATTR, A2A_METRIC, agentLabel, boundedLabel } from './telemetry.js';
