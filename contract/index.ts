/**
 * The contract between workflows, activities and clients: payload types, message definitions,
 * failure types, search attributes, and the few helpers every side uses. Sandbox-safe (no Node
 * built-ins, no I/O): workflows, activities, workers and clients all import it.
 */
export {
  type AnswerInput,
  type DelegateInput,
  type DelegateResult,
  type DelegationPhase,
  type DelegationStatus,
  type PendingQuestion,
  type TrackingMode,
  type TrackingOptions,
} from './delegation-types.js';
export {
  type CheckSpec,
  type Decision,
  type ReleaseInput,
  type ReleaseOutcome,
  type ReleasePhase,
  type ReleaseQuestion,
  type ReleaseReport,
  type ReleaseResult,
  type ReleaseStatus,
} from './release-types.js';
export { FailureType } from './failure-types.js';
export {
  answerSignal,
  answerUpdate,
  approveUpdate,
  delegationStatusQuery,
  rejectUpdate,
  releaseAnswerUpdate,
  releaseStatusQuery,
} from './messages.js';
export { A2A_AGENT, A2A_TASK_STATE, RELEASE_PHASE, RELEASE_SERVICE } from './search-attributes.js';
export {
  ARTIFACT_REF_KEY,
  PENDING_FILE_KEY,
  artifactRefOf,
  fileSummaryOf,
  type ArtifactRef,
  type FileSummary,
} from './artifact-ref.js';
