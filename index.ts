/**
 * a2a-temporal as a library, for code that runs OUTSIDE workflows (workers, clients, scripts).
 * Workflow code imports `a2a-temporal/workflows` instead: it is the only sandbox-safe entry.
 * The protocol client alone is `a2a-temporal/a2a`.
 */
export { a2aTemporalPlugin, WORKFLOWS_PATH, type A2ATemporalPluginOptions } from './worker/plugin.js';
export { createA2AWorker, type A2AWorker, type A2AWorkerOptions } from './worker/run-worker.js';
export { loadWorkerConfig, type WorkerConfig } from './worker/config.js';
export {
  createWebhookReceiver,
  startWebhookReceiver,
  type RunningWebhookReceiver,
  type WebhookListenOptions,
  type WebhookReceiver,
  type WebhookReceiverOptions,
} from './worker/webhook-receiver.js';
export { temporalNotifier, type PushNotifier } from './worker/webhook-notifier.js';
export { loadWebhookDeps, loadWebhookReceiverConfig, type WebhookReceiverConfig } from './worker/webhook-config.js';
export type { WebhookStats, RejectionReason } from './worker/webhook-stats.js';
export {
  AgentRegistry,
  AgentsFileSchema,
  createActivities,
  loadAgentRegistry,
  type AgentsFile,
  type CreateActivitiesOptions,
  type DelegationActivities,
  type TrackProgress,
} from './activities/index.js';
export { pendingActivities, trackingProgress } from './client/tracking-progress.js';
export {
  readStatus,
  type StatusView,
  type DelegationView,
  type ArtifactView,
  type QuestionView,
} from './client/status-view.js';
export { ensureTemporalCli, type TemporalCli, type TemporalCliRoute } from './platform/temporal-cli.js';
export { startDevServer, type DevServer, type DevServerOptions } from './platform/dev-server.js';
export { checkSearchAttributes, ensureSearchAttributes } from './platform/search-attributes-setup.js';
export { ensureNamespace } from './platform/namespace-setup.js';
export { requireSearchAttributes, SearchAttributesMissingError } from './worker/search-attribute-check.js';
export { temporalTarget, type TemporalTarget } from './platform/temporal-config.js';
