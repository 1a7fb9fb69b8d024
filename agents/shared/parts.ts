import { randomUUID } from 'node:crypto';
import { Role } from '@a2a-js/sdk';
import type { Message, Part } from '@a2a-js/sdk';

/** Builders and readers for the SDK's proto-shaped parts and messages (every field spelled out, as the types require). */

export function textPart(text: string, mediaType = 'text/plain'): Part {
  return { content: { $case: 'text', value: text }, mediaType, filename: '', metadata: undefined };
}

/** A file part: `bytes` travel as `raw` (base64 on the wire), named and typed. */
export function filePart(bytes: Buffer, filename: string, mediaType: string): Part {
  return { content: { $case: 'raw', value: bytes }, mediaType, filename, metadata: undefined };
}

export function dataPart(data: unknown, mediaType = 'application/json'): Part {
  return { content: { $case: 'data', value: data }, mediaType, filename: '', metadata: undefined };
}

export interface AgentMessageInit {
  taskId?: string;
  contextId: string;
  text: string;
  metadata?: Record<string, unknown>;
}

export function agentMessage(init: AgentMessageInit): Message {
  return {
    messageId: randomUUID(),
    contextId: init.contextId,
    taskId: init.taskId ?? '',
    role: Role.ROLE_AGENT,
    parts: [textPart(init.text)],
    metadata: init.metadata,
    extensions: [],
    referenceTaskIds: [],
  };
}

/** All text parts of a message, joined by newlines. */
export function textOf(message: Pick<Message, 'parts'>): string {
  return message.parts.flatMap((part) => (part.content?.$case === 'text' ? [part.content.value] : [])).join('\n');
}

/** The values of all data parts, in order. */
export function dataOf(message: Pick<Message, 'parts'>): unknown[] {
  return message.parts.flatMap((part) => (part.content?.$case === 'data' ? [part.content.value as unknown] : []));
}

/** Reads `metadata[key]` as a string, or undefined. */
export function metadataString(message: Pick<Message, 'metadata'>, key: string): string | undefined {
  const value: unknown = message.metadata?.[key];
  return typeof value === 'string' ? value : undefined;
}

/** Reads `metadata[key]` as a non-negative finite number (numeric strings accepted), or undefined. */
export function metadataDelay(message: Pick<Message, 'metadata'>, key: string): number | undefined {
  const raw: unknown = message.metadata?.[key];
  const value = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : raw;
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
