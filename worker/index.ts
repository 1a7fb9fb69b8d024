/**
 * `a2a-temporal` (also `a2a-temporal/worker`): the worker side, for code that runs OUTSIDE
 * workflows. The plugin registers our activities (and `delegate` when the worker has no
 * workflows of its own); the rest is what a worker needs around it: the agents file, push
 * mode's settings and webhook receiver, tracing and metrics. Workflow code imports
 * `a2a-temporal/workflows` instead.
 *
 * @module a2a-temporal/worker
 */
export { a2aTemporalPlugin, ActivityNameClashError, type A2ATemporalPluginOptions } from './plugin.js';
export { DELEGATE_WORKFLOWS_PATH } from './workflow-modules.js';
export {
  AgentRegistry,
  createActivities,
  loadAgentRegistry,
  type AgentsFile,
  type CreateActivitiesOptions,
  type DelegationActivities,
} from '../activities/index.js';
export type { WebhookDeps } from '../activities/deps.js';
export { loadWebhookDeps, loadWebhookReceiverConfig, type WebhookReceiverConfig } from './webhook-config.js';
export {
  createWebhookReceiver,
  startWebhookReceiver,
  type RunningWebhookReceiver,
  type WebhookListenOptions,
  type WebhookReceiver,
  type WebhookReceiverOptions,
} from './webhook-receiver.js';
export type { ReceiverLimits } from './webhook-limits.js';
export { temporalNotifier, type PushNotifier } from './webhook-notifier.js';
export type { RejectionReason, WebhookStats } from './webhook-stats.js';
export { startTracing, stopTracing, type Tracing } from '../telemetry/tracing.js';
export { installRuntime } from '../telemetry/runtime.js';
export type { WorkerTelemetry } from '../telemetry/worker-interceptors.js';
