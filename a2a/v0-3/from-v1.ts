/**
 * A2A 1.0 → 0.3: what we send to a 0.3 agent, in its two dialects (see ./schemas.ts).
 *
 * - `kind*` functions build the 0.3 JSON-RPC params (`message/send` etc.).
 * - `proto*` functions build the 0.3 HTTP+JSON bodies (ProtoJSON of the 0.3 proto).
 *
 * `blocking` is always sent (`!returnImmediately`): 0.3 left its default unspecified and SDKs
 * disagree — the official JS SDK treats a missing `blocking` as non-blocking.
 */
import type { SendMessageRequest } from '../schemas/requests.js';
import type { Message } from '../schemas/message.js';
import type { Part } from '../schemas/part.js';
import type { TaskPushNotificationConfig } from '../schemas/push-config.js';
import { DATA_PART_COMPAT_FLAG } from './to-v1.js';

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** 0.3 data parts must hold an object; other JSON values are wrapped as `{value}` and flagged (as the official SDK does). */
function dataForLegacy(data: unknown): { data: Record<string, unknown>; wrapped: boolean } {
  return isPlainObject(data) ? { data, wrapped: false } : { data: { value: data }, wrapped: true };
}

export function kindPart(part: Part): Record<string, unknown> {
  const metadata = part.metadata ? { ...part.metadata } : undefined;
  const withMeta = (p: Record<string, unknown>) => (metadata ? { ...p, metadata } : p);
  const file = (key: 'uri' | 'bytes', value: string) => ({
    [key]: value,
    ...(part.mediaType ? { mimeType: part.mediaType } : {}),
    ...(part.filename ? { name: part.filename } : {}),
  });
  if ('text' in part) return withMeta({ kind: 'text', text: part.text });
  if ('url' in part) return withMeta({ kind: 'file', file: file('uri', part.url) });
  if ('raw' in part) return withMeta({ kind: 'file', file: file('bytes', part.raw) });
  const { data, wrapped } = dataForLegacy(part.data);
  if (!wrapped) return withMeta({ kind: 'data', data });
  return { kind: 'data', data, metadata: { ...(metadata ?? {}), [DATA_PART_COMPAT_FLAG]: true } };
}

function legacyRole(role: Message['role']): string {
  return role === 'ROLE_AGENT' ? 'agent' : 'user';
}

export function kindMessage(message: Message): Record<string, unknown> {
  return {
    kind: 'message',
    messageId: message.messageId,
    role: legacyRole(message.role),
    parts: message.parts.map(kindPart),
    ...(message.contextId ? { contextId: message.contextId } : {}),
    ...(message.taskId ? { taskId: message.taskId } : {}),
    ...(message.metadata ? { metadata: message.metadata } : {}),
    ...(message.extensions?.length ? { extensions: message.extensions } : {}),
    ...(message.referenceTaskIds?.length ? { referenceTaskIds: message.referenceTaskIds } : {}),
  };
}

export function kindPushConfig(config: TaskPushNotificationConfig): Record<string, unknown> {
  return {
    url: config.url,
    ...(config.id ? { id: config.id } : {}),
    ...(config.token ? { token: config.token } : {}),
    ...(config.authentication
      ? {
          authentication: {
            schemes: [config.authentication.scheme],
            ...(config.authentication.credentials ? { credentials: config.authentication.credentials } : {}),
          },
        }
      : {}),
  };
}

/** `message/send` and `message/stream` params (0.3 `MessageSendParams`). */
export function kindSendParams(req: SendMessageRequest): Record<string, unknown> {
  const c = req.configuration ?? {};
  return {
    message: kindMessage(req.message),
    configuration: {
      blocking: !c.returnImmediately,
      ...(c.acceptedOutputModes ? { acceptedOutputModes: c.acceptedOutputModes } : {}),
      ...(c.historyLength !== undefined ? { historyLength: c.historyLength } : {}),
      ...(c.taskPushNotificationConfig ? { pushNotificationConfig: kindPushConfig(c.taskPushNotificationConfig) } : {}),
    },
    ...(req.metadata ? { metadata: req.metadata } : {}),
  };
}

/** `tasks/pushNotificationConfig/set` params (0.3 `TaskPushNotificationConfig`). */
export function kindTaskPushConfig(config: TaskPushNotificationConfig & { taskId: string }): Record<string, unknown> {
  return { taskId: config.taskId, pushNotificationConfig: kindPushConfig(config) };
}

// ---------------------------------------------------------------------------------------------
// ProtoJSON of the 0.3 proto (HTTP+JSON binding).

export function protoPart(part: Part): Record<string, unknown> {
  const mime = part.mediaType ? { mimeType: part.mediaType } : {};
  if ('text' in part) return { text: part.text };
  if ('url' in part) return { file: { fileWithUri: part.url, ...mime } };
  if ('raw' in part) return { file: { fileWithBytes: part.raw, ...mime } };
  return { data: { data: dataForLegacy(part.data).data } };
}

export function protoMessage(message: Message): Record<string, unknown> {
  return {
    messageId: message.messageId,
    role: message.role === 'ROLE_AGENT' ? 'ROLE_AGENT' : 'ROLE_USER',
    content: message.parts.map(protoPart),
    ...(message.contextId ? { contextId: message.contextId } : {}),
    ...(message.taskId ? { taskId: message.taskId } : {}),
    ...(message.metadata ? { metadata: message.metadata } : {}),
    ...(message.extensions?.length ? { extensions: message.extensions } : {}),
  };
}

function protoPushConfig(config: TaskPushNotificationConfig): Record<string, unknown> {
  return kindPushConfig(config);
}

/** `POST /v1/message:send` and `/v1/message:stream` body (0.3 proto `SendMessageRequest`). */
export function protoSendRequest(req: SendMessageRequest): Record<string, unknown> {
  const c = req.configuration ?? {};
  return {
    message: protoMessage(req.message),
    configuration: {
      blocking: !c.returnImmediately,
      ...(c.acceptedOutputModes ? { acceptedOutputModes: c.acceptedOutputModes } : {}),
      ...(c.historyLength !== undefined ? { historyLength: c.historyLength } : {}),
      ...(c.taskPushNotificationConfig ? { pushNotification: protoPushConfig(c.taskPushNotificationConfig) } : {}),
    },
    ...(req.metadata ? { metadata: req.metadata } : {}),
  };
}

/** `POST /v1/tasks/{id}/pushNotificationConfigs` body: the task id travels in `name`. */
export function protoTaskPushConfig(config: TaskPushNotificationConfig & { taskId: string }): Record<string, unknown> {
  return {
    name: `tasks/${config.taskId}/pushNotificationConfigs/${config.id ?? ''}`,
    pushNotificationConfig: protoPushConfig(config),
  };
}
