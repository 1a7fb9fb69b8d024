/**
 * `a2a-temporal/release`: the `release` coordinator (our showcase: a workflow built from
 * delegations), its messages and types. Sandbox-safe. Nothing registers it for you: a worker
 * that runs it exports it from its workflows file, next to `delegate`:
 * `export { release } from 'a2a-temporal/release';`.
 *
 * @module a2a-temporal/release
 */
export { release, SORT_REQUEST } from './release.js';
export { approveUpdate, rejectUpdate, releaseAnswerUpdate, releaseStatusQuery } from '../../contract/messages.js';
export type {
  CheckOutcome,
  CheckSpec,
  Decision,
  DecisionInput,
  Finding,
  ReleaseAnswerReceipt,
  ReleaseDelegation,
  ReleaseInput,
  ReleaseOutcome,
  ReleasePhase,
  ReleaseQuestion,
  ReleaseReport,
  ReleaseResult,
  ReleaseStatus,
} from '../../contract/release-types.js';
export { RELEASE_PHASE, RELEASE_SERVICE } from '../../contract/search-attributes.js';
