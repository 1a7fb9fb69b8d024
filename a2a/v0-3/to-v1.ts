/**
 * A2A 0.3 → 1.0: validates what a 0.3 agent sent (either 0.3 dialect, see ./schemas.ts) and
 * converts it into the 1.0 objects every caller works with.
 */
import type { z } from 'zod';
import { where } from '../error-text.js';
import { InvalidResponseError } from '../errors.js';
import type {
  SendMessageResponse,
  StreamResponse,
  TaskArtifactUpdateEvent,
  TaskStatusUpdateEvent,
} from '../schemas/events.js';
import type { Message } from '../schemas/message.js';
import type { Part } from '../schemas/part.js';
import type { TaskPushNotificationConfig } from '../schemas/push-config.js';
import type { Artifact, Task, TaskStatus } from '../schemas/task.js';
import { parseWire, type ParseContext } from '../validation.js';
import {
  LegacyArtifactUpdateSchema,
  LegacyMessageSchema,
  LegacyPushConfigListSchema,
  LegacyStatusUpdateSchema,
  LegacyTaskPushConfigSchema,
  LegacyTaskSchema,
  type LegacyArtifact,
  type LegacyMessage,
  type LegacyPart,
  type LegacyTask,
  type LegacyTaskPushConfig,
  type LegacyTaskStatus,
} from './schemas.js';
import { isRecord } from '../json-record.js';

/** The SDK's 0.3 compat layer wraps non-object data as `{value}` and flags it in metadata. */
export const DATA_PART_COMPAT_FLAG = 'data_part_compat';

export function partToV1(part: LegacyPart): Part {
  let metadata = part.metadata ? { ...part.metadata } : undefined;
  const withMeta = <T extends object>(p: T): T =>
    metadata && Object.keys(metadata).length > 0 ? { ...p, metadata } : p;
  if (part.text !== undefined) return withMeta({ text: part.text });
  if (part.file !== undefined) {
    const f = part.file;
    const common = {
      ...(f.name ? { filename: f.name } : {}),
      ...(f.mimeType ? { mediaType: f.mimeType } : {}),
    };
    const uri = f.uri ?? f.fileWithUri;
    if (uri !== undefined) return withMeta({ url: uri, ...common });
    return withMeta({ raw: f.bytes ?? f.fileWithBytes ?? '', ...common });
  }
  let value = part.data;
  // ProtoJSON DataPart is `{"data":{"data":{…}}}`; the kind-tagged form is `{"kind":"data","data":{…}}`.
  if (part.kind === undefined && isRecord(value) && Object.keys(value).length === 1 && 'data' in value) {
    value = value.data as typeof value;
  }
  if (metadata?.[DATA_PART_COMPAT_FLAG] === true) {
    if (isRecord(value) && 'value' in value) value = value.value as typeof value;
    delete metadata[DATA_PART_COMPAT_FLAG];
    if (Object.keys(metadata).length === 0) metadata = undefined;
  }
  return withMeta({ data: value ?? null, mediaType: 'application/json' });
}

export function messageToV1(message: LegacyMessage): Message {
  const out: Message = {
    messageId: message.messageId,
    role: message.role,
    parts: (message.parts ?? message.content ?? []).map(partToV1),
  };
  if (message.contextId) out.contextId = message.contextId;
  if (message.taskId) out.taskId = message.taskId;
  if (message.metadata) out.metadata = message.metadata;
  if (message.extensions?.length) out.extensions = message.extensions;
  if (message.referenceTaskIds?.length) out.referenceTaskIds = message.referenceTaskIds;
  return out;
}

export function statusToV1(status: LegacyTaskStatus): TaskStatus {
  const out: TaskStatus = { state: status.state };
  const message = status.message ?? status.update;
  if (message) out.message = messageToV1(message);
  if (status.timestamp) out.timestamp = status.timestamp;
  return out;
}

