/**
 * The A2A protocol client of a2a-temporal: zod-validated wire objects, agent-card discovery,
 * the HTTP+JSON and JSON-RPC bindings in A2A 1.0 and 0.3 over undici, the gRPC binding in A2A
 * 1.0 over grpc-js (code generated from the official `a2a.proto`), a robust SSE reader,
 * artifact assembly, and typed errors that say whether a retry can help. It has no Temporal
 * dependency and works on its own:
 *
 * ```ts
 * import { applyArtifactUpdate, artifactSetFromTask, artifactText, createA2AClient, fetchAgentCard, textPart } from 'a2a-temporal/a2a';
 *
 * const { card } = await fetchAgentCard('http://127.0.0.1:4000');      // discover: GET /.well-known/agent-card.json
 * const agent = createA2AClient({ card }, { timeoutMs: 30_000 });      // picks HTTP+JSON, JSONRPC or GRPC, A2A 1.0 or 0.3
 * const message = { messageId: crypto.randomUUID(), role: 'ROLE_USER' as const, parts: [textPart('Check payment-service for Node.js 24')] };
 * const sent = await agent.sendMessage({ message, configuration: { returnImmediately: true } });
 * if (!('task' in sent)) throw new Error('the agent replied with a message, not a task');
 * let report = artifactSetFromTask(sent.task);
 * for await (const event of agent.subscribeToTask({ id: sent.task.id }, { idleTimeoutMs: 60_000 })) {
 *   if ('task' in event) report = artifactSetFromTask(event.task);                             // snapshot first
 *   if ('artifactUpdate' in event) report = applyArtifactUpdate(report, event.artifactUpdate); // then chunks
 * }
 * console.log(report.artifacts.map(artifactText).join('\n'));                                 // the assembled report
 * ```
 *
 * Every call takes an `AbortSignal`; nothing retries on its own. Parsed objects are plain JSON
 * (safe to store in Temporal history). Everything an agent sends is read within caps
 * ({@link A2ALimits}: bytes, artifacts, parts, nesting). Credentials come from an
 * {@link AuthResolver}, are sent on every request and never appear in error messages.
 *
 * @module
 */
export type { JsonValue, Metadata } from './schemas/json.js';
export {
  dataPart,
  textPart,
  type DataPart,
  type Part,
  type RawPart,
  type TextPart,
  type UrlPart,
} from './schemas/part.js';
export { isInterruptedState, isTerminalState, type Role, type TaskState } from './schemas/task-state.js';
export type { Message } from './schemas/message.js';
export type { Artifact, Task, TaskStatus } from './schemas/task.js';
export type {
  SendMessageResponse,
  StreamResponse,
  TaskArtifactUpdateEvent,
  TaskStatusUpdateEvent,
} from './schemas/events.js';
export type {
  AgentCapabilities,
  AgentCard,
  AgentCardSignature,
  AgentExtension,
  AgentInterface,
  AgentProvider,
  AgentSkill,
  SecurityRequirement,
  SecurityScheme,
} from './schemas/agent-card.js';
export type { AuthenticationInfo, TaskPushNotificationConfig } from './schemas/push-config.js';
export type {
  ListTasksRequest,
  ListTasksResponse,
  SendMessageConfiguration,
  SendMessageRequest,
} from './schemas/requests.js';
export {
  fetchAgentCard,
  parseAgentCard,
  selectInterface,
  type FetchAgentCardOptions,
  type FetchedAgentCard,
  type InterfacePreference,
  type SelectedInterface,
  type SupportedBinding,
  type SupportedVersion,
} from './agent-card.js';
export { apiKeyAuth, bearerAuth, type AuthMaterial, type AuthResolver } from './auth.js';
export { createA2AClient, type A2AClient, type A2AClientOptions, type A2AClientTarget } from './client.js';
export type {
  CallOptions,
  CancelTaskParams,
  GetTaskParams,
  ListPushConfigsParams,
  ListPushConfigsResult,
  PushConfigRef,
  StreamOptions,
  SubscribeToTaskParams,
  Transport,
} from './transport.js';
export {
  ArtifactAssembler,
  applyArtifactUpdate,
  artifactSetFromTask,
  artifactText,
  emptyArtifactSet,
  isArtifactSetComplete,
  type ArtifactLimits,
  type ArtifactSet,
} from './artifacts.js';
export { A2AError, isA2AError } from './errors.js';
export { DEFAULT_LIMITS, type A2ALimits } from './limits.js';
export type { HttpObservation, HttpObserver } from './http.js';
export { OutboundPolicy, type OutboundPolicyOptions } from './outbound-policy.js';
