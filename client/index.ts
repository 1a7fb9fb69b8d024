/**
 * `a2a-temporal/client`: reading delegations and releases from a Temporal client, as
 * `a2a-temporal status` does. Start them, answer them and query them with `@temporalio/client`
 * and the message definitions and types of `a2a-temporal/workflows` (and `/release`).
 *
 * @module a2a-temporal/client
 */
export {
  readStatus,
  type ArtifactView,
  type DelegationView,
  type QuestionView,
  type StatusSource,
  type StatusView,
} from './status-view.js';
export { pendingActivities, trackingProgress, type PendingActivityView } from './tracking-progress.js';
export type { TrackProgress } from '../activities/task-outcome.js';
export { tracingClientOptions } from '../telemetry/client-interceptors.js';
