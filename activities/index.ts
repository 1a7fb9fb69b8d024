/**
 * The delegation activities, built once per worker with their dependencies:
 *
 * ```ts
 * const activities = createActivities({ registry: loadAgentRegistry('agents.json') });
 * await Worker.create({ ..., activities });   // or use the a2aTemporalPlugin
 * ```
 */
import type { Dispatcher } from 'undici';
import type { Task } from '../a2a/index.js';
import { publicAddressLookup } from '../a2a/outbound-policy.js';
import { removeAbandonedSpills } from '../a2a/spilled-bytes.js';
import type { ResolvedAgent } from '../contract/delegation-types.js';
import type { BlobStore } from '../storage/blob-store.js';
import { AgentAccess, defaultDispatcher } from './agent-access.js';
import { AgentRegistry } from './agent-registry.js';
import { cancelTask, type CancelTaskInput } from './cancel-task.js';
import { AgentCardCache } from './card-cache.js';
import { DEFAULT_LIMITS } from '../a2a/limits.js';
import type { ActivityDeps } from './deps.js';
import { getTask, type GetTaskInput, type GetTaskOutcome } from './get-task.js';
import { holdFiles, type HoldFilesInput } from './hold-files.js';
import { pollMessage } from './poll-message.js';
import { deletePushConfig, registerPushConfig, type PushConfigInput, type PushRegistration } from './push-config.js';
import { resolveAgent, type ResolveAgentInput } from './resolve-agent.js';
import { sendMessage, type SendMessageInput, type SendMessageOutcome } from './send-message.js';
import { streamMessage } from './stream-message.js';
import type { TrackOutcome } from './task-outcome.js';
import { TaskOwners } from './task-identity.js';
import { trackTask, type TrackTaskInput } from './track-task.js';
import type { TurnInput, TurnOutcome } from './turn.js';

/** What the delegation activities are built from: the agents file, the A2A client's settings, push mode and telemetry. See [docs/guide.md](../docs/guide.md#delegation-inside-your-own-workflows). */
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
  /**
   * File parts (and text artifacts of at least `textThresholdBytes`, 64 KiB) go to this blob
   * store as they arrive, and results carry an `ArtifactRef` instead of the bytes
   * (docs/files.md). Unset: artifacts stay inline in history (and a result past 1.5 MB fails).
   */
  artifacts?: ArtifactStoreOptions;
  /** Temporal payloads go to a blob store past a threshold (External Storage): results are not capped at 1.5 MB. */
  offloadsPayloads?: boolean;
}

/** Where the tracking activities put artifacts' bytes. */
export interface ArtifactStoreOptions {
  store: BlobStore;
  /** @default 65536 */
  textThresholdBytes?: number;
  /** The hard cap on one artifact file (A2A_RESULT_TOO_LARGE past it). @default none */
  maxArtifactBytes?: number;
}

/** The release's own activities (beside the delegations' it starts as children). */
export interface ReleaseActivities {
  /** Records the release as a holder of the stored files its report links, so retention keeps them as long as the release. */
  'a2a.holdFiles': (input: HoldFilesInput) => Promise<number>;
}

/** The activity functions by type name, as workflows see them through `proxyActivities`. See [docs/guide.md](../docs/guide.md#delegation-inside-your-own-workflows). */
export interface DelegationActivities {
  /** Fetches and checks the agent card and chooses the interface and the mode. */
  'a2a.resolveAgent': (input: ResolveAgentInput) => Promise<ResolvedAgent>;
  /** Sends a message with `returnImmediately`, or adopts the task an earlier attempt created. */
  'a2a.sendMessage': (input: SendMessageInput) => Promise<SendMessageOutcome>;
  /** Sends a message as a stream and follows the reply until the task decides. */
  'a2a.streamMessage': (input: TurnInput) => Promise<TurnOutcome>;
  /** Sends a message with `returnImmediately` and polls its task until it decides (or the round ends). */
  'a2a.pollMessage': (input: TurnInput) => Promise<TurnOutcome>;
  /** Follows a task for one round (stream or poll), heartbeating what it has seen. */
  'a2a.trackTask': (input: TrackTaskInput) => Promise<TrackOutcome>;
  /** Cancels the remote task. */
  'a2a.cancelTask': (input: CancelTaskInput) => Promise<Task | undefined>;
  /** Reads the task once (push mode), registering or deleting its push config with the read when asked. */
  'a2a.getTask': (input: GetTaskInput) => Promise<GetTaskOutcome>;
  /** Registers the push config that makes the agent deliver to our webhook receiver (when no read follows the send; otherwise the read does). */
  'a2a.registerPushConfig': (input: PushConfigInput) => Promise<PushRegistration>;
  /** Deletes that push config (idempotent). */
  'a2a.deletePushConfig': (input: PushConfigInput) => Promise<void>;
}