export function artifactToV1(artifact: LegacyArtifact): Artifact {
  const out: Artifact = { artifactId: artifact.artifactId, parts: artifact.parts.map(partToV1) };
  if (artifact.name) out.name = artifact.name;
  if (artifact.description) out.description = artifact.description;
  if (artifact.metadata) out.metadata = artifact.metadata;
  if (artifact.extensions?.length) out.extensions = artifact.extensions;
  return out;
}

export function taskToV1(task: LegacyTask): Task {
  const out: Task = { id: task.id, status: statusToV1(task.status) };
  if (task.contextId) out.contextId = task.contextId;
  if (task.artifacts?.length) out.artifacts = task.artifacts.map(artifactToV1);
  if (task.history?.length) out.history = task.history.map(messageToV1);
  if (task.metadata) out.metadata = task.metadata;
  return out;
}

/** A 0.3 stream event in 1.0 form, plus the 0.3 `final` flag (the last event of the stream). */
export interface LegacyEvent {
  response: StreamResponse;
  final: boolean;
}

type Kind = 'task' | 'message' | 'status-update' | 'artifact-update';

const WRAPPERS: Record<string, Kind> = {
  task: 'task',
  msg: 'message',
  message: 'message',
  statusUpdate: 'status-update',
  status_update: 'status-update',
  artifactUpdate: 'artifact-update',
  artifact_update: 'artifact-update',
};

/** Finds the kind of a 0.3 result: a `kind` tag, a ProtoJSON wrapper key, or (last resort) its shape. */
function classify(json: unknown): { kind: Kind | undefined; body: unknown; prefix: string } {
  if (!isRecord(json)) return { kind: undefined, body: json, prefix: '' };
  if (typeof json.kind === 'string') return { kind: json.kind as Kind, body: json, prefix: '' };
  const keys = Object.keys(json).filter((k) => k in WRAPPERS && json[k] !== undefined);
  const only = keys[0];
  if (keys.length === 1 && only !== undefined && isRecord(json[only])) {
    return { kind: WRAPPERS[only], body: json[only], prefix: only };
  }
  if ('artifact' in json) return { kind: 'artifact-update', body: json, prefix: '' };
  if ('messageId' in json || 'message_id' in json) return { kind: 'message', body: json, prefix: '' };
  if ('taskId' in json || 'task_id' in json) return { kind: 'status-update', body: json, prefix: '' };
  if ('id' in json && 'status' in json) return { kind: 'task', body: json, prefix: '' };
  return { kind: undefined, body: json, prefix: '' };
}

function at(ctx: ParseContext, prefix: string, what: string): ParseContext {
  return { ...ctx, what: prefix ? `${what} (in "${prefix}")` : what };
}

function parse<S extends z.ZodType>(schema: S, value: unknown, ctx: ParseContext): z.output<S> {
  return parseWire(schema, value, { ...ctx, protocolVersion: '0.3' });
}

/** A 0.3 stream event (JSON-RPC `result` or REST SSE data) → 1.0 StreamResponse. */
export function legacyEventToV1(json: unknown, ctx: ParseContext): LegacyEvent {
  const { kind, body, prefix } = classify(json);
  switch (kind) {
    case 'task':
      return { response: { task: taskToV1(parse(LegacyTaskSchema, body, at(ctx, prefix, 'Task'))) }, final: false };
    case 'message':
      // A message reply ends the exchange.
      return {
        response: { message: messageToV1(parse(LegacyMessageSchema, body, at(ctx, prefix, 'Message'))) },
        final: true,
      };
    case 'status-update': {
      const update = parse(LegacyStatusUpdateSchema, body, at(ctx, prefix, 'TaskStatusUpdateEvent'));
      const statusUpdate: TaskStatusUpdateEvent = { taskId: update.taskId, status: statusToV1(update.status) };
      if (update.contextId) statusUpdate.contextId = update.contextId;
      if (update.metadata) statusUpdate.metadata = update.metadata;
      return { response: { statusUpdate }, final: update.final === true };
    }
    case 'artifact-update': {
      const update = parse(LegacyArtifactUpdateSchema, body, at(ctx, prefix, 'TaskArtifactUpdateEvent'));
      const artifactUpdate: TaskArtifactUpdateEvent = {
        taskId: update.taskId,
        artifact: artifactToV1(update.artifact),
      };
      if (update.contextId) artifactUpdate.contextId = update.contextId;
      if (update.append) artifactUpdate.append = true;
      if (update.lastChunk) artifactUpdate.lastChunk = true;
      if (update.metadata) artifactUpdate.metadata = update.metadata;
      return { response: { artifactUpdate }, final: false };
    }
    default:
      // Let the Task schema produce the error message for an unrecognisable body.
      return {
        response: { task: taskToV1(parse(LegacyTaskSchema, body, at(ctx, prefix, 'task or message (A2A 0.3)'))) },
        final: false,
      };
  }
}

