/**
 * The delegation activities, built once per worker with their dependencies:
 *
 * ```ts
 * const activities = createActivities({ registry: loadAgentRegistry('agents.json') });
 * await Worker.create({ ..., activities });   // or use the a2aTemporalPlugin
 * ```
 */
import { Agent, type Dispatcher } from 'undici';
import { AgentRegistry } from './agent-registry.js';
import { cancelTask, type CancelTaskInput } from './cancel-task.js';
import { AgentCardCache } from './card-cache.js';
import type { ActivityDeps } from './deps.js';
import { getTask, type GetTaskInput } from './get-task.js';
import { deletePushConfig, registerPushConfig, type PushConfigInput } from './push-config.js';
import { resolveAgent, type ResolveAgentInput } from './resolve-agent.js';
import { sendMessage, type SendMessageInput } from './send-message.js';
import { streamMessage, type StreamMessageInput } from './stream-message.js';
import { trackTask, type TrackTaskInput } from './track-task.js';

export interface CreateActivitiesOptions {
  /** Agent names → URLs and credential references. @default an empty registry (agents by URL only) */
  registry?: AgentRegistry;
  /** undici dispatcher for all agent traffic. @default a keep-alive pool per origin */
  dispatcher?: Dispatcher;
  /** @default 30_000 */
  requestTimeoutMs?: number;
  /**
   * Push mode's webhook receiver: its public base URL (what agents POST to) and the secret the
   * per-delegation credentials are derived from. Unset: `auto` never picks push, and `push` fails.
   */
  webhook?: ActivityDeps['webhook'];
  /** Caps on what agents may send: bytes of bodies, cards and SSE, artifacts, parts, JSON depth. @default DEFAULT_LIMITS */
  limits?: ActivityDeps['limits'];
  /** Spans and metrics of agent requests (see telemetry/); unset = none. */
  telemetry?: ActivityDeps['telemetry'];
}

export function createActivities(options: CreateActivitiesOptions = {}) {
  // One pool for all agents: keep-alive connections are reused across delegations. No body
  // timeout: streams stay silent while a task is parked; the tracker has its own idle timeout.
  const dispatcher = options.dispatcher ?? new Agent({ connections: 256, bodyTimeout: 0, keepAliveTimeout: 30_000 });
  const deps: ActivityDeps = {
    registry: options.registry ?? new AgentRegistry({ agents: {} }),
    cards: new AgentCardCache({ dispatcher, limits: options.limits, observer: options.telemetry?.observer }),
    dispatcher,
    webhook: options.webhook,
    requestTimeoutMs: options.requestTimeoutMs ?? 30_000,
    limits: options.limits,
    telemetry: options.telemetry,
  };
  return {
    resolveAgent: (input: ResolveAgentInput) => resolveAgent(deps, input),
    sendMessage: (input: SendMessageInput) => sendMessage(deps, input),
    streamMessage: (input: StreamMessageInput) => streamMessage(deps, input),
    trackTask: (input: TrackTaskInput) => trackTask(deps, input),
    cancelTask: (input: CancelTaskInput) => cancelTask(deps, input),
    getTask: (input: GetTaskInput) => getTask(deps, input),
    registerPushConfig: (input: PushConfigInput) => registerPushConfig(deps, input),
    deletePushConfig: (input: PushConfigInput) => deletePushConfig(deps, input),
  };
}

/** The activity functions, as workflows see them through `proxyActivities`. */
export type DelegationActivities = ReturnType<typeof createActivities>;

export { AgentRegistry, loadAgentRegistry, AgentsFileSchema, type AgentsFile } from './agent-registry.js';
export type { ResolveAgentInput } from './resolve-agent.js';
export type { SendMessageInput, SendOutcome } from './send-message.js';
export type { StreamMessageInput, StreamTurnOutcome } from './stream-message.js';
export type { TrackTaskInput, TrackOutcome, TrackPhase, TrackProgress, ArtifactProgress } from './track-task.js';
export type { CancelTaskInput } from './cancel-task.js';
export type { GetTaskInput } from './get-task.js';
export type { PushConfigInput, PushRegistration } from './push-config.js';
export { pushCredential, isPushCredential } from './push-credential.js';
export { pushUrl, parsePushPath, PUSH_PATH_PREFIX } from './push-url.js';
