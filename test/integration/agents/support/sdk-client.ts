/** Drives the sample agents with the official SDK client, the way a real A2A peer would. */
import { randomUUID } from 'node:crypto';
import { Role, TaskState } from '@a2a-js/sdk';
import type { Message, Part, SendMessageConfiguration, SendMessageRequest, StreamResponse, Task } from '@a2a-js/sdk';
import { ClientFactory, ClientFactoryOptions, type Client } from '@a2a-js/sdk/client';
import type { RunningAgent } from '../../../../agents/index.js';

export const TRANSPORTS = ['JSONRPC', 'HTTP+JSON'] as const;
export type TransportName = (typeof TRANSPORTS)[number];

/** An SDK client for `agent` that uses the given binding. */
export function connect(agent: RunningAgent, transport: TransportName): Promise<Client> {
  const options = ClientFactoryOptions.createFrom(ClientFactoryOptions.default, { preferredTransports: [transport] });
  return new ClientFactory(options).createFromUrl(agent.baseUrl);
}

export interface UserMessageInit {
  text?: string;
  data?: unknown;
  taskId?: string;
  contextId?: string;
  metadata?: Record<string, unknown>;
  referenceTaskIds?: string[];
  messageId?: string;
}

export function userMessage(init: UserMessageInit): Message {
  const parts: Part[] = [];
  if (init.text !== undefined)
    parts.push({
      content: { $case: 'text', value: init.text },
      mediaType: 'text/plain',
      filename: '',
      metadata: undefined,
    });
  if (init.data !== undefined)
    parts.push({
      content: { $case: 'data', value: init.data },
      mediaType: 'application/json',
      filename: '',
      metadata: undefined,
    });
  return {
    messageId: init.messageId ?? randomUUID(),
    contextId: init.contextId ?? '',
    taskId: init.taskId ?? '',
    role: Role.ROLE_USER,
    parts,
    metadata: init.metadata,
    extensions: [],
    referenceTaskIds: init.referenceTaskIds ?? [],
  };
}

export function sendRequest(message: Message, configuration?: Partial<SendMessageConfiguration>): SendMessageRequest {
  return {
    tenant: '',
    message,
    configuration: configuration && {
      acceptedOutputModes: [],
      taskPushNotificationConfig: undefined,
      returnImmediately: false,
      ...configuration,
    },
    metadata: undefined,
  };
}

export function isTask(result: Message | Task): result is Task {
  return 'status' in result;
}

/** Blocking send that must answer with a task. */
export async function sendForTask(
  client: Client,
  message: Message,
  configuration?: Partial<SendMessageConfiguration>,
): Promise<Task> {
  const result = await client.sendMessage(sendRequest(message, configuration));
  if (!isTask(result)) throw new Error(`expected a task, got a message: ${JSON.stringify(result)}`);
  return result;
}

/** Reads a streaming send until the server closes the stream. */
export async function streamAll(client: Client, message: Message): Promise<StreamResponse[]> {
  const events: StreamResponse[] = [];
  for await (const event of client.sendMessageStream(sendRequest(message))) events.push(event);
  return events;
}

/** Reads `iterator` until an event matches, and returns the events read so far (the match included). */
export async function readUntil(
  iterator: AsyncIterator<StreamResponse>,
  matches: (event: StreamResponse) => boolean,
): Promise<StreamResponse[]> {
  const events: StreamResponse[] = [];
  for (;;) {
    const next = await iterator.next();
    if (next.done) throw new Error(`stream ended before the expected event; got ${events.map(describe).join(', ')}`);
    events.push(next.value);
    if (matches(next.value)) return events;
  }
}

/** Reads `iterator` to its end. */
export async function drain(iterator: AsyncIterator<StreamResponse>): Promise<StreamResponse[]> {
  const events: StreamResponse[] = [];
  for (let next = await iterator.next(); !next.done; next = await iterator.next()) events.push(next.value);
  return events;
}

export function isStatus(state: TaskState): (event: StreamResponse) => boolean {
  return (event) => event.payload?.$case === 'statusUpdate' && event.payload.value.status?.state === state;
}

/** The states of the status updates in a stream, in order. */
export function statusStates(events: readonly StreamResponse[]): TaskState[] {
  return events.flatMap((e) =>
    e.payload?.$case === 'statusUpdate' && e.payload.value.status ? [e.payload.value.status.state] : [],
  );
}

export function lastStatusText(events: readonly StreamResponse[]): string {
  const updates = events.flatMap((e) => (e.payload?.$case === 'statusUpdate' ? [e.payload.value] : []));
  const message = updates.at(-1)?.status?.message;
  return message ? textOfParts(message.parts) : '';
}

export interface AssembledArtifact {
  name: string;
  parts: Part[];
  chunks: number;
  /** `append` flag of each chunk, in order. */
  appends: boolean[];
  complete: boolean;
}

/** Rebuilds artifacts from `artifactUpdate` events: `append` adds parts, otherwise the artifact is replaced. */
export function assembleArtifacts(events: readonly StreamResponse[]): Map<string, AssembledArtifact> {
  const artifacts = new Map<string, AssembledArtifact>();
  for (const event of events) {
    if (event.payload?.$case !== 'artifactUpdate') continue;
    const { artifact, append, lastChunk } = event.payload.value;
    if (!artifact) continue;
    const existing = artifacts.get(artifact.artifactId);
    if (append && existing) {
      existing.parts.push(...artifact.parts);
      existing.chunks++;
      existing.appends.push(true);
      existing.complete = lastChunk;
    } else {
      artifacts.set(artifact.artifactId, {
        name: artifact.name,
        parts: [...artifact.parts],
        chunks: 1,
        appends: [append],
        complete: lastChunk,
      });
    }
  }
  return artifacts;
}

export function textOfParts(parts: readonly Part[]): string {
  return parts.flatMap((p) => (p.content?.$case === 'text' ? [p.content.value] : [])).join('');
}

export function dataOfParts(parts: readonly Part[]): unknown[] {
  return parts.flatMap((p) => (p.content?.$case === 'data' ? [p.content.value as unknown] : []));
}

export function statusText(task: Task): string {
  return task.status?.message ? textOfParts(task.status.message.parts) : '';
}

function describe(event: StreamResponse): string {
  const payload = event.payload;
  if (payload?.$case === 'statusUpdate')
    return `status ${TaskState[payload.value.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED]}`;
  return payload?.$case ?? 'empty';
}