/** A 0.3 `message/send` result (bare Task/Message, or a ProtoJSON wrapper) → 1.0 SendMessageResponse. */
export function legacySendResultToV1(json: unknown, ctx: ParseContext): SendMessageResponse {
  const { response } = legacyEventToV1(json, ctx);
  if ('task' in response) return { task: response.task };
  if ('message' in response) return { message: response.message };
  throw new InvalidResponseError(
    `${where(ctx, 'from')} returned a stream event where a Task or Message was expected; the agent does not follow the A2A 0.3 wire format, so retrying will not help.`,
    {
      ...(ctx.operation ? { operation: ctx.operation } : {}),
      ...(ctx.agentUrl ? { agentUrl: ctx.agentUrl } : {}),
      path: '',
    },
  );
}

/** A bare 0.3 Task (`tasks/get`, `tasks/cancel`, REST `GET /v1/tasks/{id}`). */
export function legacyTaskToV1(json: unknown, ctx: ParseContext): Task {
  const body = isRecord(json) && isRecord(json.task) && !('id' in json) ? json.task : json;
  return taskToV1(parse(LegacyTaskSchema, body, { ...ctx, what: 'Task' }));
}

const CONFIG_NAME = /^tasks\/([^/]+)\/pushNotificationConfigs\/([^/]*)$/;

export function pushConfigToV1(config: LegacyTaskPushConfig): TaskPushNotificationConfig {
  const match = config.name ? CONFIG_NAME.exec(config.name) : null;
  const p = config.pushNotificationConfig;
  const out: TaskPushNotificationConfig = { url: p.url };
  const id = p.id || match?.[2];
  const taskId = config.taskId || match?.[1];
  if (id) out.id = id;
  if (taskId) out.taskId = taskId;
  if (p.token) out.token = p.token;
  const scheme = p.authentication?.schemes[0];
  if (scheme !== undefined) {
    out.authentication = { scheme };
    if (p.authentication?.credentials) out.authentication.credentials = p.authentication.credentials;
  }
  return out;
}

export function legacyPushConfigToV1(json: unknown, ctx: ParseContext): TaskPushNotificationConfig {
  return pushConfigToV1(parse(LegacyTaskPushConfigSchema, json, { ...ctx, what: 'TaskPushNotificationConfig' }));
}

export function legacyPushConfigListToV1(
  json: unknown,
  ctx: ParseContext,
): { configs: TaskPushNotificationConfig[]; nextPageToken?: string } {
  const parsed = parse(LegacyPushConfigListSchema, json ?? [], { ...ctx, what: 'list of push notification configs' });
  if (Array.isArray(parsed)) return { configs: parsed.map(pushConfigToV1) };
  const out: { configs: TaskPushNotificationConfig[]; nextPageToken?: string } = {
    configs: parsed.configs.map(pushConfigToV1),
  };
  if (parsed.nextPageToken) out.nextPageToken = parsed.nextPageToken;
  return out;
}
