/** Shared pieces of the interop tests: the four ways to talk to the sample agent, and message builders. */
import { randomUUID } from 'node:crypto';
import {
  isInterruptedState,
  isTerminalState,
  selectInterface,
  type AgentCard,
  type Message,
  type SelectedInterface,
  type StreamResponse,
  type TaskState,
} from '../../../a2a/index.js';

export const MANIFEST = { name: 'payment-service', dependencies: { 'node-sass': '^4.14.1', express: '^4.18.2' } };

/** Each combination the sample agent serves in legacy mode. */
export const MODES = [
  { name: 'HTTP+JSON 1.0', binding: 'HTTP+JSON', version: '1.0' },
  { name: 'JSONRPC 1.0', binding: 'JSONRPC', version: '1.0' },
  { name: 'HTTP+JSON 0.3', binding: 'HTTP+JSON', version: '0.3' },
  { name: 'JSONRPC 0.3', binding: 'JSONRPC', version: '0.3' },
] as const;

export type Mode = (typeof MODES)[number];

export function endpointFor(card: AgentCard, mode: Mode): SelectedInterface {
  return selectInterface(card, { bindings: [mode.binding], versions: [mode.version] });
}

/** A user message: the manifest as a data part, optional text, optional task/context and metadata. */
export function userMessage(
  options: {
    text?: string;
    manifest?: boolean;
    taskId?: string;
    contextId?: string;
    metadata?: Record<string, unknown>;
    referenceTaskIds?: string[];
  } = {},
): Message {
  const message: Message = { messageId: randomUUID(), role: 'ROLE_USER', parts: [] };
  if (options.text) message.parts.push({ text: options.text, mediaType: 'text/plain' });
  if (options.manifest ?? true) message.parts.push({ data: MANIFEST, mediaType: 'application/json' });
  if (options.taskId) message.taskId = options.taskId;
  if (options.contextId) message.contextId = options.contextId;
  if (options.metadata) message.metadata = options.metadata;
  if (options.referenceTaskIds) message.referenceTaskIds = options.referenceTaskIds;
  return message;
}

/** The state an event reports, if it reports one. */
export function stateOf(event: StreamResponse): TaskState | undefined {
  if ('task' in event) return event.task.status.state;
  if ('statusUpdate' in event) return event.statusUpdate.status.state;
  return undefined;
}

/**
 * Reads a stream until its turn ends: the server closes it, or a *status update* (not the first
 * Task snapshot, which on a follow-up still says INPUT_REQUIRED) is terminal or interrupted.
 */
export async function readTurn(stream: AsyncIterable<StreamResponse>): Promise<StreamResponse[]> {
  const events: StreamResponse[] = [];
  for await (const event of stream) {
    events.push(event);
    if ('statusUpdate' in event) {
      const state = event.statusUpdate.status.state;
      if (isTerminalState(state) || isInterruptedState(state)) break;
    }
  }
  return events;
}

/** Reads a subscription until the task reports `until` (in its snapshot or a status update). */
export async function readUntilState(
  stream: AsyncIterable<StreamResponse>,
  until: (s: TaskState) => boolean,
): Promise<StreamResponse[]> {
  const events: StreamResponse[] = [];
  for await (const event of stream) {
    events.push(event);
    const state = stateOf(event);
    if (state && until(state)) break;
  }
  return events;
}

export function textOf(message: Message | undefined): string {
  return (message?.parts ?? []).map((p) => ('text' in p ? p.text : '')).join('');
}