/**
 * The delegation activities, by activity type name: `a2a.resolveAgent`, `a2a.sendMessage`, …
 * (prefixed, so they never clash with a worker's own `sendMessage`).
 */
export function createActivities(options: CreateActivitiesOptions = {}): DelegationActivities & ReleaseActivities {
  // One pool for all agents: keep-alive connections are reused across delegations. No body
  // timeout: streams stay silent while a task is parked; the tracker has its own idle timeout.
  // Agents named by URL get a pool of their own whose connections refuse non-public addresses.
  const registry = options.registry ?? new AgentRegistry({ agents: {} });
  const dispatcher = options.dispatcher ?? defaultDispatcher();
  const publicDispatcher = options.dispatcher
    ? undefined
    : defaultDispatcher({ lookup: publicAddressLookup(registry.urlSettings.allowPrivate ?? false) });
  const requestTimeoutMs = options.requestTimeoutMs ?? 30_000;
  if (options.artifacts) removeAbandonedSpills();
  const deps: ActivityDeps = {
    registry,
    cards: new AgentCardCache({ dispatcher, limits: options.limits, observer: options.telemetry?.observer }),
    access: new AgentAccess({
      dispatcher,
      ...(publicDispatcher ? { publicDispatcher } : {}),
      env: registry.env,
      timeoutMs: requestTimeoutMs,
      limits: options.limits,
    }),
    dispatcher,
    webhook: options.webhook,
    requestTimeoutMs,
    limits: options.limits,
    telemetry: options.telemetry,
    owners: new TaskOwners(),
    ...(options.artifacts
      ? {
          artifacts: {
            store: options.artifacts.store,
            textThresholdBytes: options.artifacts.textThresholdBytes ?? 64 * 1024,
            maxArtifactBytes: options.artifacts.maxArtifactBytes ?? Number.MAX_SAFE_INTEGER,
            maxStoredBytes: options.limits?.maxDelegationStoredBytes ?? DEFAULT_LIMITS.maxDelegationStoredBytes,
          },
        }
      : {}),
    ...(options.offloadsPayloads ? { offloadsPayloads: true } : {}),
  };
  return {
    'a2a.resolveAgent': (input: ResolveAgentInput) => resolveAgent(deps, input),
    'a2a.sendMessage': (input: SendMessageInput) => sendMessage(deps, input),
    'a2a.streamMessage': (input: TurnInput) => streamMessage(deps, input),
    'a2a.pollMessage': (input: TurnInput) => pollMessage(deps, input),
    'a2a.trackTask': (input: TrackTaskInput) => trackTask(deps, input),
    'a2a.cancelTask': (input: CancelTaskInput) => cancelTask(deps, input),
    'a2a.getTask': (input: GetTaskInput) => getTask(deps, input),
    'a2a.registerPushConfig': (input: PushConfigInput) => registerPushConfig(deps, input),
    'a2a.deletePushConfig': (input: PushConfigInput) => deletePushConfig(deps, input),
    'a2a.holdFiles': (input: HoldFilesInput) => holdFiles(deps, input),
  };
}

/** An activity's name without the `a2a.` prefix, e.g. `sendMessage`. */
export type DelegationActivityName = keyof DelegationActivities extends `a2a.${infer Name}` ? Name : never;

export { AgentRegistry, loadAgentRegistry, type AgentsFile } from './agent-registry.js';
export type { ResolveAgentInput } from './resolve-agent.js';
export type { SendMessageInput, SendMessageOutcome, SendProgress } from './send-message.js';
export type { TurnInput } from './turn.js';
export type { RoundSettings, TrackTaskInput, TrackOutcome, TrackProgress } from './track-task.js';
export type { CancelTaskInput } from './cancel-task.js';
export type { GetTaskInput } from './get-task.js';
export type { HoldFilesInput } from './hold-files.js';
export type { PushConfigInput } from './push-config.js';
export type { PushFollowUp } from './push-follow-up.js';
export { pushCredential, isPushCredential } from './push-credential.js';
export { pushUrl, parsePushPath } from './push-url.js';
